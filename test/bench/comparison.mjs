// What one shadow comparison of L6 (GET transaction) costs in CPU, away from the noise of a saturated
// gateway: the shadow engine in this process (pinned to core 1, the sandbox to core 0), comparisons
// back to back, BENCH_COMPARISON_WIDTH (default 4, shadow.concurrency's default) at a time, records
// written to /dev/null as the gateway benchmark writes them. Three figures, medians over BENCH_ROUNDS
// rounds (default 5) of BENCH_COMPARISONS each (default 10,000):
// - the comparison's own work: the candidate's answer (the sandbox's, fetched once) handed back at
//   once, parsed as the upstream client parses it;
// - the comparison with its upstream call: the candidate sent through the gateway's upstream client;
// - that upstream call alone, made the same way.
// A saturated gateway pays more for each (see docs/benchmarks.md); these say which part a change moves.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../dist/src/config.js';
import { paramsOf } from '../../dist/src/gateway/requests.js';
import { createUpstream } from '../../dist/src/gateway/upstream.js';
import { createMetrics } from '../../dist/src/observability/metrics.js';
import { createShadow } from '../../dist/src/shadow/engine.js';
import { answerBody } from '../../dist/src/translate/answers.js';
import { createTranslator } from '../../dist/src/translate/index.js';
import { median, paidTransaction, spawnSandbox, TASKSET } from './lib.mjs';

if (TASKSET && process.env.BENCH_COMPARISON_PINNED !== '1') {
  const run = spawnSync('taskset', ['-c', '1', process.execPath, fileURLToPath(import.meta.url)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_COMPARISON_PINNED: '1' },
  });
  process.exit(run.status ?? 1);
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const COUNT = Number(process.env.BENCH_COMPARISONS ?? 10_000);
const WIDTH = Number(process.env.BENCH_COMPARISON_WIDTH ?? 4);
const JSON_TYPE = 'application/json; charset=utf-8';

const sandbox = await spawnSandbox(0);
const bearer = { authorization: `Bearer ${sandbox.secretKey}` };
const tx = await paidTransaction(sandbox.currentUrl, bearer);
const path = `/transactions/${tx}`;
const fetchText = async (url, headers) => (await fetch(url, { headers })).text();
const currentText = await fetchText(`${sandbox.currentUrl}${path}`, bearer);
const legacyHeaders = {
  'limepay-secretkey': sandbox.secretKey,
  host: 'shop.example',
  'user-agent': 'WordPress/6.4; https://shop.example',
  accept: '*/*',
};
const legacyText = await fetchText(`${sandbox.legacyUrl}${path}`, legacyHeaders);

const config = loadConfig({
  file: { shadow: { learnReads: 0, concurrency: WIDTH, queueSize: COUNT, log: '/dev/null' } },
  flags: { 'current-url': sandbox.currentUrl, 'legacy-url': sandbox.legacyUrl },
});
const translator = createTranslator();
const upstream = createUpstream(config.timeouts);
const failed = (obj, msg) => {
  console.error(msg, obj);
  process.exitCode = 1;
};
const log = { warn: failed, error: failed, info() {} };
const call = (current, requestId) => upstream.call(sandbox.currentUrl, current, requestId);
const answeredAtOnce = () => Promise.resolve({ status: 200, body: answerBody(currentText, JSON_TYPE) });
const engine = (callCurrent) =>
  createShadow({
    config,
    translator,
    metrics: createMetrics(),
    callCurrent,
    callLegacy: () => Promise.reject(new Error('not called')),
    log,
  });

const match = translator.routes.match('GET', path);
const params = paramsOf(match);
let next = 0;
const exchange = () => ({
  bytes: legacyText.length,
  mode: 'shadow',
  route: 'L6',
  requestId: `bench-${next++}`,
  compiled: match.compiled,
  params,
  request: { method: 'GET', path, headers: legacyHeaders },
  primary: { status: 200, text: legacyText, contentType: JSON_TYPE, latencyMs: 1 },
  client: 'wordpress',
});

/** Runs `count` comparisons through a shadow engine, a hundred queued at a time (a shallow queue, as in a gateway). */
async function compare(shadow, count) {
  for (let done = 0; done < count; done += 100) {
    for (let i = 0; i < 100; i++) shadow.enqueue(exchange());
    await shadow.idle();
  }
}

/** Makes `count` upstream calls of the candidate's request, WIDTH at a time. */
async function callAlone(count) {
  const current = await translator.toCurrent({ method: 'GET', path, headers: legacyHeaders, requestId: 'bench' });
  const request = { method: current.method, path: current.path, headers: current.headers };
  for (let done = 0; done < count; done += WIDTH)
    await Promise.all(Array.from({ length: WIDTH }, () => call(request, `bench-${next++}`)));
}

/** CPU microseconds per unit of `work(count)`, user and kernel, median over the rounds after a warm-up. */
async function cpuPer(work) {
  await work(Math.min(COUNT, 5000));
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    await work(COUNT);
    const used = process.cpuUsage(before);
    rounds.push({ user: used.user / COUNT, system: used.system / COUNT });
  }
  return { user: median(rounds.map((r) => r.user)), system: median(rounds.map((r) => r.system)) };
}

const atOnce = engine(answeredAtOnce);
const withCall = engine(call);
const figures = [
  ['comparison, candidate answered at once', await cpuPer((n) => compare(atOnce, n))],
  ['comparison with its upstream call', await cpuPer((n) => compare(withCall, n))],
  ['the upstream call alone', await cpuPer(callAlone)],
];
for (const shadow of [atOnce, withCall]) {
  const l6 = shadow.ledger.report().routes.find((r) => r.route === 'L6');
  if (!l6 || l6.matched !== l6.compared)
    failed({ l6 }, 'a comparison did not match: the figures measure something else');
}

console.log(
  `\ncomparison benchmark: L6, ${WIDTH} at a time, ${ROUNDS} rounds of ${COUNT}, ${TASKSET ? 'pinned' : 'not pinned (no taskset)'}; CPU a comparison (a call)`,
);
for (const [name, f] of figures)
  console.log(
    `  ${name.padEnd(40)} ${(f.user + f.system).toFixed(1).padStart(6)} us  (user ${f.user.toFixed(1)}, kernel ${f.system.toFixed(1)})`,
  );
await upstream.close();
await sandbox.stop();
