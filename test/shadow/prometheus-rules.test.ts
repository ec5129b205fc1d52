/**
 * deploy/prometheus/paybridge-rules.yml loads, every metric it names exists in a gateway's /metrics,
 * and Prometheus's own promtool evaluates its readiness rule to 1 or 0 per route.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { formatReport } from '../../src/cli/report.js';
import { loadConfig } from '../../src/config.js';
import { createGateway } from '../../src/gateway/server.js';
import { prometheusRules } from '../../src/observability/rules.js';
import { parseRecordLine, ShadowLedger, type ShadowReport } from '../../src/shadow/ledger.js';
import type { Mapping } from '../../src/translate/define.js';
import { createTranslator } from '../../src/translate/index.js';
import { l6OrderWithoutTransactionAs400 } from '../helpers/broken-mapping.js';
import { startGateway } from '../helpers/gateway.js';
import { logPath } from '../helpers/logs.js';
import { client } from '../helpers/http.js';
import { currentOrder, KEYS, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { promtool as promtoolTool } from '../helpers/tools.js';

const RULES = new URL('../../deploy/prometheus/paybridge-rules.yml', import.meta.url);
const DASHBOARD = new URL('../../deploy/grafana/paybridge-dashboard.json', import.meta.url);

let sb: TestSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  sb = await startSandbox();
  gw = await startGateway({
    upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
    routes: { '*': 'shadow' },
    shadow: { learnSample: 0 },
  });
});
afterAll(async () => {
  await gw.close();
  await sb.close();
});

describe('Prometheus rules and the Grafana dashboard', () => {
  it('parse, and every metric they name is one the gateway exports or the rules record', async () => {
    const doc = parse(readFileSync(RULES, 'utf8')) as {
      groups: { name: string; rules: { record?: string; alert?: string; expr: string }[] }[];
    };
    expect(doc.groups.length).toBeGreaterThan(0);
    const rules = doc.groups.flatMap((g) => g.rules);
    for (const rule of rules) expect(Boolean(rule.record) !== Boolean(rule.alert), JSON.stringify(rule)).toBe(true);
    const tx = await paidCardTransaction(sb.current(KEYS.soloSk));
    await client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk }).get(`/transactions/${tx}`);
    await gw.gateway.shadow.idle();
    const exported = new Set(
      [...(await client(gw.url).get('/metrics')).text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]),
    );
    const recorded = new Set(rules.flatMap((r) => (r.record ? [r.record] : [])));
    const named = new Set(
      rules.flatMap((r) => [...r.expr.matchAll(/\b(paybridge[:_][A-Za-z0-9_:]+)/g)].map((m) => m[1]!)),
    );
    for (const name of named) expect(exported.has(name) || recorded.has(name), name).toBe(true);
    expect(named.has('paybridge_shadow_comparisons_total')).toBe(true);
    // the Grafana dashboard names only exported or recorded metrics (histograms by their series)
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(5);
    for (const name of new Set(
      exprs.flatMap((e) => [...e.matchAll(/\b(paybridge[:_][A-Za-z0-9_:]+)/g)].map((m) => m[1]!)),
    ))
      expect(exported.has(name.replace(/_(bucket|sum|count)$/, '')) || recorded.has(name), `dashboard: ${name}`).toBe(
        true,
      );
    // the readiness rule is by route and outcome
    expect((await client(gw.url).get('/metrics')).text).toMatch(
      /^paybridge_shadow_comparisons_total\{route="L6",outcome="match"\} 1$/m,
    );
  });
});

const promtool = promtoolTool();

/** A promtool input series. */
const series = (metric: string, labels: Record<string, string>, values: string) =>
  `      - series: '${metric}{${Object.entries(labels)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',')}}'\n        values: '${values}'`;
/** A promql_expr_test: `expr` at `minutes`, expecting exactly these samples of `metric` by route. */
const check = (expr: string, minutes: number, metric: string, values: Record<string, number>) =>
  [
    `      - expr: ${expr}`,
    `        eval_time: ${minutes}m`,
    '        exp_samples:',
    ...Object.entries(values).map(
      ([route, value]) => `          - labels: '${metric}{route="${route}"}'\n            value: ${value}`,
    ),
  ].join('\n');
