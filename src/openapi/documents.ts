/**
 * OpenAPI 3.1 documents of both generations, derived from the zod schemas: the current API from
 * contract/current-routes.ts, the legacy generation from the compiled mappings (each operation with
 * its legacy route id and description). `paybridge openapi legacy|current`, and the gateway at
 * `GET /_paybridge/openapi/{legacy,current}.json`.
 */
import { z } from 'zod';
import { CURRENT_ROUTES } from '../contract/current-routes.js';
import { errorResponse as currentError } from '../contract/current-responses.js';
import { ACTION_VARIANTS } from '../contract/zod-helpers.js';
import { isWriteRoute } from '../translate/define.js';
import type { Router } from '../translate/router.js';
import {
  LEGACY_ERROR,
  MERCHANT_ANSWER,
  ORDER_ANSWER,
  PAY_ANSWER,
  THREE_DS_ANSWER,
  TRANSACTION_ANSWER,
} from '../../mappings/answers.js';
import { MAPPING_NAMES } from '../../mappings/index.js';

type Json = Record<string, unknown>;

/** An action wrapper's JSON Schema: oneOf its variants, each an object whose single key names it. */
function actionSchema(variants: Record<string, z.ZodType>): Json {
  return {
    description: 'One action: an object whose single key names it.',
    oneOf: Object.entries(variants).map(([name, inner]) => ({
      type: 'object',
      properties: { [name]: jsonSchema(inner) },
      required: [name],
      additionalProperties: false,
    })),
  };
}

/**
 * A zod schema as JSON Schema (draft 2020-12, as OpenAPI 3.1 takes it); action wrappers, at the top
 * or nested (`customerAccIdentifier`, `terms`, `sourceMethod`), as oneOf their variants.
 */
function jsonSchema(schema: z.ZodType): Json {
  const variants = ACTION_VARIANTS.get(schema);
  if (variants) return actionSchema(variants);
  const out = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    override: (ctx) => {
      const nested = ACTION_VARIANTS.get(ctx.zodSchema as unknown as z.ZodType);
      if (nested) Object.assign(ctx.jsonSchema, actionSchema(nested));
    },
  }) as Json;
  delete out.$schema;
  return out;
}

function queryParameters(schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, s]) => ({
    name,
    in: 'query',
    required: !s.safeParse(undefined).success,
    description: `Filter: ${name}.`,
    schema: jsonSchema(s),
  }));
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    description: `The ${m[1]} (an id with its prefix).`,
    schema: { type: 'string' },
  }));
}

/** The error statuses every operation documents, each with the error object (their codes: src/errors.ts). */
const ERROR_STATUSES: Readonly<Record<string, string>> = {
  400: 'Invalid request, conflicting credentials, a declined payment or a business rule (errorCode says which).',
  401: 'Missing or invalid credentials.',
  403: 'The credentials may not perform this action.',
  404: 'Not found, or not visible to these credentials.',
  409: 'Conflicts with the state of the resource (already paid, cancelled, ...).',
  502: 'The upstream failed (gateway).',
  504: 'The upstream did not answer in time (gateway).',
};

function errorResponses(ref: string, except: readonly number[] = []): Json {
  const out: Json = {};
  for (const [status, description] of Object.entries(ERROR_STATUSES))
    if (!except.includes(Number(status)))
      out[status] = { description, content: { 'application/json': { schema: { $ref: ref } } } };
  return out;
}

/** A camelCase operation id from a summary: `Get an order` -> `getOrder`. */
const camelCase = (text: string) =>
  text
    .replace(/\(.*?\)/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '' && !['a', 'an', 'the', 'or', 'and', 'of'].includes(w.toLowerCase()))
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join('');

/** The first path segment names an operation's tag: /orders/... -> orders. */
const tagOf = (path: string) => path.split('/')[1]!.replace(/\{.*\}/, '') || 'root';

