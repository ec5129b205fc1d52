// Sandbox throughput, so that the other benchmarks can show the sandbox is not their bottleneck: req/s,
// p99 and the sandbox's CPU per request of a GET transaction, a pay (PayByCard, each on an order of its
// own prepared before the run: a pay is never sent twice) and a create order. Run: npm run bench -- sandbox
// Method of the gateway benchmark: the sandbox in its own process, alone on core 1 with taskset, the load
// generator (autocannon, its own process) on core 0; the three runs rotated over BENCH_ROUNDS (>= 3)
// rounds after a warm-up; medians, and each round's req/s below them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  json,
  median,
  paidTransaction,
  pinnedLoad,
  pool,
  spawnSandbox,
  TASKSET,
  withCpu,
  CONNECTIONS,
  DURATION,
} from './lib.mjs';
import { ORDER_CURRENT } from './orders.mjs';

const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const PAYS = Number(process.env.BENCH_PAYS ?? 20_000);
const sandbox = await spawnSandbox(1);
const auth = { authorization: `Bearer ${sandbox.secretKey}` };
const base = sandbox.currentUrl;
const dir = mkdtempSync(join(tmpdir(), 'paybridge-bench-sandbox-'));
const stats = () => json(`${base}/sandbox/stats`);

/** `count` unpaid orders with a card token each, as a file of pay requests for the load generator. */
async function preparedPays(count) {
  const pays = await pool(count, 50, async () => {
    const order = await json(`${base}/orders`, { method: 'POST', headers: auth, body: ORDER_CURRENT });
    const token = await json(`${base}/sandbox/card-tokens`, {
      method: 'POST',
      headers: auth,
      body: { cardNumber: '4242424242424242' },
    });
    return {
      path: `/orders/${order.OnlineOrder.order.orderId}/pay`,
      body: JSON.stringify({ PayByCard: { paymentTokenId: token.paymentTokenId } }),
    };
  });
  const file = join(dir, `pays-${count}-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(pays));
  return file;
}

const post = { method: 'POST', headers: { ...auth, 'content-type': 'application/json' } };
const names = ['GET /transactions/{id}', 'POST /orders/{id}/pay (PayByCard)', 'POST /orders (CreateOnlineOrder)'];
const calls = { [names[2]]: { url: `${base}/orders`, ...post, body: JSON.stringify(ORDER_CURRENT) } };
let paysMade = 0;

/** One run of a configuration (a warm-up: 3 s, or 2,000 pays); pays are prepared first, outside the timed run, and counted after it. */
async function run(name, warmUp) {
  if (name !== names[1])
    return withCpu(sandbox.pid, () => pinnedLoad({ ...calls[name], ...(warmUp ? { duration: 3 } : {}) }));
  const count = warmUp ? 2_000 : PAYS;
  const sequenceFile = await preparedPays(count);
  const before = (await stats()).transactionsCreated;
  const r = await withCpu(sandbox.pid, () => pinnedLoad({ url: base, ...post, sequenceFile }));
  const paid = (await stats()).transactionsCreated - before;
  if (paid !== count || r.requests !== count)
    throw new Error(
      `${count} prepared pays: ${r.requests} sent, ${paid} transactions created; each must pay exactly once`,
    );
  paysMade += paid;
  return r;
}

try {
  calls[names[0]] = { url: `${base}/transactions/${await paidTransaction(base, auth)}`, headers: auth };
  for (const name of names) await run(name, true);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {};
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + round) % names.length];
      figures[name] = await run(name, false);
    }
    rounds.push(figures);
  }
  console.log(
    `\nsandbox benchmark: ${CONNECTIONS} connections, ${DURATION} s runs (pays: ${PAYS.toLocaleString('en')} prepared a round), ${ROUNDS} rounds rotated, ${TASKSET ? 'pinned (load on core 0, the sandbox alone on core 1)' : 'NOT pinned (no taskset)'}; medians`,
  );
  console.log(
    '  path'.padEnd(40) + 'req/s'.padStart(8) + 'p99 ms'.padStart(8) + 'CPU us/req'.padStart(12) + '   req/s per round',
  );
  for (const name of names) {
    const fig = (key) => median(rounds.map((r) => r[name][key]));
    console.log(
      `  ${name}`.padEnd(40) +
        Math.round(fig('rps')).toLocaleString('en').padStart(8) +
        fig('p99').toFixed(1).padStart(8) +
        fig('cpuUs').toFixed(0).padStart(12) +
        `   ${rounds.map((r) => Math.round(r[name].rps)).join(', ')}`,
    );
  }
  console.log(`  every prepared pay paid exactly once (${paysMade.toLocaleString('en')} pays)`);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