/** promtool's verdict on a test file of these rules, series and checks (evaluated every minute). */
function promtoolTest(rules: string, input: string[], checks: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'paybridge-promtool-'));
  const file = join(dir, 'readiness.test.yml');
  writeFileSync(
    file,
    [
      `rule_files: [${JSON.stringify(rules)}]`,
      'evaluation_interval: 1m',
      'tests:',
      '  - interval: 1m',
      '    input_series:',
      ...input,
      '    promql_expr_test:',
      ...checks,
    ].join('\n') + '\n',
  );
  try {
    return execFileSync(promtool.path(), ['test', 'rules', file], { encoding: 'utf8' });
  } catch (err) {
    throw new Error(
      `promtool: ${(err as { stdout?: string }).stdout ?? ''}${(err as { stderr?: string }).stderr ?? ''}`,
      { cause: err },
    );
  }
}
const STATE = { collecting: 0, ready: 1, mismatch: 2, validated: 3 } as const;

describe('the readiness rules under promtool', () => {
  it.skipIf(promtool.skip)(
    'give each route the state of its window up to its newest comparison, across replicas, and keep it over 70 minutes of flat counters',
    () => {
      const comparisons = (route: string, outcome: string, instance: string, values: string) =>
        series('paybridge_shadow_comparisons_total', { route, outcome, instance }, values);
      const last = (route: string, instance: string, values: string) =>
        series('paybridge_shadow_last_comparison_timestamp_seconds', { route, instance }, values);
      const unexplained = (route: string, kind: string, instance: string, values: string) =>
        series('paybridge_shadow_last_unexplained_timestamp_seconds', { route, kind, instance }, values);
      // the gauges hold epoch seconds; here minute m is 60 m seconds, as promtool's clock is
      const input = [
        // L6: two replicas, 30 + 30 comparisons in the first hour, none unexplained; then nothing for 70 minutes
        comparisons('L6', 'match', 'a', '0+0.5x60 30x70'),
        comparisons('L6', 'match', 'b', '0+0.5x60 30x70'),
        comparisons('L6', 'mismatch', 'a', '0x130'),
        last('L6', 'a', '0+60x60 3600x70'),
        last('L6', 'b', '0+60x60 3600x70'),
        // L7: enough matches, and one comparison on b at minute 3 left unexplained (a rarer path kind): inside the window
        comparisons('L7', 'match', 'a', '0+1x60 60x70'),
        comparisons('L7', 'mismatch', 'b', '0 0 0 1x128'),
        // (replica b restarts at minute 100 without reading its records back: its gauges are gone, the verdict is not)
        last('L7', 'a', '0+60x60 3600x70'),
        last('L7', 'b', '0 0 0 180x96 stale'),
        unexplained('L7', '4xx not_found', 'b', '_ _ _ 180x96 stale'),
        // L9: the same at minute 3, then comparisons until minute 90: by then the window (30-90) has passed it
        comparisons('L9', 'match', 'a', '0+1x90 90x40'),
        comparisons('L9', 'mismatch', 'a', '0 0 0 1x128'),
        last('L9', 'a', '0+60x90 5400x40'),
        unexplained('L9', '4xx not_found', 'a', '_ _ _ 180x128'),
        // L1: six comparisons
        comparisons('L1', 'match', 'a', '0+0.1x60 6x70'),
        last('L1', 'a', '0+60x60 3600x70'),
        // L28: sixty writes validated only: no answer compared, never ready
        comparisons('L28', 'validated', 'a', '0+1x60 60x70'),
        comparisons('L28', 'match', 'a', '0x130'),
        comparisons('L28', 'mismatch', 'a', '0x130'),
        last('L28', 'a', '0+60x60 3600x70'),
      ];
      const out = promtoolTest(fileURLToPath(RULES), input, [
        check('paybridge:shadow_route_state', 60, 'paybridge:shadow_route_state', {
          L6: STATE.ready,
          L7: STATE.mismatch,
          L9: STATE.mismatch,
          L1: STATE.collecting,
          L28: STATE.validated,
        }),
        check('paybridge:shadow_route_state', 90, 'paybridge:shadow_route_state', {
          L6: STATE.ready,
          L7: STATE.mismatch,
          L9: STATE.ready,
          L1: STATE.collecting,
          L28: STATE.validated,
        }),
        // 70 minutes without a comparison on L6, L7, L1 and L28 (40 on L9): no verdict moved
        check('paybridge:shadow_route_state', 130, 'paybridge:shadow_route_state', {
          L6: STATE.ready,
          L7: STATE.mismatch,
          L9: STATE.ready,
          L1: STATE.collecting,
          L28: STATE.validated,
        }),
        check('paybridge:shadow_route_ready', 130, 'paybridge:shadow_route_ready', {
          L6: 1,
          L7: 0,
          L9: 1,
          L1: 0,
          L28: 0,
        }),
      ]);
      expect(out).toMatch(/SUCCESS/);
    },
  );
});

