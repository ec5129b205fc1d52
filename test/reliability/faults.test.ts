/**
 * Upstream faults against a fake current (and legacy) API that counts what reaches it: each fault is
 * the documented legacy error (502 upstream_error, 504 upstream_timeout, tracer = request id), no
 * unhandled rejection, a create or pay reaches the upstream exactly once, and a refund or capture,
 * whose preflight read takes the fault first, is never sent after it. Faults on the write itself,
 * for every non-idempotent route: write-faults.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { startFakeUpstream, type Behaviour } from '../helpers/fake-upstream.js';
import { startGateway } from '../helpers/gateway.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import { writeSummary } from '../helpers/logs.js';
import { KEYS, legacyOrder } from '../helpers/sandbox.js';

/**
 * Short upstream timeouts for the faults that must end in a 504, generous ones for the rest: a 502 is
 * then the fault's, never a slow machine's deadline passing first (a cold gateway's first call, a run
 * under a mutation tester at load 15, took longer than 400 ms).
 */
const QUICK = { connectMs: 300, headersMs: 150, bodyMs: 150, requestMs: 400 };
const PATIENT = { connectMs: 5_000, headersMs: 10_000, bodyMs: 10_000, requestMs: 10_000 };
const SOLO = { 'Limepay-SecretKey': KEYS.soloSk };

interface Call {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  /** "METHOD path" of the non-idempotent current call, if any. */
  write?: string;
  /** "METHOD path" of the read the route makes before its write, which takes the fault instead. */
  preflight?: string;
}
const CALLS: Call[] = [
  { name: 'L6 read', method: 'GET', path: '/transactions/tran_1' },
  { name: 'L1 create order', method: 'POST', path: '/orders', body: legacyOrder(), write: 'POST /orders' },
  {
    name: 'L4 pay',
    method: 'POST',
    path: '/orders/ordr_1/pay',
    body: { paymentToken: 'ptkn_1' },
    write: 'POST /orders/ordr_1/pay',
  },
  {
    name: 'L7 refund',
    method: 'POST',
    path: '/refunds',
    body: { transactionId: 'tran_1', refundAmount: { amount: 100, currency: 'AUD' } },
    write: 'PATCH /transactions/tran_1',
    preflight: 'GET /transactions/tran_1',
  },
  {
    name: 'L9 capture',
    method: 'POST',
    path: '/transactions/tran_1/authorisation:capture',
    body: { captureAmount: { amount: 100, currency: 'AUD' } },
    write: 'PATCH /transactions/tran_1',
    preflight: 'GET /transactions/tran_1',
  },
];
/** Fault -> the legacy error it must become. */
const FAULTS: [Behaviour | 'refused', number, string][] = [
  ['refused', 502, 'upstream_error'],
  ['reset', 502, 'upstream_error'],
  ['resetMidBody', 502, 'upstream_error'],
  ['hang', 504, 'upstream_timeout'],
  ['bodyHang', 504, 'upstream_timeout'],
  ['trickle', 504, 'upstream_timeout'],
  ['error500', 502, 'upstream_error'],
  ['error503', 502, 'upstream_error'],
  ['html', 502, 'upstream_error'],
  ['malformed', 502, 'upstream_error'],
];

let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
let gw: Awaited<ReturnType<typeof startGateway>>;
let quickGw: Awaited<ReturnType<typeof startGateway>>;
let refusedGw: Awaited<ReturnType<typeof startGateway>>;
/** The gateway in front of the fake for a fault answered `status`. */
const gatewayFor = (status: number) => (status === 504 ? quickGw : gw).url;
const unhandled: unknown[] = [];
const onUnhandled = (err: unknown) => unhandled.push(err);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  fake = await startFakeUpstream();
  // L3 and L12 pass through to the legacy upstream unchanged (legacy mode); the rest are translated
  const routes = { '*': 'current', L3: 'legacy', L12: 'legacy' } as const;
  gw = await startGateway({
    upstreams: { sandbox: { current: fake.url, legacy: fake.url } },
    timeouts: PATIENT,
    routes,
  });
  quickGw = await startGateway({
    upstreams: { sandbox: { current: fake.url, legacy: fake.url } },
    timeouts: QUICK,
    routes,
  });
  refusedGw = await startGateway({
    upstreams: { sandbox: { current: 'http://127.0.0.1:1', legacy: 'http://127.0.0.1:1' } },
    timeouts: PATIENT,
    routes,
  });
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await gw.close();
  await quickGw.close();
  await refusedGw.close();
  await fake.close();
});

