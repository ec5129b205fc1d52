/**
 * OpenAPI 3.1 documents of both generations, derived from the zod schemas and mappings: valid for a
 * well-kept validator, with no error under Redocly's recommended rules and Spectral's oas ruleset, a
 * schema for every answer (the legacy ones checked against what the gateway really answers), and a
 * client generated from the legacy document (openapi-typescript) that type-checks a call and its answer.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import openapiTS, { astToString } from 'openapi-typescript';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_ROUTES } from '../../src/contract/current-routes.js';
import { currentDocument, legacyDocument } from '../../src/openapi/documents.js';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import { createTranslator } from '../../src/translate/index.js';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import { spawnBin } from '../helpers/spawn.js';
import { spawnGateway } from '../helpers/gateway.js';
import { dotnetSdk } from '../clients/dotnet.js';
import { magento } from '../clients/magento.js';
import { wooCommerce } from '../clients/woocommerce.js';
import { unblockCards } from '../clients/replay.js';

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway({ upstreams: { sandbox: { current: 'http://127.0.0.1:1' } } });
});
afterAll(() => gw.close());

describe('OpenAPI documents', () => {
  it('describe every legacy route with its id and description, valid OpenAPI 3.1', async () => {
    const doc = legacyDocument(createTranslator().routes, '1.0.0') as {
      paths: Record<string, Record<string, { 'x-legacy-route': string; description: string }>>;
    };
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    // one operation per route, and one more per other form a route is also taken at (L23)
    const forms = createTranslator().routes.mappings.flatMap(({ mapping }) => [
      mapping.route,
      ...(mapping.alsoAt ?? []).map(() => mapping.route),
    ]);
    expect(ops.map((o) => o['x-legacy-route']).sort()).toEqual(forms.sort());
    expect(new Set(ops.map((o) => o['x-legacy-route']))).toEqual(new Set(LEGACY_ROUTES.map((r) => r.id)));
    for (const op of ops) expect(op.description.length, op['x-legacy-route']).toBeGreaterThan(20);
    // the legacy body as the deployed clients send it, from the mapping's schema
    expect(JSON.stringify(doc.paths['/orders']!.post)).toContain('internalOrderId');
  });

  it('describe every current operation the sandbox serves, action wrappers as their variants, valid OpenAPI 3.1', async () => {
    const doc = currentDocument('1.0.0') as { paths: Record<string, Record<string, unknown>> };
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    for (const route of CURRENT_ROUTES)
      expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
    expect(JSON.stringify(doc.paths['/transactions/{transactionId}']!.patch)).toContain('CreateRefund');
  });

  it('are served by the gateway and printed by the CLI', async () => {
    for (const which of ['legacy', 'current']) {
      const res = await client(gw.url).get(`/_paybridge/openapi/${which}.json`);
      expect(res.status).toBe(200);
      expect(res.body.openapi).toBe('3.1.0');
    }
    const other = await client(gw.url).get('/_paybridge/openapi/other.json');
    expect(other.status).toBe(404);
    expect(legacyError.parse(other.body)).toMatchObject({
      errorCode: 'not_found',
      detail: 'generation: legacy.json or current.json',
      tracer: other.headers.get('x-request-id'),
    });
    const cli = spawnBin(['openapi', 'current']);
    expect(await cli.exited).toBe(0);
    expect(JSON.parse(cli.stdout()).paths['/orders'].post.requestBody).toBeDefined();
    const wrong = spawnBin(['openapi', 'v3']);
    expect(await wrong.exited).toBe(2);
    expect(wrong.stderr()).toContain('paybridge openapi: "v3" is not a generation; name legacy or current');
  });
});

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

/** Redocly's recommended rules and Spectral's oas ruleset over one document: their problems by severity. */
async function lintDocument(doc: object): Promise<{ errors: string[]; warnings: string[] }> {
  const source = JSON.stringify(doc, null, 2);
  const problems = await lintFromString({
    source,
    absoluteRef: 'openapi.json',
    config: await createConfig({ extends: ['recommended'] }),
  });
  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[oas, 'recommended']] } as never);
  const results = await spectral.run(new spectralCore.Document(source, spectralParsers.Json, 'openapi.json'));
  const errors = [
    ...problems
      .filter((p) => p.severity === 'error')
      .map((p) => `redocly ${p.ruleId}: ${p.message} ${p.location[0]?.pointer ?? ''}`),
    ...results
      .filter((r) => (r.severity as number) === 0)
      .map((r) => `spectral ${String(r.code)}: ${r.message} ${r.path.join('.')}`),
  ];
  const warnings = [
    ...problems.filter((p) => p.severity !== 'error').map((p) => `redocly ${p.ruleId}`),
    ...results.filter((r) => (r.severity as number) !== 0).map((r) => `spectral ${String(r.code)}`),
  ];
  return { errors, warnings };
}