describe('the migration rules under promtool', () => {
  it.skipIf(promtool.skip)(
    'record the canary share served, and alert on replicas that run two configurations for 5 minutes and on a refused reload',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'paybridge-promtool-'));
      const tests = [
        `rule_files: [${JSON.stringify(fileURLToPath(RULES))}]`,
        'evaluation_interval: 1m',
        'tests:',
        '  - interval: 1m',
        '    input_series:',
        // L3 at canary:25%: 1 request a minute by the translation, 3 by the legacy upstream (a share a double holds exactly)
        `      - series: 'paybridge_canary_requests_total{route="L3",served="translation",instance="a",job="paybridge"}'`,
        "        values: '0+1x20'",
        `      - series: 'paybridge_canary_requests_total{route="L3",served="legacy",instance="a",job="paybridge"}'`,
        "        values: '0+3x20'",
        // replica b took a change at minute 3, replica a only at minute 12 (a series gone from a scrape is marked stale); b refused a reload at minute 5
        `      - series: 'paybridge_config_info{hash="aaaaaaaaaaaa",source="file",instance="a",job="paybridge"}'`,
        "        values: '1x11 stale'",
        `      - series: 'paybridge_config_info{hash="bbbbbbbbbbbb",source="file",instance="a",job="paybridge"}'`,
        "        values: '_x11 1x9'",
        `      - series: 'paybridge_config_info{hash="aaaaaaaaaaaa",source="file",instance="b",job="paybridge"}'`,
        "        values: '1x2 stale'",
        `      - series: 'paybridge_config_info{hash="bbbbbbbbbbbb",source="file",instance="b",job="paybridge"}'`,
        "        values: '_x2 1x18'",
        `      - series: 'paybridge_config_last_reload_successful{instance="b",job="paybridge"}'`,
        "        values: '1x4 0x16'",
        '    promql_expr_test:',
        '      - expr: paybridge:canary_translation_share:rate5m',
        '        eval_time: 15m',
        '        exp_samples:',
        `          - labels: 'paybridge:canary_translation_share:rate5m{route="L3"}'`,
        '            value: 0.25',
        '    alert_rule_test:',
        '      - alertname: PaybridgeReplicasDiverge',
        '        eval_time: 6m',
        '        exp_alerts: []',
        '      - alertname: PaybridgeReplicasDiverge',
        '        eval_time: 9m',
        '        exp_alerts:',
        '          - exp_labels: { severity: warning, job: paybridge }',
        '            exp_annotations:',
        '              summary: "paybridge replicas of paybridge run different configurations"',
        '              description: "For five minutes the replicas have not shown one configuration hash (paybridge_config_info): a ConfigMap change some pods did not take, or a route changed on one replica through the operator API."',
        '      - alertname: PaybridgeReplicasDiverge',
        '        eval_time: 15m',
        '        exp_alerts: []',
        '      - alertname: PaybridgeConfigReloadRefused',
        '        eval_time: 6m',
        '        exp_alerts:',
        '          - exp_labels: { severity: warning, instance: b, job: paybridge }',
        '            exp_annotations:',
        '              summary: "A paybridge replica refused its configuration file"',
        '              description: "The last reload on b did not validate; the replica runs the configuration it had. GET /_paybridge/config names the problem (lastReload.error); fix the ConfigMap."',
      ].join('\n');
      const file = join(dir, 'migration.test.yml');
      writeFileSync(file, `${tests}\n`);
      expect(execFileSync(promtool.path(), ['test', 'rules', file], { encoding: 'utf8' })).toMatch(/SUCCESS/);
    },
  );
});

