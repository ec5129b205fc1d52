/**
 * A mapping cannot turn a read into a write (issue 56, item 6): a new user adding a route once mapped
 * a legacy `GET /orders/{id}/notes` to `DELETE /orders/{orderId}`; it passed start-up and the suite,
 * and live, reading the notes cancelled the order. Now a legacy GET whose current call (or the read
 * before it) is not a GET stops the router, naming the file and the route, unless the mapping
 * declares why (`unsafeGet`); such a declared route is a write to shadow mode, never sent twice.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import * as responses from '../../src/contract/current-responses.js';
import * as define from '../../src/translate/define.js';
import type { Mapping } from '../../src/translate/define.js';
import { compileRouter } from '../../src/translate/router.js';

/** The new user's route: reading an order's notes, mapped (wrongly) to the current API's cancel. */
function notesAsCancelFrom(d: typeof define, r: typeof responses, extra: Partial<Mapping> = {}) {
  return d.defineMapping({
    route: 'L99',
    tier: 2,
    description: "Read an order's notes (a throw-away route of this test).",
    legacy: 'GET /orders/{merchantOrderId}/notes',
    current: 'DELETE /orders/{orderId}',
    params: { merchantOrderId: d.toPath('orderId', 'order') },
    response: d.readAnswer([r.bareOrder, r.orderResponse], (body) => ({
      notes: 'orderId' in body ? body.description : body.OnlineOrder.order.description,
    })),
    answers: { 200: z.object({ notes: z.string().nullable() }) },
    ...extra,
  });
}
const notesAsCancel = (extra: Partial<Mapping> = {}) => notesAsCancelFrom(define, responses, extra);

/** The registry with the route laid over it, in modules loaded afresh (the mapping built from them). */
function layRoute(extra: Partial<Mapping> = {}) {
  vi.resetModules();
  vi.doMock('../../mappings/index.js', async (importOriginal) => {
    const original = await importOriginal<typeof import('../../mappings/index.js')>();
    const route = notesAsCancelFrom(
      await import('../../src/translate/define.js'),
      await import('../../src/contract/current-responses.js'),
      extra,
    );
    return {
      ...original,
      ALL_MAPPINGS: [...original.ALL_MAPPINGS, route],
      MAPPING_NAMES: new Map([...original.MAPPING_NAMES, [route, 'readNotes']]),
    };
  });
}

afterEach(() => {
  vi.doUnmock('../../mappings/index.js');
  vi.resetModules();
});

describe('at load', () => {
  it('stops on a legacy GET mapped to a current call that is not a read, naming the file, the route and the call', () => {
    expect(() => compileRouter([...ALL_MAPPINGS, notesAsCancel()])).toThrow(
      /^read-stays-read\.test\.ts: mapping L99 \(GET \/orders\/\{merchantOrderId\}\/notes\): a legacy GET is a read, but DELETE \/orders\/\{orderId\} is not/,
    );
    // a POST and a PATCH are no reads either
    expect(() => compileRouter([notesAsCancel({ current: 'POST /orders/{orderId}/pay' })])).toThrow(
      /a legacy GET is a read, but POST \/orders\/\{orderId\}\/pay is not/,
    );
    const update = ALL_MAPPINGS.find((m) => m.route === 'L11')!;
    expect(() => compileRouter([{ ...update, alsoAt: ['GET /orders/{merchantOrderId}/internalOrderId'] }])).toThrow(
      /mapping L11 \(GET \/orders\/\{merchantOrderId\}\/internalOrderId\): a legacy GET is a read, but PATCH \/orders\/\{orderId\} is not/,
    );
  });

  it('stops on a read before the call that is not a GET', () => {
    const read = ALL_MAPPINGS.find((m) => m.route === 'L6')!;
    const withPreflight = {
      ...read,
      preflight: define.readFirst('PATCH /transactions/{transactionId}', responses.transactionDetail, () => undefined),
    };
    expect(() => compileRouter([withPreflight])).toThrow(
      /mapping L6 .*its preflight PATCH \/transactions\/\{transactionId\} is not a read/,
    );
  });

  it('loads such a mapping only when it says why, and every mapping of the registry keeps its GETs reads', () => {
    expect(
      compileRouter([
        notesAsCancel({ unsafeGet: 'the legacy service cancelled an order when its notes were fetched (a test)' }),
      ]).mappings,
    ).toHaveLength(1);
    expect(() => compileRouter([notesAsCancel({ unsafeGet: '  ' })])).toThrow(/a legacy GET is a read/);
    const compiled = compileRouter(ALL_MAPPINGS).mappings;
    expect(compiled.filter((c) => c.method === 'GET' && c.currentMethod !== 'GET').map((c) => c.mapping.route)).toEqual(
      [],
    );
    expect(ALL_MAPPINGS.filter((m) => m.unsafeGet !== undefined).map((m) => m.route)).toEqual([]);
  });

  it('stops start-up: a gateway over the registry with the route laid on it does not start', async () => {
    layRoute();
    const start = async () => {
      const { loadConfig } = await import('../../src/config.js');
      const { createGateway } = await import('../../src/gateway/server.js');
      const gateway = await createGateway({
        config: loadConfig({
          file: {
            logLevel: 'silent',
            listen: { host: '127.0.0.1', port: 0 },
            upstreams: { sandbox: { current: 'http://127.0.0.1:1' } },
          },
        }),
      });
      await gateway.close();
    };
    await expect(start()).rejects.toThrow(
      /mapping L99 .*a legacy GET is a read, but DELETE \/orders\/\{orderId\} is not/,
    );
  });
});

describe('a declared unsafe GET in shadow mode', () => {
  it('is compared as a write: the current API is never sent the DELETE', async () => {
    const seen: string[] = [];
    const upstream: Server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      req.resume();
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ merchantOrderId: 'ordr_n1', notes: 'x' }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    layRoute({ unsafeGet: 'the legacy service cancelled an order when its notes were fetched (a test)' });
    const { startGateway } = await import('../helpers/gateway.js');
    const gw = await startGateway({
      upstreams: { sandbox: { current: url, legacy: url } },
      routes: { L99: 'shadow' },
      shadow: { learnSample: 1 },
    });
    try {
      for (let i = 0; i < 3; i++)
        expect(
          (
            await fetch(`${gw.url}/orders/ordr_n1/notes`, {
              headers: { 'Limepay-SecretKey': 'sandbox_sk_solo_secret_key' },
            })
          ).status,
        ).toBe(200);
      await gw.gateway.shadow.idle();
    } finally {
      await gw.close();
      await new Promise((r) => upstream.close(r));
    }
    // the legacy side answered three times, no re-read learned noise on it, and no DELETE went anywhere
    expect(seen.filter((s) => s === 'GET /orders/ordr_n1/notes')).toHaveLength(3);
    expect(seen.filter((s) => s.startsWith('DELETE'))).toEqual([]);
  });
});
