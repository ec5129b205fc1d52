// What a known amount of work costs a server in the gateway benchmark's setup (issue 14), to read its
// ratios by: the minimal proxy (servers/minimal-proxy.mjs) with busy work added before
// each answer, for each amount in WORK (microseconds, default 0,10,20,40), pinned as in gateway.mjs
// (sandbox and load generator on core 0, the proxy alone on core 1), the amounts rotated over
// BENCH_ROUNDS (>= 3) rounds. Prints, per amount, the medians of req/s and of CPU per request in user
// space and in the kernel, and the median per-round req/s and CPU ratios to the proxy with no work
// added: the ratios a server doing exactly that much more than the minimal proxy would be measured at.
// `npm run build && node test/bench/work.mjs` (a tool, run by hand; the sandbox runs from dist).
import { fileURLToPath } from 'node:url';
import { DURATION, median, paidTransaction, pinnedLoad, spawnNode, spawnSandbox, TASKSET, withCpu } from './lib.mjs';

const amounts = [...new Set([0, ...(process.env.WORK ?? '0,10,20,40').split(',').map(Number)])];
if (amounts.some((a) => !Number.isFinite(a) || a < 0)) {
  console.error(`WORK: microseconds as a comma-separated list of numbers, got ${process.env.WORK}`);
  process.exit(2);
}
const ROUNDS = Math.max(3, Number(process.env.BENCH_ROUNDS ?? 3));
const proxy = fileURLToPath(new URL('./servers/minimal-proxy.mjs', import.meta.url));

const sandbox = await spawnSandbox(0);
const headers = { authorization: `Bearer ${sandbox.secretKey}` };
const path = `/transactions/${await paidTransaction(sandbox.currentUrl, headers)}`;

/** One amount's run: a fresh proxy, a short warm-up, then the measured load. */
async function run(workUs) {
  const server = await spawnNode([proxy, sandbox.currentUrl, String(workUs)], /listening (http:\/\/\S+)/, { cpu: 1 });
  try {
    const url = server.match[1] + path;
    await pinnedLoad({ url, headers, duration: 2 });
    return await withCpu(server.pid, () => pinnedLoad({ url, headers }));
  } finally {
    await server.stop();
  }
}

const figures = new Map(amounts.map((a) => [a, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = amounts.map((_, i) => amounts[(i + round) % amounts.length]);
    for (const amount of order) figures.get(amount).push(await run(amount));
    console.log(`  round ${round + 1}/${ROUNDS} done`);
  }
} finally {
  await sandbox.stop();
}

const none = figures.get(0);
console.log(
  `\nminimal proxy with added work: ${DURATION} s runs, ${ROUNDS} rounds rotated, ${TASKSET ? 'pinned' : 'not pinned (no taskset)'}; medians`,
);
console.log(
  '  work us'.padEnd(10) +
    'req/s'.padStart(9) +
    'req/s x'.padStart(9) +
    'user us'.padStart(10) +
    'kernel us'.padStart(11) +
    'CPU us'.padStart(9) +
    'CPU x'.padStart(8) +
    '   CPU x per round',
);
for (const [amount, rows] of figures) {
  const ratios = rows.map((r, i) => r.cpuUs / none[i].cpuUs);
  console.log(
    `  ${amount}`.padEnd(10) +
      String(Math.round(median(rows.map((r) => r.rps)))).padStart(9) +
      median(rows.map((r, i) => r.rps / none[i].rps))
        .toFixed(2)
        .padStart(9) +
      median(rows.map((r) => r.userUs))
        .toFixed(1)
        .padStart(10) +
      median(rows.map((r) => r.systemUs))
        .toFixed(1)
        .padStart(11) +
      median(rows.map((r) => r.cpuUs))
        .toFixed(1)
        .padStart(9) +
      median(ratios).toFixed(2).padStart(8) +
      `   ${ratios.map((x) => x.toFixed(2)).join(' ')}`,
  );
}