describe('paybridge rules', () => {
  const bin = (args: string[]) =>
    execFileSync(process.execPath, [fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url)), ...args], {
      encoding: 'utf8',
    });

  it('prints for the default configuration exactly the rules file shipped', () => {
    expect(bin(['rules'])).toBe(readFileSync(RULES, 'utf8'));
  });

  it.skipIf(promtool.skip)(
    "prints rules from shadow.readyAfter and shadow.readyWindow, which promtool evaluates to the report's verdict",
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'paybridge-rules-'));
      const config = join(dir, 'gateway.json');
      writeFileSync(config, JSON.stringify({ shadow: { readyAfter: 3, readyWindow: '10m' } }));
      const rules = join(dir, 'rules.yml');
      writeFileSync(rules, bin(['rules', '--config', config]));
      const out = promtoolTest(
        rules,
        [
          // L6: three matches in minutes 11-13, and a difference at minute 2, more than 10 minutes before the newest; L7: two
          series(
            'paybridge_shadow_comparisons_total',
            { route: 'L6', outcome: 'match', instance: 'a' },
            '0 0 0 0 0 0 0 0 0 0 0 1 2 3 3 3',
          ),
          series(
            'paybridge_shadow_last_comparison_timestamp_seconds',
            { route: 'L6', instance: 'a' },
            '0 0 120 120 120 120 120 120 120 120 120 660 720 780 780 780',
          ),
          series(
            'paybridge_shadow_last_unexplained_timestamp_seconds',
            { route: 'L6', kind: '2xx', instance: 'a' },
            '_ _ 120x13',
          ),
          series(
            'paybridge_shadow_comparisons_total',
            { route: 'L7', outcome: 'match', instance: 'a' },
            '0 0 0 0 0 0 0 0 0 0 0 1 2 2 2 2',
          ),
          series(
            'paybridge_shadow_last_comparison_timestamp_seconds',
            { route: 'L7', instance: 'a' },
            '0 0 0 0 0 0 0 0 0 0 0 660 720 720 720 720',
          ),
        ],
        [check('paybridge:shadow_route_ready', 15, 'paybridge:shadow_route_ready', { L6: 1, L7: 0 })],
      );
      expect(out).toMatch(/SUCCESS/);
    },
  );
});

