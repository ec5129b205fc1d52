/**
 * At most once, with the fault on the write itself: for every non-idempotent legacy route, in each
 * mode that sends it upstream (translated, passed through, shadowed), the write reaches the sandbox
 * through a proxy that passes it on (the money moves) and then loses its answer: the connection reset
 * before the answer's headers, reset after them mid-body, or the answer never coming (the request's
 * deadline). The client gets the documented 502 or 504; the write reached the upstream exactly once
 * (never retried, never skipped by a failed read before it), and the store shows each effect once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import type { StoreStats } from '../../src/sandbox/model.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../helpers/fault-proxy.js';
import { startGateway } from '../helpers/gateway.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import type { LegacyCall } from '../helpers/parity.js';
import { routeCalls, sendCall } from '../helpers/route-calls.js';
import { startSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * The non-idempotent routes: every legacy route but a GET (legacy-api.md section 3), except L20, which
 * asks for a pay-plan maximum and changes nothing.
 */
const WRITES = ['L1', 'L2', 'L4', 'L5', 'L7', 'L8', 'L9', 'L10', 'L11', 'L12', 'L13', 'L16', 'L18', 'L19', 'L21', 'L23', 'L24', 'L25', 'L26', 'L27', 'L28', 'L29', 'L30', 'L31', 'L32'];

/** What each write does to the store, once (StoreStats); the routes not named change no counter. */
const EFFECT: Partial<Record<keyof StoreStats, string[]>> = {
  ordersCreated: ['L1', 'L2', 'L31'],
  transactionsCreated: ['L4', 'L5'],
  refundsCreated: ['L7', 'L8'],
  captures: ['L9'],
  authorisationsCancelled: ['L10'],
  customersCreated: ['L13', 'L18', 'L28'],
  sourcesDeleted: ['L16'],
  tokensCreated: ['L19'],
  merchantsCreated: ['L21'],
  transfersCreated: ['L26'],
  transfersReversed: ['L27'],
};

const FAULTS: [Fault, number, string][] = [
  ['resetBeforeHeaders', 502, 'upstream_error'],
  ['resetAfterHeaders', 502, 'upstream_error'],
  ['hang', 504, 'upstream_timeout'],
];
const TIMEOUTS = { connectMs: 1_000, headersMs: 10_000, bodyMs: 10_000, requestMs: 1_500 };

let sb: TestSandbox;
let calls: ReturnType<typeof routeCalls>;
let currentProxy: FaultProxy;
let legacyProxy: FaultProxy;
const gateways: Record<string, Awaited<ReturnType<typeof startGateway>>> = {};

beforeAll(async () => {
  sb = await startSandbox();
  calls = routeCalls(sb);
  currentProxy = await startFaultProxy(sb.currentUrl);
  legacyProxy = await startFaultProxy(sb.legacyUrl);
  // translated: the current API behind the proxy; passed through and shadowed: the legacy service behind it
  gateways.current = await startGateway({ upstreams: { sandbox: { current: currentProxy.url, legacy: sb.legacyUrl } }, routes: { '*': 'current' }, timeouts: TIMEOUTS });
  gateways.legacy = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: legacyProxy.url } }, routes: { '*': 'legacy' }, timeouts: TIMEOUTS });
  gateways.shadow = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: legacyProxy.url } }, routes: { '*': 'shadow' }, timeouts: TIMEOUTS, shadow: { learnSample: 0 } });
});
afterAll(async () => {
  for (const gw of Object.values(gateways)) await gw.close();
  await currentProxy.close();
  await legacyProxy.close();
  await sb.close();
});

const nonGet = (requests: string[]) => requests.filter((r) => !r.startsWith('GET '));

describe('a fault on the write itself', () => {
  it('lists every non-idempotent route of the route table', () => {
    const writes = LEGACY_ROUTES.filter((r) => r.method !== 'GET' && r.id !== 'L20').map((r) => r.id);
    expect([...new Set(writes)].sort()).toEqual([...WRITES].sort());
  });

  describe.each([
    ['translated (current)', 'current'],
    ['passed through (legacy)', 'legacy'],
    ['shadowed (the legacy primary)', 'shadow'],
  ] as const)('%s', (_name, mode) => {
    it.each(FAULTS)('%s: every write answered %i %s, sent exactly once, its effect once in the store', async (fault, status, code) => {
      const proxy = mode === 'current' ? currentProxy : legacyProxy;
      const prepared: [string, LegacyCall, string][] = [];
      for (const route of WRITES) prepared.push([route, await calls.prepare(route), `wf-${mode}-${String(fault)}-${route}-${process.pid}`]);
      const before = { ...sb.sandbox.store.stats };
      for (const [, , id] of prepared) proxy.plant((s) => s.id === id && s.method !== 'GET', fault);
      const answers = await Promise.all(prepared.map(([, call, id]) => sendCall(gateways[mode]!.url, call, id)));
      await proxy.idle();
      prepared.forEach(([route, , id], i) => {
        const answer = answers[i]!;
        expect([route, answer.status, legacyError.parse(answer.body).errorCode], answer.text).toEqual([route, status, code]);
        // the write itself took the fault: sent, once
        expect([route, nonGet(proxy.of(id)).length], proxy.of(id).join(', ')).toEqual([route, 1]);
      });
      const after = sb.sandbox.store.stats;
      for (const [stat, routes] of Object.entries(EFFECT) as [keyof StoreStats, string[]][]) expect([stat, after[stat] - before[stat]]).toEqual([stat, routes.length]);
    }, 30_000);
  });
});
