// The gateway against the floor of a Node proxy, in one run (issue 14's method):
//   - every server in its own process; with taskset, the sandbox and the load generator (autocannon,
//     its own process) on core 0 and the server under test alone on core 1;
//   - baselines: the sandbox directly, a minimal node:http + undici Pool proxy (pool.stream), a plain
//     @fastify/http-proxy, and L6's floor (servers/l6-floor.mjs: the minimal proxy doing only what L6
//     cannot skip: the answer read whole, parsed, shaped by the gateway's compiled shape, serialised),
//     which splits L6's gap into what JSON and the shape cost and what the gateway's plumbing costs;
//   - the gateway: L6 translated, current-generation passthrough, `legacy` mode, shadow at sample 0.1
//     and 1.0 (L6), L1 create translated;
//   - the cost of one comparison, measured twice: at saturation (shadow 1.0 minus legacy mode, over the
//     share compared: the bounded queue drops most, so the division multiplies the noise of two runs),
//     and paced at BENCH_PACED_RATE (1,000) requests a second, where nearly every exchange is compared:
//     a shadow 1.0 gateway of its own against legacy mode at the same rate;
//   - a shadow gateway's run lasts until its comparison queue is empty (its CPU includes them all, and
//     the next configuration does not share core 1 with the comparisons still queued);
//   - configurations rotated over BENCH_ROUNDS (>= 3) rounds after a warm-up; each figure is the median
//     of the rounds; each ratio is the median of per-round pairs, the configuration against its baseline
//     (the minimal proxy, or legacy mode for shadow) run right beside it, before it in one pair and after
//     it in the next: this machine's load drifts over minutes, and a baseline measured once a round,
//     minutes away, gave pairs from 0.6x to 1.3x for the same configuration in one run; CPU per request
//     from /proc of the server under test; gateway RSS before and after.
// Targets (issue 14): translated L6 and L1 >= 0.85x the minimal proxy's req/s, p99 within +1 ms, CPU
// <= 1.3x; passthrough and legacy mode >= 0.95x; shadow 0.1 >= 0.9x legacy mode and p99 within +2 ms
// of it (issue 5's p99); a shadow comparison costs at most the CPU of the call it shadows; gateway RSS
// within +50 MB of start.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ORDER_CURRENT, ORDER_LEGACY } from './orders.mjs';
import {
  CONNECTIONS,
  DURATION,
  json,
  lineVerdict,
  median,
  metricSum,
  paidTransaction,
  pinnedLoad,
  rssMb,
  shadowDrained,
  spawnBin,
  spawnNode,
  spawnSandbox,
  TASKSET,
  withCpu,
} from './lib.mjs';

const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const LOAD_CPU = 0;
const SERVER_CPU = 1;
const server = (name) => fileURLToPath(new URL(`./servers/${name}.mjs`, import.meta.url));

const load = (options) => pinnedLoad(options, LOAD_CPU);

/**
 * One run against a target. A shadow gateway is then waited for until its comparison queue is empty:
 * the comparisons the run queued are billed to its CPU, and the next configuration starts on a quiet
 * core rather than beside a gateway still draining up to a thousand of them.
 */
async function measure(target, call) {
  const r = await withCpu(target.pid, async () => {
    const figures = await load({ url: target.url + call.path, ...call });
    if (target.drains) await shadowDrained(target.url);
    return figures;
  });
  return { rps: r.rps, p99: r.p99, requests: r.requests, cpuUs: r.cpuUs };
}