describe('one verdict everywhere: two replicas, their merged records and Prometheus', () => {
  it.skipIf(promtool.skip)(
    'the merged report of two gateways and promtool over their metrics give each route the same verdict: ready, mismatch on a rarer path kind, collecting, validated, after an accepted difference, and after 65 minutes of flat counters',
    async () => {
      const settings = { readyAfter: 3, window: '1h' };
      const TOKEN = 'operator-token-replicas-0001';
      /**
       * Replica b's translation bugs: L6 given an order without a transaction answers 400 invalid_request
       * where the legacy service answers 404 (a rare path), and L3 answers the order's type as `paybridge`.
       */
      const faulty = ALL_MAPPINGS.map((m) => {
        if (m.route === 'L3') {
          const original = m.response as { reads: readonly never[]; map: (a: never, b: never, c: never) => unknown };
          return Object.freeze({
            ...m,
            response: {
              reads: original.reads,
              map: (a: never, b: never, c: never) => ({ ...(original.map(a, b, c) as object), type: 'paybridge' }),
            },
          });
        }
        return m.route === 'L6' ? Object.freeze(l6OrderWithoutTransactionAs400(m)) : m;
      });
      /** A replica in shadow mode writing its own records. */
      const replica = async (instance: string, mappings: readonly Mapping[]) => {
        const log = logPath(`replica-${instance}`, 'jsonl');
        const config = loadConfig({
          file: {
            logLevel: 'info',
            listen: { host: '127.0.0.1', port: 0 },
            upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
            routes: { '*': 'shadow' },
            operatorTokens: { 'ops-alice': TOKEN },
            shadow: {
              sample: { '*': 1 },
              readyAfter: settings.readyAfter,
              readyWindow: settings.window,
              learnSample: 0,
              log,
              instance,
              writeSafety: { L28: 'validate' },
            },
          },
        });
        const logs = logPath(`replica-${instance}`);
        const gateway = await createGateway({
          config,
          translator: createTranslator({ mappings }),
          logStream: createWriteStream(logs),
        });
        return { gateway, url: await gateway.listen(), log, logs };
      };
      const a = await replica('a', ALL_MAPPINGS);
      const b = await replica('b', faulty);
      const routes = ['L3', 'L6', 'L15', 'L17', 'L28'];
      /** The merged report's states over both replicas' records, and promtool's over their metrics with the rules `paybridge rules` prints: the same, or promtool fails. */
      const bothVerdicts = async (): Promise<Record<string, string>> => {
        await a.gateway.shadow.idle();
        await b.gateway.shadow.idle();
        const ledger = new ShadowLedger({ readyAfter: settings.readyAfter, readyWindow: settings.window });
        for (const file of [a.log, b.log])
          for (const line of readFileSync(file, 'utf8').split('\n'))
            if (line.trim()) ledger.ingest(parseRecordLine(line).record!);
        const report = new Map(ledger.report().routes.map((r) => [r.route, r]));
        // the counters grown over the first 5 minutes, then flat; the gauges as scraped
        const input: string[] = [];
        for (const [instance, r] of [
          ['a', a],
          ['b', b],
        ] as const) {
          const text = (await client(r.url).get('/metrics')).text;
          for (const m of text.matchAll(
            /^(paybridge_shadow_(?:comparisons_total|acceptances_total|last_comparison_timestamp_seconds|last_unexplained_timestamp_seconds))\{([^}]*)\} (\S+)$/gm,
          )) {
            const labels = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1]!, l[2]!]));
            if (!routes.includes(labels.route!)) continue;
            const value = Number(m[3]);
            input.push(
              series(
                m[1]!,
                { ...labels, instance },
                m[1]!.endsWith('_total') ? `0+${value / 5}x5 ${value}x80` : `${value}x85`,
              ),
            );
          }
        }
        const expected = Object.fromEntries(routes.map((r) => [r, STATE[report.get(r)!.state]]));
        const rules = join(mkdtempSync(join(tmpdir(), 'paybridge-replicas-')), 'rules.yml');
        writeFileSync(rules, prometheusRules(settings));
        const filter = `paybridge:shadow_route_state{route=~"${routes.join('|')}"}`;
        // at minute 10, and after 65 minutes of flat counters (minute 75)
        expect(
          promtoolTest(rules, input, [
            check(filter, 10, 'paybridge:shadow_route_state', expected),
            check(filter, 75, 'paybridge:shadow_route_state', expected),
          ]),
        ).toMatch(/SUCCESS/);
        return Object.fromEntries(routes.map((r) => [r, report.get(r)!.state]));
      };
      try {
        const solo = sb.current(KEYS.soloSk);
        const txs = [await paidCardTransaction(solo), await paidCardTransaction(solo)];
        const order = (await solo.get(`/transactions/${txs[0]}`)).body.purchaseDetails.orderId as string;
        const unpaid = (await solo.post('/orders', currentOrder())).body.OnlineOrder.order.orderId as string;
        // the rare path first, once, on b: L6 given an order that has no transaction (legacy 404)
        expect((await client(b.url, { 'Limepay-SecretKey': KEYS.soloSk }).get(`/transactions/${unpaid}`)).status).toBe(
          404,
        );
        for (const [i, r] of [a, b, a, b].entries()) {
          const api = client(r.url, { 'Limepay-SecretKey': KEYS.soloSk });
          expect((await api.get(`/transactions/${txs[i % 2]}`)).status).toBe(200); // L6: 4 more, all matching
          expect((await api.get(`/orders/${order}`)).status).toBe(200); // L3: 2 faithful on a, 2 with the wrong type on b
          if (i < 3) expect((await api.get(`/transactions?merchantOrderId=${order}`)).status).toBe(200); // L17: 3 in all
          if (i === 0)
            expect((await api.get('/merchants/mcht_solo/customers/cust_alice/payments/sources')).status).toBe(200); // L15: 1
          expect(
            (await api.post('/customers/plugin', { emailAddress: `replica${i}@example.com`, givenName: 'Rep' })).status,
          ).toBe(200); // L28: validated only (writeSafety)
        }
        expect(await bothVerdicts()).toEqual({
          L3: 'mismatch',
          L6: 'mismatch',
          L15: 'collecting',
          L17: 'ready',
          L28: 'validated',
        });
        // L6's last readyAfter comparisons all matched: the one difference is on the rarer path kind, and it holds the route
        const l6 = (await client(a.url).get('/metrics')).text;
        expect(l6).not.toMatch(/^paybridge_shadow_last_unexplained_timestamp_seconds\{route="L6"/m);
        expect((await client(b.url).get('/metrics')).text).toMatch(
          /^paybridge_shadow_last_unexplained_timestamp_seconds\{route="L6",kind="4xx not_found"\} \d/m,
        );

        // an operator accepts b's L3 difference (that path, those two values): L3 is judged again, on both sides
        const ops = client(b.url, { authorization: `Bearer ${TOKEN}` });
        const l3 = ((await ops.get('/_paybridge/report')).body as ShadowReport).routes.find((r) => r.route === 'L3')!;
        const diff = l3.topDiffs.find((d) => d.path === 'type')!;
        expect(diff.example.candidate).toBe('paybridge');
        expect(
          (
            await client(b.url).post('/_paybridge/accepted', {
              route: 'L3',
              path: 'type',
              primary: diff.example.primary,
              candidate: 'paybridge',
            })
          ).status,
        ).toBe(401);
        const accepted = await ops.post('/_paybridge/accepted', {
          route: 'L3',
          path: 'type',
          primary: diff.example.primary,
          candidate: 'paybridge',
          note: 'the type is not read by any client',
        });
        expect(accepted.status, accepted.text).toBe(201);
        expect(accepted.body).toMatchObject({
          instance: 'b',
          explains: 2,
          accepted: { route: 'L3', path: 'type', candidate: 'paybridge', by: 'ops-alice' },
        });
        expect(await bothVerdicts()).toEqual({
          L3: 'ready',
          L6: 'mismatch',
          L15: 'collecting',
          L17: 'ready',
          L28: 'validated',
        });
        // audited: a log line naming who, and the acceptance in the report
        await new Promise((resolve) => setTimeout(resolve, 100));
        const audit = readFileSync(b.logs, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"audit":"accepted"'))
          .map((l) => JSON.parse(l));
        expect(audit).toEqual([
          expect.objectContaining({
            by: 'ops-alice',
            route: 'L3',
            path: 'type',
            candidate: 'paybridge',
            msg: 'shadow difference accepted',
          }),
        ]);
        const shown = ((await ops.get('/_paybridge/report')).body as ShadowReport).routes.find(
          (r) => r.route === 'L3',
        )!;
        expect(shown.accepted).toEqual([
          expect.objectContaining({
            by: 'ops-alice',
            instance: 'b',
            path: 'type',
            note: 'the type is not read by any client',
          }),
        ]);
        // b's own page judges b's comparisons alone: 2 of L3's 3 needed
        expect(shown.state).toBe('collecting');
        const page = (await ops.get('/_paybridge/')).text;
        expect(page).toContain('accepted <code>type</code>');
        expect(page).toMatch(/by ops-alice at \S+ on b: the type is not read by any client/);
        expect(page).toMatch(/<code>4xx not_found<\/code> 1 <strong>\(1 unexplained: \$status/);
        // and the merged report prints it under the route
        const merged = new ShadowLedger({ readyAfter: settings.readyAfter });
        for (const file of [a.log, b.log])
          for (const line of readFileSync(file, 'utf8').split('\n'))
            if (line.trim()) merged.ingest(parseRecordLine(line).record!);
        expect(formatReport(merged.report())).toMatch(
          /^ {5}accepted type: "\w+" -> "paybridge" by ops-alice at \S+ on b \(the type is not read by any client\)$/m,
        );
      } finally {
        await a.gateway.close();
        await b.gateway.close();
      }
    },
  );
});