const CURRENT_TAGS: Readonly<Record<string, string>> = {
  payto: 'PayTo agreements: direct debit of an Australian bank account.',
  tokens: 'Payment tokens from an agreement, a saved card or captured card data.',
  orders: 'Orders, and paying them.',
  transactions: 'Transactions, and the actions on them: refund, capture, cancel, transfer.',
  surcharges: 'Surcharge calculation.',
  sources: 'Saved payment sources and blocked cards.',
  customers: 'Customers: upsert, sign-in, KYC, queries.',
  payplans: 'Pay plans (instalments).',
  merchants: 'Merchants (sub-merchants of a marketplace), their bank accounts and files.',
  industries: 'Industry codes.',
  beneficialowners: 'Beneficial owners of a merchant.',
  payouts: 'Payout summaries.',
  settlements: 'Settlement entries.',
};

const LOCAL_SERVER = (what: string, port: number) => ({
  url: 'http://127.0.0.1:{port}',
  description: what,
  variables: { port: { default: String(port) } },
});

/** What both documents share around their paths: the version, info (licence, contact), a server, and the tags their operations use. */
function frame(
  paths: Record<string, Json>,
  tagDescriptions: Readonly<Record<string, string>>,
  info: { title: string; version: string; description: string },
  server: Json,
): Json {
  const used = new Set(
    Object.values(paths).flatMap((ops) => Object.values(ops).map((op) => (op as { tags: string[] }).tags[0]!)),
  );
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
      contact: { name: 'paybridge maintainers' },
    },
    servers: [server],
    tags: [...used].map((name) => ({ name, description: tagDescriptions[name] ?? name })),
  };
}

export function currentDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of CURRENT_ROUTES) {
    const answers = route.answers ?? [];
    const tag = tagOf(route.path);
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      summary: route.summary,
      description: `${route.summary} (current-api.md; decisions in current-api-decisions.md and docs/decisions.md).`,
      operationId: route.operationId ?? camelCase(route.summary),
      tags: [tag],
      parameters: [
        ...pathParameters(route.path),
        ...queryParameters(route.query),
        ...['Marketplace-Id', 'Merchant-Id', 'Customer-Id'].map((name) => ({
          name,
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'Context (current-api.md, endpoint rule 2)',
        })),
      ],
      ...(route.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.body) } } } }
        : {}),
      responses: {
        ...(route.noContent
          ? { 204: { description: 'Done, no body.' } }
          : {
              200: {
                description: 'The answer (one of these forms where the action decides).',
                content: {
                  'application/json': {
                    schema: answers.length === 1 ? jsonSchema(answers[0]!) : { oneOf: answers.map(jsonSchema) },
                  },
                },
              },
            }),
        ...errorResponses('#/components/schemas/Error', [502, 504]),
      },
    };
  }
  return {
    ...frame(
      paths,
      CURRENT_TAGS,
      {
        title: 'Payments API, current generation (as the paybridge sandbox serves it)',
        version,
        description:
          'current-api.md with the decisions of current-api-decisions.md and docs/decisions.md, as the sandbox serves it.',
      },
      LOCAL_SERVER("the sandbox's current face (paybridge sandbox prints its port)", 8081),
    ),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Every credential type: keys, JWTs, checkout auth tokens.',
        },
      },
      schemas: { Error: { ...jsonSchema(currentError), description: 'An error (current-api.md, Errors).' } },
    },
    security: [{ bearer: [] }],
    paths,
  };
}

const LEGACY_CREDENTIALS = [
  'Limepay-PublicKey',
  'Limepay-SecretKey',
  'Limepay-Token',
  'Limepay-CustomerJwt',
  'Limepay-MerchantJwt',
  'Limepay-PlatformJwt',
  'Limepay-CheckoutToken',
  'Limepay-MerchantToken',
];

/** Legacy answers that several routes share, named in components.schemas. */
const NAMED_ANSWERS: readonly (readonly [z.ZodType, string])[] = [
  [ORDER_ANSWER, 'LegacyOrder'],
  [TRANSACTION_ANSWER, 'LegacyTransaction'],
  [MERCHANT_ANSWER, 'LegacyMerchant'],
  [PAY_ANSWER, 'LegacyPayment'],
  [THREE_DS_ANSWER, 'LegacyPaymentActionRequired'],
];

