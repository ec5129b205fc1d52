/**
 * A shadowed write never moves money on the compared side: one call of every legacy route L1-L32
 * through a gateway in shadow mode (the sandbox's current face, the compared side, behind a proxy that
 * records every request) and in canary mode (the legacy face compared), each comparison run to its
 * end. The compared side receives reads only (a GET, or the current API's CalculatePayPlanMaxLoan,
 * which changes nothing), and the store shows each write's effect exactly once: the primary's. A write
 * mapping marked `readOnly` would be compared as a read, its translated write sent to the compared side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import { proxiedSandbox, type FaultProxy, type ProxiedSandbox } from '../helpers/fault-proxy.js';
import { startGateway } from '../helpers/gateway.js';
import { logPath } from '../helpers/logs.js';
import { effectsOnce, sendCall } from '../helpers/route-calls.js';
import { KEYS, type TestSandbox } from '../helpers/sandbox.js';

/**
 * What a compared side may be sent: reads. The pay-plan maximum (the current API's CalculatePayPlanMaxLoan,
 * current-api-decisions.md; the legacy L20, legacy-api.md section 4) computes a figure and keeps nothing.
 */
const isRead = (request: string) =>
  request.startsWith('GET ') || request === 'POST /payplans/max' || request === 'POST /payments/plan/eligibility-max';

let proxied: ProxiedSandbox;
let sb: TestSandbox;
let calls: ProxiedSandbox['calls'];
let current: FaultProxy;
let legacy: FaultProxy;

beforeAll(async () => {
  proxied = await proxiedSandbox();
  ({ sb, calls, current, legacy } = proxied);
});
afterAll(() => proxied.close());

describe('the compared side of a shadowed write', () => {
  it('has a call for every route of the route table', () => {
    expect([...new Set(LEGACY_ROUTES.map((r) => r.id))].filter((r) => !calls.routes.includes(r))).toEqual([]);
  });

  it.each([
    ['shadow, write safety readback', 'shadow', 'readback'],
    ['shadow, write safety validate', 'shadow', 'validate'],
    ['canary, write safety readback', 'canary', 'readback'],
  ] as const)(
    '%s: receives reads only for every route, and every write moved once',
    async (_name, mode, writeSafety) => {
      // shadow: the legacy face answers, the current face is compared; canary: the other way round
      const compared = mode === 'shadow' ? current : legacy;
      const upstreams =
        mode === 'shadow'
          ? { current: current.url, legacy: sb.legacyUrl }
          : { current: sb.currentUrl, legacy: legacy.url };
      const gw = await startGateway({
        // Query Customers and Get Payment Source take no merchant key: the gateway makes them with the operator's
        serviceKey: KEYS.operator,
        upstreams: { sandbox: upstreams },
        routes: { '*': mode },
        shadow: {
          sample: { '*': 1 },
          learnSample: 0,
          writeSafety: { '*': writeSafety },
          log: logPath(`compared-side-${mode}-${writeSafety}`, 'jsonl'),
        },
      });
      try {
        const prepared = [];
        for (const route of calls.routes)
          prepared.push({
            route,
            call: await calls.prepare(route),
            id: `compared-${mode}-${writeSafety}-${route}-${process.pid}`,
          });
        const before = { ...sb.sandbox.store.stats };
        for (const { route, call, id } of prepared) {
          const answer = await sendCall(gw.url, call, id);
          expect([route, answer.status < 300], answer.text).toEqual([route, true]);
        }
        await gw.gateway.shadow.idle();
        await compared.idle();
        const sent = (id: string) =>
          compared.seen.filter((s) => s.id.startsWith(`${id}:`) || s.id === id).map((s) => `${s.method} ${s.path}`);
        const notReads = prepared.flatMap(({ route, id }) =>
          sent(id)
            .filter((r) => !isRead(r))
            .map((r) => `${route}: ${r}`),
        );
        expect(notReads).toEqual([]);
        expect(effectsOnce(before, sb.sandbox.store.stats)).toEqual([]);
        // the compared side was there and used: every read route (and every mapping marked readOnly) was compared through it
        const readRoutes = new Set([
          ...LEGACY_ROUTES.filter((r) => r.method === 'GET').map((r) => r.id),
          ...ALL_MAPPINGS.filter((m) => m.readOnly).map((m) => m.route),
        ]);
        expect(
          prepared.filter(({ route, id }) => readRoutes.has(route) && sent(id).length === 0).map(({ route }) => route),
        ).toEqual([]);
      } finally {
        await gw.close();
      }
    },
    60_000,
  );
});