const sandbox = await spawnSandbox(LOAD_CPU);
const sk = sandbox.secretKey;
const bearer = { authorization: `Bearer ${sk}` };
const legacyHeaders = { 'limepay-secretkey': sk };
const LISTENING = /listening on (http:\/\/\S+)/;
// autocannon keeps sending on a connection the server closes after client.maxRequestsPerSocket (1,000 by
// default; Node answers 503 past it), which a browser or curl does not: the cap is lifted for the benchmark
const configFile = join(mkdtempSync(join(tmpdir(), 'paybridge-bench-')), 'config.json');
writeFileSync(configFile, JSON.stringify({ client: { maxRequestsPerSocket: 0 } }));
const gatewayArgs = [
  'serve',
  '--config',
  configFile,
  '--port',
  '0',
  '--current-url',
  sandbox.currentUrl,
  '--legacy-url',
  sandbox.legacyUrl,
  '--log-level',
  process.env.BENCH_LOG_LEVEL ?? 'info',
];
const started = [];
const start = async (name, promise, urlOf) => {
  const proc = await promise;
  const target = { name, pid: proc.pid, url: urlOf(proc), stop: proc.stop };
  started.push(target);
  return target;
};
const onCore = { cpu: SERVER_CPU };
const minimal = await start(
  'minimal proxy',
  spawnNode([server('minimal-proxy'), sandbox.currentUrl], /minimal listening (\S+)/, onCore),
  (p) => p.match[1],
);
const minimalLegacy = await start(
  'minimal proxy (legacy upstream)',
  spawnNode([server('minimal-proxy'), sandbox.legacyUrl], /minimal listening (\S+)/, onCore),
  (p) => p.match[1],
);
const fastifyProxy = await start(
  '@fastify/http-proxy',
  spawnNode([server('passthrough-proxy'), sandbox.currentUrl], /proxy listening (\S+)/, onCore),
  (p) => p.match[1],
);
const floor = await start(
  'L6 floor',
  spawnNode([server('l6-floor'), sandbox.currentUrl], /floor listening (\S+)/, onCore),
  (p) => p.match[1],
);
const gateway = await start('gateway', spawnBin(gatewayArgs, LISTENING, onCore), (p) => p.match[1]);
const legacyMode = await start(
  'gateway legacy mode',
  spawnBin([...gatewayArgs, '--mode', '*=legacy'], LISTENING, onCore),
  (p) => p.match[1],
);
const shadowLow = await start(
  'gateway shadow 0.1',
  spawnBin(
    [...gatewayArgs, '--mode', '*=shadow', '--shadow-sample', '0.1', '--shadow-log', '/dev/null'],
    LISTENING,
    onCore,
  ),
  (p) => p.match[1],
);
const shadowAll = await start(
  'gateway shadow 1.0',
  spawnBin(
    [...gatewayArgs, '--mode', '*=shadow', '--shadow-sample', '1', '--shadow-log', '/dev/null'],
    LISTENING,
    onCore,
  ),
  (p) => p.match[1],
);
const shadowPaced = await start(
  'gateway shadow 1.0, paced',
  spawnBin(
    [...gatewayArgs, '--mode', '*=shadow', '--shadow-sample', '1', '--shadow-log', '/dev/null'],
    LISTENING,
    onCore,
  ),
  (p) => p.match[1],
);
for (const target of [shadowLow, shadowAll, shadowPaced]) target.drains = true;
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 1000);
const direct = { name: 'sandbox', pid: sandbox.pid, url: sandbox.currentUrl };

/** Sum of a counter's samples (all labels) in a gateway's /metrics. */
const counter = (target, name) => metricSum(target.url, name);