/** What each mapping file holds; the route ids a tag covers are read from its mappings. */
const LEGACY_TAG_TOPICS: Readonly<Record<string, string>> = {
  orders: 'Orders',
  pay: 'Paying an order, 3DS included',
  transactions: 'Transactions: read, capture, cancel, transfer',
  refunds: 'Refunds',
  customers: 'Customers and their sign-in',
  sources: 'Saved payment sources',
  tokens: 'Payment tokens from saved cards',
  payplans: 'Pay plans',
  merchants: 'Sub-merchants of a platform',
};

/** Each tag's description: its topic and the routes its mappings translate (`Refunds (L7, L8).`). */
function legacyTags(router: Router): Record<string, string> {
  const routes = new Map<string, string[]>();
  for (const { mapping } of router.mappings) {
    const tag = fileTag(mapping.source);
    routes.set(tag, [...(routes.get(tag) ?? []), mapping.route]);
  }
  return Object.fromEntries(
    [...routes].map(([tag, ids]) => [
      tag,
      `${LEGACY_TAG_TOPICS[tag] ?? tag} (${ids.sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).join(', ')}).`,
    ]),
  );
}

/** The mapping file of a mapping names its tag: mappings/orders.ts -> orders. */
const fileTag = (source: string) => source.replace(/^.*\//, '').replace(/\.[cm]?[jt]s$/, '');

export function legacyDocument(router: Router, version: string): Json {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = { LegacyError: jsonSchema(LEGACY_ERROR) };
  for (const [schema, name] of NAMED_ANSWERS) schemas[name] = jsonSchema(schema);
  const answerSchema = (schema: z.ZodType): Json => {
    const named = NAMED_ANSWERS.find(([s]) => s === schema);
    return named ? { $ref: `#/components/schemas/${named[1]}` } : jsonSchema(schema);
  };
  for (const { mapping } of router.mappings)
    for (const [form, legacy] of [mapping.legacy, ...(mapping.alsoAt ?? [])].entries()) {
      const [method, path] = legacy.split(' ') as [string, string];
      const answers: Json = {};
      for (const [status, schema] of Object.entries(mapping.answers))
        answers[status] =
          schema === null
            ? { description: 'Done, no body.' }
            : {
                description:
                  Number(status) === 403
                    ? 'A 3DS challenge: open redirectURL, then pay again with paymentActionRequired.'
                    : 'The legacy answer (legacy-api.md section 4).',
                content: { 'application/json': { schema: answerSchema(schema) } },
              };
      // a write whose answer could not be read in full (a money write's even by a read of the resource): never a 5xx
      if (isWriteRoute(mapping))
        answers['202'] = {
          description:
            'Taken, but its answer could not be read in full (answer_incomplete): do not repeat the call; read the resource.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/LegacyError' } } },
        };
      (paths[path] ??= {})[method.toLowerCase()] = {
        summary: `${mapping.route}: ${mapping.description.split(/[:;.]/)[0]}`,
        description: `${mapping.description}\n\nTranslated to the current \`${mapping.current}\`.`,
        operationId: `${MAPPING_NAMES.get(mapping) ?? mapping.route}${form === 0 ? '' : `Form${'BCDEFGH'[form - 1]}`}`,
        tags: [fileTag(mapping.source)],
        'x-legacy-route': mapping.route,
        'x-current-call': mapping.current,
        security: LEGACY_CREDENTIALS.map((name) => ({ [name]: [] })),
        parameters: [...pathParameters(path), ...queryParameters(mapping.query?.schema)],
        ...(mapping.body
          ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(mapping.body) } } } }
          : {}),
        responses: {
          ...answers,
          ...errorResponses('#/components/schemas/LegacyError', Object.keys(answers).map(Number)),
        },
      };
    }
  return {
    ...frame(
      paths,
      legacyTags(router),
      {
        title: 'Payments API, legacy generation (as paybridge accepts it)',
        version,
        description:
          'The legacy routes of legacy-api.md, as paybridge accepts them and answers them: one credential header per credential type. Each operation names its route id (x-legacy-route) and the current call it is translated to (x-current-call).',
      },
      LOCAL_SERVER('paybridge (npm start)', 8080),
    ),
    components: {
      securitySchemes: Object.fromEntries(
        LEGACY_CREDENTIALS.map((name) => [
          name,
          { type: 'apiKey', in: 'header', name, description: `The legacy ${name} header.` },
        ]),
      ),
      schemas,
    },
    paths,
  };
}