describe("OpenAPI documents under the ecosystem's linters", () => {
  it('have no error under Redocly recommended and Spectral oas, and a document with the faults they report is caught', async () => {
    for (const doc of [legacyDocument(createTranslator().routes, '1.0.0'), currentDocument('1.0.0')]) {
      const { errors, warnings } = await lintDocument(doc);
      expect(errors).toEqual([]);
      // what is left: Redocly's note on zod's nullable oneOf (current document) only
      expect(warnings.filter((w) => w !== 'redocly no-illogical-composition-keywords')).toEqual([]);
    }
    const faulty = structuredClone(legacyDocument(createTranslator().routes, '1.0.0')) as {
      servers: unknown[];
      paths: Record<string, Record<string, { summary?: string; operationId?: string }>>;
    };
    faulty.servers = [];
    delete faulty.paths['/orders']!.post!.summary;
    faulty.paths['/refunds']!.post!.operationId = 'createOrder';
    const { errors } = await lintDocument(faulty);
    expect(errors.some((e) => e.startsWith('redocly no-empty-servers'))).toBe(true);
    expect(errors.some((e) => e.startsWith('redocly operation-summary'))).toBe(true);
    expect(errors.some((e) => e.startsWith('spectral operation-operationId-unique'))).toBe(true);
  }, 60_000);

  it('give every legacy operation a meaningful id, a tag, a schema for each answer and the legacy error for the rest', () => {
    const doc = legacyDocument(createTranslator().routes, '1.0.0') as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            tags: string[];
            responses: Record<string, { content?: Record<string, { schema: object }> }>;
          }
        >
      >;
    };
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(op.tags).toHaveLength(1);
        const success = Object.entries(op.responses).filter(([status]) => Number(status) < 300);
        expect(success.length, `${method} ${path}`).toBeGreaterThan(0);
        for (const [status, answer] of success)
          if (status !== '204')
            expect(
              JSON.stringify(answer.content?.['application/json']?.schema),
              `${method} ${path} ${status}`,
            ).not.toBe('{}');
        for (const status of ['400', '401', '404'])
          expect(JSON.stringify(op.responses[status]), `${method} ${path} ${status}`).toContain('LegacyError');
      }
    expect(doc.paths['/orders']!.post!.operationId).toBe('createOrder');
    expect(doc.paths['/refunds']!.post!.operationId).toBe('createRefund');
    // the seed's PayTo shapes spelled out in the current document
    const current = JSON.stringify(currentDocument('1.0.0'));
    for (const name of [
      'PayToMethod',
      'agreementToken',
      'AgreementRequestTermsOneOff',
      'customerAccIdentifier',
      'Bban',
    ])
      expect(current).toContain(name);
  });

  it("the answers the deployed clients get through the gateway fit the legacy document's schemas, route by route", async () => {
    const gw = await spawnGateway(['--mode', '*=current']);
    const currentFace = /current (http:\/\/127\.0\.0\.1:\d+)/.exec(gw.stderr())![1]!;
    try {
      const routes = createTranslator().routes;
      const seen = new Set<string>();
      for (const replay of [(t: { base: string }) => wooCommerce(t, 'curl'), magento, dotnetSdk]) {
        await unblockCards(currentFace);
        const recorder = await replay({ base: gw.url });
        for (const exchange of recorder.exchanges) {
          const route = /^(L\d+)/.exec(exchange.step)?.[1];
          const mapping = ALL_MAPPINGS.find((m) => m.route === route);
          if (!mapping) continue;
          const schema = mapping.answers[exchange.status];
          if (exchange.status >= 400 && exchange.status !== 403) continue;
          expect(schema, `${exchange.step}: status ${exchange.status} is documented`).toBeDefined();
          if (schema) {
            const checked = schema.safeParse(exchange.body);
            expect(checked.success, `${exchange.step}: ${JSON.stringify(checked.error?.issues?.[0])}`).toBe(true);
          }
          seen.add(route!);
        }
      }
      expect(routes.mappings.length).toBeGreaterThan(0);
      expect([...seen].sort()).toEqual([
        'L1',
        'L10',
        'L12',
        'L19',
        'L28',
        'L29',
        'L3',
        'L30',
        'L31',
        'L4',
        'L6',
        'L7',
        'L9',
      ]);
    } finally {
      await gw.stop();
    }
  }, 60_000);

  it('generates a client (openapi-typescript) whose call and answer types check, and whose mistakes do not', async () => {
    const types = astToString(await openapiTS(legacyDocument(createTranslator().routes, '1.0.0') as never));
    const dir = join(ROOT, 'dist', `openapi-client-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'legacy.d.ts'), types);
      const call = (answerLine: string) => `import type { paths } from './legacy.js';
type CreateOrder = paths['/orders']['post'];
type Body = CreateOrder['requestBody'] extends { content: { 'application/json': infer B } } | undefined ? B : never;
type Answer = CreateOrder['responses'][200]['content']['application/json'];
export async function createOrder(base: string, key: string): Promise<string> {
  const body: Body = { internalOrderId: 'gen-1', paymentAmount: { amount: 1000, currency: 'AUD' }, description: '', billing: { name: 'Jo' } };
  const res = await fetch(base + '/orders', { method: 'POST', headers: { 'Limepay-SecretKey': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as Answer;
  ${answerLine}
}
`;
      const tsc = (file: string) =>
        run(
          process.execPath,
          [
            join(ROOT, 'node_modules/typescript/bin/tsc'),
            '--noEmit',
            '--strict',
            '--module',
            'nodenext',
            '--moduleResolution',
            'nodenext',
            '--target',
            'es2022',
            '--lib',
            'es2022,dom',
            '--skipLibCheck',
            join(dir, file),
          ],
          { cwd: ROOT },
        );
      writeFileSync(
        join(dir, 'good.ts'),
        call('return answer.merchantOrderId + answer.status + String(answer.amount);'),
      );
      await tsc('good.ts');
      // a renamed field of the answer does not compile
      writeFileSync(join(dir, 'bad.ts'), call('return answer.orderId;'));
      await expect(tsc('bad.ts')).rejects.toMatchObject({
        stdout: expect.stringContaining("Property 'orderId' does not exist"),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
