/**
 * One registry of routes: the mappings. A route added as a mapping (here a temporary one, L99, laid
 * over mappings/index.ts) is accepted by the configuration, is in the route table and `paybridge
 * routes` rows, and is an operation of the legacy OpenAPI document, with no list, regex or count
 * touched anywhere else.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

afterEach(() => {
  vi.doUnmock('../../mappings/index.js');
  vi.resetModules();
});

async function withTemporaryRoute() {
  vi.resetModules();
  vi.doMock('../../mappings/index.js', async (importOriginal) => {
    const original = await importOriginal<typeof import('../../mappings/index.js')>();
    const { defineMapping, readAnswer, toPath } = await import('../../src/translate/define.js');
    const { orderResponse } = await import('../../src/contract/current-responses.js');
    const temporary = defineMapping({
      route: 'L99',
      tier: 2,
      description: 'Read an order by its legacy receipt path (a temporary route for the registry test).',
      legacy: 'GET /receipts/{merchantOrderId}',
      current: 'GET /orders/{orderId}',
      params: { merchantOrderId: toPath('orderId', 'order') },
      response: readAnswer([orderResponse], (body) => ({ merchantOrderId: body.OnlineOrder.order.orderId })),
      answers: { 200: z.object({ merchantOrderId: z.string() }) },
    });
    return {
      ...original,
      ALL_MAPPINGS: [...original.ALL_MAPPINGS, temporary],
      MAPPING_NAMES: new Map([...original.MAPPING_NAMES, [temporary, 'readReceipt']]),
    };
  });
  const { loadConfig } = await import('../../src/config.js');
  const { LEGACY_ROUTES } = await import('../../src/translate/legacy-routes.js');
  const { createTranslator } = await import('../../src/translate/index.js');
  const { legacyDocument } = await import('../../src/openapi/documents.js');
  return { loadConfig, LEGACY_ROUTES, createTranslator, legacyDocument };
}

describe('the registry of routes is the mappings', () => {
  it('accepts a route added as a mapping in the configuration, the route table, the translator and the OpenAPI', async () => {
    const { loadConfig, LEGACY_ROUTES, createTranslator, legacyDocument } = await withTemporaryRoute();
    expect(loadConfig({ file: { routes: { L99: 'legacy', '*': 'current' } } }).routes).toEqual({
      L99: 'legacy',
      '*': 'current',
    });
    expect(LEGACY_ROUTES.at(-1)).toEqual({
      id: 'L99',
      tier: 2,
      method: 'GET',
      path: '/receipts/{merchantOrderId}',
      current: 'GET /orders/{orderId}',
    });
    const translator = createTranslator();
    const sent = await translator.toCurrent({
      method: 'GET',
      path: '/receipts/ordr_1',
      headers: { 'Limepay-SecretKey': 'sandbox_sk_solo_secret_key' },
    });
    expect(sent).toMatchObject({ method: 'GET', path: '/orders/ordr_1' });
    const doc = legacyDocument(translator.routes, '0.0.0') as {
      paths: Record<string, { get?: { 'x-legacy-route': string; operationId: string } }>;
    };
    expect(doc.paths['/receipts/{merchantOrderId}']?.get).toMatchObject({
      'x-legacy-route': 'L99',
      operationId: 'readReceipt',
    });
  });

  it('refuses, without the mapping, the same route id in the configuration, naming the ids it knows', async () => {
    const { loadConfig } = await import('../../src/config.js');
    const { LEGACY_ROUTES } = await import('../../src/translate/legacy-routes.js');
    expect(() => loadConfig({ file: { routes: { L99: 'legacy' } } })).toThrow(
      new RegExp(`routes\\.L99: .*route table \\(${LEGACY_ROUTES[0]!.id}-${LEGACY_ROUTES.at(-1)!.id}\\)`),
    );
  });
});
