// Instructions per request of one server, counted by valgrind (callgrind): a figure this shared, noisy
// machine does not move, to tell whether a change to the gateway's code pays before the benchmark's
// timed rounds (which it does not replace). User-space only: the kernel's share of a request (its
// socket reads and writes) is not counted; every server here makes the same system calls, but their
// time grows with the time a server takes to answer (work.mjs).
//
//   npm run build && node test/bench/instructions.mjs l6|l1|current|legacy|shadow|minimal|floor [DIST=dir of another build]
//
// The server runs under valgrind beside the sandbox; a small undici client (8 connections) sends 3 x N
// requests to warm it up, then K batches of N, callgrind dumping its counts after each. Printed: the
// instructions per request of each batch and their median (a batch holding a major GC counts more;
// the median is the figure to compare). Env: N (default 2500), K (default 4), DIST (a build's dist
// folder, default this one's), NODE_EXTRA (node flags). About 3 minutes per server at the defaults.
// The server runs with --no-concurrent-recompilation: valgrind runs one thread at a time, so V8's
// background compiler can lag behind and leave hot functions unoptimised for the whole run (the
// gateway's passthrough counted 205k instead of 177k, 24k of it in runtime calls that optimised code
// does not make; `perf` on a normal run shows none of them). Compiled on the main thread instead,
// counts match what runs natively, mostly: in some runs V8 still optimises a function with a runtime
// call on its path, made on every request (one L6 run: 42k instructions a request in node's nextTick,
// none in the next run of the same build or in `perf`; why, was not found). The runtime calls of the median batch are
// printed below the counts; a run with a large one that another run lacks is not the figure to use.
// `shadow` is L6 through a shadow 1.0 gateway: the share of requests compared (the rest dropped by the
// full queue) is printed, and (batch - legacy's) / share is what one comparison costs.
// PROFILE=n: the server runs with --perf-basic-prof, and the n functions with the most self
// instructions per request in the median batch are printed, JavaScript ones by name (callgrind.mjs).
// CALLS=pattern (with PROFILE): also the calls into the functions whose names match it (a regular
// expression), caller -> callee with the callee's inclusive instructions per request: who calls
// `Runtime_DefineKeyedOwnPropertyInLiteral` (through `Builtins_CEntry`: CALLS=CEntry), what a
// `*translate` costs with what it calls (CALLS='\*backward').
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { callsInto, runtimeCosts, selfCosts } from './callgrind.mjs';
import { metricSum, paidTransaction, shadowDrained, spawnSandbox } from './lib.mjs';
import { ORDER_LEGACY } from './orders.mjs';

const which = process.argv[2] ?? 'l6';
const N = Number(process.env.N ?? 2500);
const K = Number(process.env.K ?? 4);
const dist = process.env.DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
if (spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error('valgrind is not installed here');
  process.exit(2);
}

const sandbox = await spawnSandbox();
const dir = mkdtempSync(join(tmpdir(), 'paybridge-instr-'));
writeFileSync(join(dir, 'config.json'), JSON.stringify({ client: { maxRequestsPerSocket: 0 } }));
const modes = {
  legacy: ['--mode', '*=legacy'],
  shadow: ['--mode', '*=shadow', '--shadow-sample', '1', '--shadow-log', '/dev/null'],
};
const PROFILE = Number(process.env.PROFILE ?? 0);
// the minimal proxy, and L6's floor (servers/l6-floor.mjs: what L6 cannot skip, nothing else), are baselines
const baseline = { minimal: 'minimal-proxy', floor: 'l6-floor' }[which];
const serverArgs = baseline
  ? [fileURLToPath(new URL(`./servers/${baseline}.mjs`, import.meta.url)), sandbox.currentUrl]
  : [
      join(dist, 'src/cli.js'),
      'serve',
      '--config',
      join(dir, 'config.json'),
      '--port',
      '0',
      '--current-url',
      sandbox.currentUrl,
      '--legacy-url',
      sandbox.legacyUrl,
      ...(modes[which] ?? []),
    ];
const server = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--smc-check=all-non-file',
    `--callgrind-out-file=${dir}/cg.%p`,
    process.execPath,
    '--no-concurrent-recompilation',
    ...(PROFILE ? ['--perf-basic-prof'] : []),
    ...(process.env.NODE_EXTRA ?? '').split(' ').filter(Boolean),
    ...serverArgs,
  ],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