describe('upstream faults', () => {
  it('turns every fault into the documented legacy error and never sends a write twice', async () => {
    let injected = 0;
    let maxWriteCount = 0;
    for (const [fault, status, code] of FAULTS) {
      if (fault !== 'refused') fake.set(fault);
      const url = fault === 'refused' ? refusedGw.url : gatewayFor(status);
      for (const call of CALLS) {
        const res = await client(url, SOLO).raw(
          call.method,
          call.path,
          call.body === undefined ? {} : { body: call.body },
        );
        injected++;
        // a 2xx to a write is never a 5xx a client would retry (the money has moved, the order exists): a
        // create or pay answered 200 with a body that cannot be read (nor, for the pay, completed by a read)
        // is a 202 answer_incomplete; a refund or capture took the fault on its read first, and was not sent
        const [wantStatus, wantCode] =
          fault === 'malformed' && call.write !== undefined && call.preflight === undefined
            ? [202, 'answer_incomplete']
            : [status, code];
        expect(res.status, `${fault} ${call.name}`).toBe(wantStatus);
        const body = legacyError.parse(res.body);
        expect(body.errorCode, `${fault} ${call.name}`).toBe(wantCode);
        expect(body.tracer).toBe(res.headers.get('x-request-id'));
        if (fault === 'refused') continue;
        await new Promise((r) => setTimeout(r, fault === 'hang' || fault === 'bodyHang' ? 50 : 0));
        // a read may be retried once, and only after a connection reset
        const reads = fault === 'reset' || fault === 'resetMidBody' ? 2 : 1;
        if (call.write) {
          const sent = fake.count(call.write);
          maxWriteCount = Math.max(maxWriteCount, sent);
          // a write behind a failed read is never sent; any other, exactly once
          expect(sent, `${fault} ${call.name}: the write reached the upstream ${sent} times`).toBe(
            call.preflight ? 0 : 1,
          );
          if (call.preflight) expect(fake.count(call.preflight), `${fault} ${call.name}`).toBe(reads);
        } else {
          expect(fake.count('GET /transactions/tran_1'), `${fault} ${call.name}`).toBe(reads);
        }
        fake.set(fault);
      }
    }
    expect(unhandled).toEqual([]);
    writeSummary(
      '2-faults',
      `upstream faults: ${injected} faults injected (${FAULTS.length} kinds x ${CALLS.length} translated calls), each the documented 502/504; 0 unhandled rejections; writes reached the upstream at most ${maxWriteCount} time`,
    );
  });

  it('retries a passthrough GET once after a connection reset, and never a write', async () => {
    fake.set('resetOnce');
    const read = await client(gw.url, SOLO).get('/orders/ordr_1');
    expect(read.status).toBe(200);
    expect(fake.count('GET /orders/ordr_1')).toBe(2);
    fake.set('resetOnce');
    const cancel = await client(gw.url, SOLO).delete('/orders/ordr_1');
    expect([cancel.status, legacyError.parse(cancel.body).errorCode]).toEqual([502, 'upstream_error']);
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.count('DELETE /orders/ordr_1')).toBe(1);
  });

  it('turns connection faults of a passthrough into legacy errors as well, without retrying a write', async () => {
    for (const [fault, status, code] of [
      ['reset', 502, 'upstream_error'],
      ['hang', 504, 'upstream_timeout'],
    ] as const) {
      fake.set(fault);
      const read = await client(gatewayFor(status), SOLO).get('/orders/ordr_1');
      expect([read.status, legacyError.parse(read.body).errorCode]).toEqual([status, code]);
      const cancel = await client(gatewayFor(status), SOLO).delete('/orders/ordr_1');
      expect([cancel.status, legacyError.parse(cancel.body).errorCode]).toEqual([status, code]);
      await new Promise((r) => setTimeout(r, 50));
      expect(fake.count('DELETE /orders/ordr_1')).toBe(1);
    }
    const refused = await client(refusedGw.url, SOLO).get('/orders/ordr_1');
    expect([refused.status, legacyError.parse(refused.body).errorCode]).toEqual([502, 'upstream_error']);
    expect(unhandled).toEqual([]);
  });
});
