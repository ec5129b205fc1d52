/** OpenAPI 3.1 documents of both generations, derived from the zod schemas and mappings, valid for a well-kept validator. */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURRENT_ROUTES } from '../../src/contract/current-routes.js';
import { currentDocument, legacyDocument } from '../../src/openapi/documents.js';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import { createTranslator } from '../../src/translate/index.js';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import { spawnBin } from '../helpers/spawn.js';

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway({ upstreams: { sandbox: { current: 'http://127.0.0.1:1' } } });
});
afterAll(() => gw.close());

describe('OpenAPI documents', () => {
  it('describe every legacy route with its id and description, valid OpenAPI 3.1', async () => {
    const doc = legacyDocument(createTranslator().routes, '1.0.0') as { paths: Record<string, Record<string, { 'x-legacy-route': string; description: string }>> };
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(ops.map((o) => o['x-legacy-route']).sort()).toEqual(LEGACY_ROUTES.map((r) => r.id).sort());
    for (const op of ops) expect(op.description.length, op['x-legacy-route']).toBeGreaterThan(20);
    // the legacy body as the deployed clients send it, from the mapping's schema
    expect(JSON.stringify(doc.paths['/orders']!.post)).toContain('internalOrderId');
  });

  it('describe every current operation the sandbox serves, action wrappers as their variants, valid OpenAPI 3.1', async () => {
    const doc = currentDocument('1.0.0') as { paths: Record<string, Record<string, unknown>> };
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    for (const route of CURRENT_ROUTES) expect(doc.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path}`).toBeDefined();
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
    expect(legacyError.parse(other.body)).toMatchObject({ errorCode: 'not_found', detail: 'generation: legacy.json or current.json', tracer: other.headers.get('x-request-id') });
    const cli = spawnBin(['openapi', 'current']);
    expect(await cli.exited).toBe(0);
    expect(JSON.parse(cli.stdout()).paths['/orders'].post.requestBody).toBeDefined();
    const wrong = spawnBin(['openapi', 'v3']);
    expect(await wrong.exited).toBe(2);
    expect(wrong.stderr()).toContain('paybridge openapi: "v3" is not a generation; name legacy or current');
  });
});
