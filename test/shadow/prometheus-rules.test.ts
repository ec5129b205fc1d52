/** deploy/prometheus/paybridge-rules.yml loads, and every metric it names exists in a gateway's /metrics. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { KEYS, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const RULES = new URL('../../deploy/prometheus/paybridge-rules.yml', import.meta.url);
const DASHBOARD = new URL('../../deploy/grafana/paybridge-dashboard.json', import.meta.url);

let sb: TestSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  sb = await startSandbox();
  gw = await startGateway({ upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } }, routes: { '*': 'shadow' }, shadow: { learnSample: 0 } });
});
afterAll(async () => {
  await gw.close();
  await sb.close();
});

describe('Prometheus rules and the Grafana dashboard', () => {
  it('parse, and every metric they name is one the gateway exports or the rules record', async () => {
    const doc = parse(readFileSync(RULES, 'utf8')) as { groups: { name: string; rules: { record?: string; alert?: string; expr: string }[] }[] };
    expect(doc.groups.length).toBeGreaterThan(0);
    const rules = doc.groups.flatMap((g) => g.rules);
    for (const rule of rules) expect(Boolean(rule.record) !== Boolean(rule.alert), JSON.stringify(rule)).toBe(true);
    const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get(`/transactions/${tx}`);
    await gw.gateway.shadow.idle();
    const exported = new Set([...(await client(gw.url).get('/metrics')).text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    const recorded = new Set(rules.flatMap((r) => (r.record ? [r.record] : [])));
    const named = new Set(rules.flatMap((r) => [...r.expr.matchAll(/\b(paybridge[:_][A-Za-z0-9_:]+)/g)].map((m) => m[1]!)));
    for (const name of named) expect(exported.has(name) || recorded.has(name), name).toBe(true);
    expect(named.has('paybridge_shadow_comparisons_total')).toBe(true);
    // the Grafana dashboard names only exported or recorded metrics (histograms by their series)
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(5);
    for (const name of new Set(exprs.flatMap((e) => [...e.matchAll(/\b(paybridge[:_][A-Za-z0-9_:]+)/g)].map((m) => m[1]!))))
      expect(exported.has(name.replace(/_(bucket|sum|count)$/, '')) || recorded.has(name), `dashboard: ${name}`).toBe(true);
    // the readiness rule is by route and outcome
    expect((await client(gw.url).get('/metrics')).text).toMatch(/^paybridge_shadow_comparisons_total\{route="L6",outcome="match"\} 1$/m);
  });
});