let out = '';
const url = await new Promise((resolve, reject) => {
  const onData = (d) => {
    if (out === null) return;
    out += d;
    const m = /listening (?:on )?(http:\/\/\S+)/.exec(out);
    if (m) {
      out = null;
      resolve(m[1]);
    }
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
  server.once('exit', (code) => reject(new Error(`the server under valgrind exited ${code}: ${out}`)));
});

const sk = sandbox.secretKey;
const bearer = { authorization: `Bearer ${sk}` };
const legacy = { 'limepay-secretkey': sk };
const tx = await paidTransaction(sandbox.currentUrl, bearer);
const request = {
  minimal: { path: `/transactions/${tx}`, method: 'GET', headers: bearer },
  floor: { path: `/transactions/${tx}`, method: 'GET', headers: bearer },
  current: { path: `/transactions/${tx}`, method: 'GET', headers: bearer },
  l6: { path: `/transactions/${tx}`, method: 'GET', headers: legacy },
  legacy: { path: `/transactions/${tx}`, method: 'GET', headers: legacy },
  shadow: { path: `/transactions/${tx}`, method: 'GET', headers: legacy },
  l1: {
    path: '/orders',
    method: 'POST',
    headers: { ...legacy, 'content-type': 'application/json' },
    body: JSON.stringify(ORDER_LEGACY),
  },
}[which];
if (!request) throw new Error(`unknown server ${which}: l6, l1, current, legacy, shadow, minimal or floor`);

const client = new Pool(url, { connections: 8 });
async function batch(count) {
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent++ < count) {
        const res = await client.request(request);
        await res.body.dump();
        if (res.statusCode >= 300) throw new Error(`${which}: answered ${res.statusCode}`);
      }
    }),
  );
}
const dump = () => execFileSync('callgrind_control', ['--dump', String(server.pid)], { stdio: 'ignore' });

await batch(3 * N);
dump();
for (let k = 0; k < K; k++) {
  await batch(N);
  dump();
}
// dumps are numbered in order: the first holds start-up and warm-up
const dumps = readdirSync(dir)
  .filter((f) => /^cg\.\d+\.\d+$/.test(f))
  .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
const counts = dumps.map((f) => Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(join(dir, f), 'utf8'))[1]));
const perRequest = counts.slice(1).map((c) => c / N / 1000);
const median = [...perRequest].sort((a, b) => a - b)[Math.floor(perRequest.length / 2)];
console.log(
  `${which}${process.env.DIST ? ` (${dist})` : ''}: instructions per request, by batch of ${N}: ${perRequest.map((p) => `${p.toFixed(1)}k`).join(' ')}; median ${median.toFixed(1)}k`,
);
// V8's runtime calls of the median batch: a large one here and not in another run of the same build
// is how V8 happened to compile that run (callgrind.mjs, runtimeCosts), so compare runs without it
const at = perRequest.indexOf(median);
const runtime = runtimeCosts(join(dir, dumps[at + 1]));
const runtimeTotal = runtime.reduce((sum, [, cost]) => sum + cost, 0);
console.log(
  `  of the median batch, in V8's runtime calls: ${(runtimeTotal / N / 1000).toFixed(1)}k a request (${runtime
    .slice(0, 3)
    .map(([name, cost]) => `${name} ${(cost / N / 1000).toFixed(1)}k`)
    .join(', ')})`,
);
if (which === 'shadow') {
  // the comparisons still queued run first: compared + dropped then add up to the requests sent
  await shadowDrained(url, 120_000);
  const total = (3 + K) * N;
  console.log(
    `shadow: ${await metricSum(url, 'paybridge_shadow_comparisons_total')} of ${total} requests compared, ${await metricSum(url, 'paybridge_shadow_dropped_total')} dropped`,
  );
}
if (PROFILE) {
  console.log(`self instructions per request, batch ${at + 1} (the median):`);
  for (const [name, cost] of selfCosts(join(dir, dumps[at + 1]), `/tmp/perf-${server.pid}.map`).slice(0, PROFILE))
    console.log(`${(cost / N).toFixed(0).padStart(9)}  ${name.slice(0, 150)}`);
  if (process.env.CALLS) {
    console.log(`calls into /${process.env.CALLS}/ per request, batch ${at + 1}, the callee's inclusive instructions:`);
    for (const [pair, cost] of callsInto(
      join(dir, dumps[at + 1]),
      `/tmp/perf-${server.pid}.map`,
      new RegExp(process.env.CALLS),
    ).slice(0, PROFILE))
      console.log(`${(cost / N).toFixed(0).padStart(9)}  ${pair.slice(0, 200)}`);
  }
}
server.kill('SIGKILL');
await client.close();
await sandbox.stop();
