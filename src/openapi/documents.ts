/**
 * OpenAPI 3.1 documents of both generations, derived from the zod schemas: the current API from
 * contract/current-routes.ts, the legacy generation from the compiled mappings (each operation with
 * its legacy route id and description). `paybridge openapi legacy|current`, and the gateway at
 * `GET /_paybridge/openapi/{legacy,current}.json`.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { CURRENT_ROUTES } from '../contract/current-routes.js';
import { errorResponse as currentError } from '../contract/current-responses.js';
import { ACTION_VARIANTS } from '../contract/zod-helpers.js';
import type { Router } from '../translate/router.js';

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema (draft 2020-12, as OpenAPI 3.1 takes it), action wrappers as oneOf their variants. */
function jsonSchema(schema: z.ZodType): Json {
  const variants = ACTION_VARIANTS.get(schema);
  if (variants)
    return {
      description: 'One action: an object whose single key names it.',
      oneOf: Object.entries(variants).map(([name, inner]) => ({
        type: 'object',
        properties: { [name]: jsonSchema(inner) },
        required: [name],
        additionalProperties: false,
      })),
    };
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Json;
  delete out.$schema;
  return out;
}

function queryParameters(schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, s]) => ({ name, in: 'query', required: !s.safeParse(undefined).success, schema: jsonSchema(s) }));
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
}

const security = [{ bearer: [] }];

export function currentDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  const error = { description: 'An error object (statusCode, errorCode, message, detail, tracer, errorTypeDescription).', content: { 'application/json': { schema: jsonSchema(currentError) } } };
  for (const route of CURRENT_ROUTES) {
    const answers = route.answers ?? [];
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      summary: route.summary,
      operationId: `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/\/(\w)/g, (_m, c: string) => c.toUpperCase()).replace(/\W/g, '')}`,
      parameters: [...pathParameters(route.path), ...queryParameters(route.query), ...['Marketplace-Id', 'Merchant-Id', 'Customer-Id'].map((name) => ({ name, in: 'header', required: false, schema: { type: 'string' }, description: 'Context (current-api.md, endpoint rule 2)' }))],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } } } : {}),
      responses: {
        ...(route.noContent
          ? { 204: { description: 'Done' } }
          : { 200: { description: 'OK', content: { 'application/json': { schema: answers.length === 1 ? jsonSchema(answers[0]!) : { oneOf: answers.map(jsonSchema) } } } } }),
        default: error,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Payments API, current generation (as the paybridge sandbox serves it)', version, description: 'current-api.md with the decisions of current-api-decisions.md and docs/decisions.md.' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Every credential type: keys, JWTs, checkout auth tokens.' } } },
    security,
    paths,
  };
}

const LEGACY_CREDENTIALS = ['Limepay-PublicKey', 'Limepay-SecretKey', 'Limepay-Token', 'Limepay-CustomerJwt', 'Limepay-MerchantJwt', 'Limepay-PlatformJwt', 'Limepay-CheckoutToken', 'Limepay-MerchantToken'];

export function legacyDocument(router: Router, version: string): Json {
  const paths: Record<string, Json> = {};
  const error = {
    description: 'A legacy error object.',
    content: { 'application/json': { schema: { type: 'object', properties: { statusCode: { type: 'integer' }, errorCode: { type: 'string' }, message: { type: 'string' }, detail: { type: 'string' }, tracer: { type: 'string' } }, required: ['statusCode', 'errorCode', 'message', 'detail', 'tracer'] } } },
  };
  for (const { mapping } of router.mappings) {
    const [method, path] = mapping.legacy.split(' ') as [string, string];
    const status = mapping.route === 'L19' ? 201 : method === 'DELETE' && mapping.response && 'empty' in mapping.response ? 204 : 200;
    (paths[path] ??= {})[method.toLowerCase()] = {
      summary: mapping.description.split(':')[0],
      description: `${mapping.description}\n\nTranslated to the current ${mapping.current}.`,
      operationId: mapping.route,
      'x-legacy-route': mapping.route,
      'x-current-call': mapping.current,
      security: LEGACY_CREDENTIALS.map((name) => ({ [name]: [] })),
      parameters: [...pathParameters(path), ...queryParameters(mapping.query?.schema)],
      ...(mapping.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(mapping.body) } } } } : {}),
      responses: {
        [status]: status === 204 ? { description: 'Done' } : { description: 'The legacy answer (legacy-api.md section 4)', content: { 'application/json': { schema: {} } } },
        ...(mapping.route === 'L4' || mapping.route === 'L5' ? { 403: { description: 'A 3DS challenge: {paymentToken, paymentActionRequired}' } } : {}),
        default: error,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Payments API, legacy generation (as paybridge accepts it)', version, description: 'legacy-api.md routes L1-L31: one credential header per credential type.' },
    components: { securitySchemes: Object.fromEntries(LEGACY_CREDENTIALS.map((name) => [name, { type: 'apiKey', in: 'header', name }])) },
    paths,
  };
}

/** This package's version (from package.json, wherever the code runs from: src/ or dist/src/). */
export function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'paybridge' && pkg.version) return pkg.version;
    } catch {
      // not here: one level further up
    }
  }
  return '0.0.0';
}