try {
  const tx = await paidTransaction(sandbox.currentUrl, bearer);
  await json(`${sandbox.currentUrl}/transactions/${tx}`, {
    method: 'PATCH',
    headers: bearer,
    body: { CreateRefund: { refundAmount: 1000 } },
  });

  const post = (headers, body) => ({
    path: '/orders',
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const getCurrent = { path: `/transactions/${tx}`, headers: bearer };
  const getLegacy = { path: `/transactions/${tx}`, headers: legacyHeaders };
  // [row, target, call, baseline row (ratios), targets]
  const configs = [
    ['direct to the sandbox (GET transaction)', direct, getCurrent],
    ['minimal proxy, GET transaction', minimal, getCurrent],
    ['minimal proxy, legacy GET transaction', minimalLegacy, getLegacy],
    ['@fastify/http-proxy, GET transaction', fastifyProxy, getCurrent, 'minimal proxy, GET transaction'],
    ['L6 floor (read, parse, shape, write)', floor, getCurrent, 'minimal proxy, GET transaction'],
    ['gateway, L6 translated', gateway, getLegacy, 'minimal proxy, GET transaction', { rps: 0.85, p99: 1, cpu: 1.3 }],
    ['gateway, current passthrough', gateway, getCurrent, 'minimal proxy, GET transaction', { rps: 0.95 }],
    ['gateway, legacy mode (L6)', legacyMode, getLegacy, 'minimal proxy, legacy GET transaction', { rps: 0.95 }],
    // req/s: issue 14's target; p99: issue 5's (its own shadow benchmark, folded into this one)
    ['gateway, shadow 0.1 (L6)', shadowLow, getLegacy, 'gateway, legacy mode (L6)', { rps: 0.9, p99: 2 }],
    ['gateway, shadow 1.0 (L6)', shadowAll, getLegacy, 'gateway, legacy mode (L6)'],
    [`gateway, legacy mode (L6), ${PACED_RATE}/s`, legacyMode, { ...getLegacy, overallRate: PACED_RATE }],
    [
      `gateway, shadow 1.0 (L6), ${PACED_RATE}/s`,
      shadowPaced,
      { ...getLegacy, overallRate: PACED_RATE },
      `gateway, legacy mode (L6), ${PACED_RATE}/s`,
    ],
    ['minimal proxy, POST order', minimal, post(bearer, ORDER_CURRENT)],
    [
      'gateway, L1 create',
      gateway,
      post(legacyHeaders, ORDER_LEGACY),
      'minimal proxy, POST order',
      { rps: 0.85, p99: 1, cpu: 1.3 },
    ],
  ];

  for (const [, target, call] of configs) await load({ url: target.url + call.path, ...call, duration: 3 });
  for (const target of [shadowLow, shadowAll, shadowPaced]) await shadowDrained(target.url);
  const rssStart = rssMb(gateway.pid);
  const shadowBefore = {
    compared: await counter(shadowAll, 'paybridge_shadow_comparisons_total'),
    dropped: await counter(shadowAll, 'paybridge_shadow_dropped_total'),
    skipped: await counter(shadowAll, 'paybridge_shadow_skipped_total'),
  };
  const pacedBefore = await counter(shadowPaced, 'paybridge_shadow_comparisons_total');
  const rounds = [];
  // per round, each configuration's own baseline run, measured beside it (its ratios are taken against this)
  const baselines = [];
  const byName = new Map(configs.map(([name, target, call]) => [name, { target, call }]));
  let turn = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // rotate the order each round so drift of this shared machine does not favour one configuration
    const order = configs.map((_, i) => (i + round * 3) % configs.length);
    const figures = {};
    const beside = {};
    for (const i of order) {
      const [name, target, call, base] = configs[i];
      if (!base) {
        figures[name] = await measure(target, call);
        continue;
      }
      // the baseline first in one pair and second in the next, so a drift in between falls on either side alike
      const baseline = byName.get(base);
      if (turn++ % 2 === 0) {
        beside[name] = await measure(baseline.target, baseline.call);
        figures[name] = await measure(target, call);
      } else {
        figures[name] = await measure(target, call);
        beside[name] = await measure(baseline.target, baseline.call);
      }
    }
    rounds.push(figures);
    baselines.push(beside);
    console.log(`  round ${round + 1}/${ROUNDS} done`);
  }
  const rssEnd = rssMb(gateway.pid);
  const shadowAfter = {
    compared: await counter(shadowAll, 'paybridge_shadow_comparisons_total'),
    dropped: await counter(shadowAll, 'paybridge_shadow_dropped_total'),
    skipped: await counter(shadowAll, 'paybridge_shadow_skipped_total'),
  };
  const shadowRequests = rounds.reduce((s, r) => s + r['gateway, shadow 1.0 (L6)'].requests, 0);
  const pacedCompared = (await counter(shadowPaced, 'paybridge_shadow_comparisons_total')) - pacedBefore;
  const pacedRequests = rounds.reduce((s, r) => s + r[`gateway, shadow 1.0 (L6), ${PACED_RATE}/s`].requests, 0);

  console.log(
    `\ngateway benchmark: ${CONNECTIONS} connections, ${DURATION} s runs, ${ROUNDS} rounds rotated, ${TASKSET ? 'pinned (sandbox + load on core 0, server under test on core 1)' : 'NOT pinned (no taskset)'}; medians`,
  );
  console.log(
    '  path'.padEnd(46) +
      'req/s'.padStart(8) +
      'p99 ms'.padStart(8) +
      'CPU us/req'.padStart(12) +
      '   vs'.padEnd(44) +
      'req/s x'.padStart(8) +
      'p99 +ms'.padStart(9) +
      'CPU x'.padStart(7),
  );
  let ok = true;
  const fig = (name, key) => median(rounds.map((r) => r[name][key]));
  const perRound = (list) => list.map((v) => v.toFixed(2)).join(' ');
  const spread = [];
  for (const [name, , , base, goal] of configs) {
    let line =
      `  ${name}`.padEnd(46) +
      Math.round(fig(name, 'rps')).toLocaleString('en').padStart(8) +
      fig(name, 'p99').toFixed(1).padStart(8) +
      fig(name, 'cpuUs').toFixed(0).padStart(12);
    if (base) {
      const rpsRounds = rounds.map((r, k) => r[name].rps / baselines[k][name].rps);
      const cpuRounds = rounds.map((r, k) => r[name].cpuUs / baselines[k][name].cpuUs);
      const rps = median(rpsRounds);
      const p99 = median(rounds.map((r, k) => r[name].p99 - baselines[k][name].p99));
      const cpu = median(cpuRounds);
      line +=
        `   ${base}`.padEnd(44) + rps.toFixed(2).padStart(8) + p99.toFixed(1).padStart(9) + cpu.toFixed(2).padStart(7);
      spread.push(`  ${name}`.padEnd(46) + `${perRound(rpsRounds)} | ${perRound(cpuRounds)}`);
      if (goal) {
        const misses = [
          goal.rps !== undefined && rps < goal.rps && `req/s < ${goal.rps}x`,
          goal.p99 !== undefined && p99 > goal.p99 && `p99 > +${goal.p99} ms`,
          goal.cpu !== undefined && cpu > goal.cpu && `CPU > ${goal.cpu}x`,
        ].filter(Boolean);
        line += misses.length ? `  MISSES ${misses.join(', ')}` : '  meets';
        ok &&= misses.length === 0;
      }
    }
    console.log(line);
  }
  // the sandbox and the load generator share core 0: when the minimal proxy goes as fast as the sandbox
  // alone, core 0 set its pace, and every req/s ratio against it is an upper bound (CPU ratios are not affected)
  const directRps = fig('direct to the sandbox (GET transaction)', 'rps');
  const minimalRps = fig('minimal proxy, GET transaction', 'rps');
  if (minimalRps >= 0.95 * directRps)
    console.log(
      `\n  note: the minimal proxy (${Math.round(minimalRps)} req/s) ran as fast as the sandbox alone (${Math.round(directRps)} req/s): core 0 capped it, so its req/s is not its own limit and the req/s ratios above overstate the gateway's (CPU ratios stand)`,
    );
  // the pairs behind each median: their spread is how far this machine's noise reaches in this run
  console.log('\n  per-round ratios, req/s x | CPU x (in round order):');
  for (const line of spread) console.log(line);
  // issue 43's cost line, judged on what these rounds can tell: three give a 75% interval at best, so
  // `cannot tell` (BENCH_ROUNDS=5 or more can decide it, the shadow benchmark is the cheaper way)
  const shadowLine = lineVerdict(
    rounds.map((r, k) => r['gateway, shadow 0.1 (L6)'].rps / baselines[k]['gateway, shadow 0.1 (L6)'].rps),
    0.8,
  );
  console.log(
    `  shadow 0.1 against issue 43's 0.8x of legacy mode's req/s: ${shadowLine.verdict}, the median's ${Math.floor(shadowLine.coverage * 100)}% interval ${shadowLine.low.toFixed(2)}-${shadowLine.high.toFixed(2)}x (npm run bench -- shadow runs the rounds that decide it)`,
  );
  // none of our code runs in these two: a round where they move is a round the machine disturbed
  const byRound = (name, key) => rounds.map((r) => r[name][key].toFixed(0)).join(' ');
  console.log(
    `  baselines per round: the sandbox alone ${byRound('direct to the sandbox (GET transaction)', 'rps')} req/s; the minimal proxy ${byRound('minimal proxy, GET transaction', 'cpuUs')} us of CPU a request`,
  );
  const compared = shadowAfter.compared - shadowBefore.compared;
  const share = compared / shadowRequests;
  const primaryUs = median(baselines.map((b) => b['gateway, shadow 1.0 (L6)'].cpuUs));
  const perComparisonUs =
    ((fig('gateway, shadow 1.0 (L6)', 'cpuUs') - primaryUs) * shadowRequests) / Math.max(1, compared);
  console.log(
    `\n  shadow 1.0: ${compared} of ${shadowRequests} requests compared (${(share * 100).toFixed(1)}%), ${shadowAfter.dropped - shadowBefore.dropped} dropped (queue full), ${shadowAfter.skipped - shadowBefore.skipped} skipped`,
  );
  console.log(
    `  at saturation, a comparison costs about ${perComparisonUs.toFixed(0)} us of gateway CPU; the call it shadows ${primaryUs.toFixed(0)} us (the difference of two runs over ${(share * 100).toFixed(1)}%)`,
  );
  // paced: per round, the extra CPU of the shadow gateway over legacy mode at the same rate, per comparison
  const pacedShare = pacedCompared / Math.max(1, pacedRequests);
  const pacedShadow = `gateway, shadow 1.0 (L6), ${PACED_RATE}/s`;
  const pacedPerRound = rounds.map(
    (r, k) => (r[pacedShadow].cpuUs - baselines[k][pacedShadow].cpuUs) / Math.max(0.01, pacedShare),
  );
  const pacedPerComparison = median(pacedPerRound);
  const pacedPrimaryUs = median(baselines.map((b) => b[pacedShadow].cpuUs));
  const cheap = pacedPerComparison <= pacedPrimaryUs;
  console.log(
    `  paced at ${PACED_RATE}/s: ${pacedCompared} of ${pacedRequests} requests compared (${(pacedShare * 100).toFixed(1)}%); a comparison costs ${pacedPerComparison.toFixed(0)} us, the call it shadows ${pacedPrimaryUs.toFixed(0)} us at that rate  ${cheap ? 'meets' : 'MISSES (comparison > primary)'}`,
  );
  console.log(
    `    per round: ${pacedPerRound.map((v) => v.toFixed(0)).join(', ')} us against ${baselines.map((b) => b[pacedShadow].cpuUs.toFixed(0)).join(', ')} us`,
  );
  const rssOk = rssEnd - rssStart <= 50;
  console.log(
    `  gateway RSS: ${rssStart.toFixed(0)} MB after warm-up, ${rssEnd.toFixed(0)} MB after ${ROUNDS * 3 * DURATION} s of load (${(rssEnd - rssStart).toFixed(0)} MB)  ${rssOk ? 'meets' : 'MISSES +50 MB'}`,
  );
  ok &&= cheap && rssOk;
  if (!ok) process.exitCode = 1;
} finally {
  for (const target of started) await target.stop();
  await sandbox.stop();
}
