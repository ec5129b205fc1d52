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
import { proxiedSandbox, type Fault, type FaultProxy, type ProxiedSandbox } from '../helpers/fault-proxy.js';
import { startGateway } from '../helpers/gateway.js';
import { legacyError } from '../helpers/legacy-shapes.js';
import type { LegacyCall } from '../helpers/parity.js';
import { effectsOnce, sendCall, WRITES } from '../helpers/route-calls.js';
import { KEYS, type TestSandbox } from '../helpers/sandbox.js';

const FAULTS: [Fault, number, string][] = [
  ['resetBeforeHeaders', 502, 'upstream_error'],
  ['resetAfterHeaders', 502, 'upstream_error'],
  ['hang', 504, 'upstream_timeout'],
];
/** The deadline a hang meets; a reset is answered 502 long before it, however slow the machine. */
const timeouts = (fault: Fault) => ({
  connectMs: 5_000,
  headersMs: 20_000,
  bodyMs: 20_000,
  requestMs: fault === 'hang' ? 1_500 : 20_000,
});

let proxied: ProxiedSandbox;
let sb: TestSandbox;
let calls: ProxiedSandbox['calls'];
let currentProxy: FaultProxy;
let legacyProxy: FaultProxy;

beforeAll(async () => {
  proxied = await proxiedSandbox();
  ({ sb, calls, current: currentProxy, legacy: legacyProxy } = proxied);
});
afterAll(() => proxied.close());

/** A gateway in `mode`: translated, the current API behind the proxy; passed through and shadowed, the legacy service behind it. */
const gatewayIn = (mode: 'current' | 'legacy' | 'shadow', fault: Fault) =>
  startGateway({
    // Get Payment Source (L16's read first) takes no merchant key: the gateway makes it with the operator's
    serviceKey: KEYS.operator,
    upstreams: {
      sandbox:
        mode === 'current'
          ? { current: currentProxy.url, legacy: sb.legacyUrl }
          : { current: sb.currentUrl, legacy: legacyProxy.url },
    },
    routes: { '*': mode },
    timeouts: timeouts(fault),
    shadow: { learnSample: 0 },
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
    it.each(FAULTS)(
      '%s: every write answered %i %s, sent exactly once, its effect once in the store',
      async (fault, status, code) => {
        const proxy = mode === 'current' ? currentProxy : legacyProxy;
        const gw = await gatewayIn(mode, fault);
        const prepared: [string, LegacyCall, string][] = [];
        for (const route of WRITES)
          prepared.push([
            route,
            await calls.prepare(route),
            `wf-${mode}-${typeof fault === 'string' ? fault : `delay${fault.delayMs}`}-${route}-${process.pid}`,
          ]);
        const before = { ...sb.sandbox.store.stats };
        for (const [, , id] of prepared) proxy.plant((s) => s.id === id && s.method !== 'GET', fault);
        const answers = await Promise.all(prepared.map(([, call, id]) => sendCall(gw.url, call, id)));
        await proxy.idle();
        await gw.close();
        prepared.forEach(([route, , id], i) => {
          const answer = answers[i]!;
          expect([route, answer.status, legacyError.parse(answer.body).errorCode], answer.text).toEqual([
            route,
            status,
            code,
          ]);
          // the write itself took the fault: sent, once
          expect([route, nonGet(proxy.of(id)).length], proxy.of(id).join(', ')).toEqual([route, 1]);
        });
        expect(effectsOnce(before, sb.sandbox.store.stats)).toEqual([]);
      },
      30_000,
    );
  });
});
