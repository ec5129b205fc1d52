// Two builds of the gateway timed side by side: whether a change pays in CPU per request, where one
// run of the full benchmark drifts by more than the change (issue 14: measure before and after).
//
//   node test/bench/ab.mjs /path/to/old/dist [/path/to/new/dist, default this one's] [-- gateway args]
//
// Both gateways run pinned to core 1 (the sandbox and the load generator on core 0), on one sandbox;
// each round loads one then the other (the order alternating) for BENCH_DURATION seconds, waits for a
// shadow gateway's comparisons to finish, and reads each gateway's CPU. Printed: each round's req/s
// and CPU per request, and the median of the per-round new/old CPU ratios. Env: CALL (l6, current or
// l1; default l6), RATE (requests a second; default: as fast as they go), ROUNDS (default 4),
// OLD_NODE_FLAGS / NEW_NODE_FLAGS (node flags of one side: the same dist twice with
// NEW_NODE_FLAGS=--max-semi-space-size=64 times a runtime setting).
// An old build: `git worktree add /tmp/old <commit> && cd /tmp/old && ln -s $PWD/../main/node_modules
// && npx tsc -p tsconfig.build.json`, then `node test/bench/ab.mjs /tmp/old/dist`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  median,
  paidTransaction,
  pinnedLoad as load,
  shadowDrained,
  spawnNode,
  spawnSandbox,
  withCpu,
} from './lib.mjs';
import { ORDER_LEGACY } from './orders.mjs';

const dashes = process.argv.indexOf('--');
const dists = dashes < 0 ? process.argv.slice(2) : process.argv.slice(2, dashes);
const gatewayArgs = dashes < 0 ? [] : process.argv.slice(dashes + 1);
if (dists.length < 1 || dists.length > 2) {
  console.error('usage: node test/bench/ab.mjs OLD_DIST [NEW_DIST] [-- gateway args]');
  process.exit(2);
}
const [oldDist, newDist = fileURLToPath(new URL('../../dist', import.meta.url))] = dists;
const ROUNDS = Number(process.env.ROUNDS ?? 4);
const RATE = process.env.RATE ? { overallRate: Number(process.env.RATE) } : {};

const sandbox = await spawnSandbox(0);
const started = [sandbox];
try {
  const sk = sandbox.secretKey;
  const bearer = { authorization: `Bearer ${sk}` };
  const legacy = { 'limepay-secretkey': sk };
  const config = join(mkdtempSync(join(tmpdir(), 'paybridge-ab-')), 'config.json');
  writeFileSync(config, JSON.stringify({ client: { maxRequestsPerSocket: 0 } }));
  const gateway = async (label, dist) => {
    const flags = (process.env[`${label.toUpperCase()}_NODE_FLAGS`] ?? '').split(' ').filter(Boolean);
    const args = [
      ...flags,
      join(dist, 'src/cli.js'),
      'serve',
      '--config',
      config,
      '--port',
      '0',
      '--current-url',
      sandbox.currentUrl,
      '--legacy-url',
      sandbox.legacyUrl,
      ...gatewayArgs,
    ];
    const proc = await spawnNode(args, /listening on (http:\/\/\S+)/, { cpu: 1 });
    started.push(proc);
    return { label, pid: proc.pid, url: proc.match[1] };
  };
  const builds = [await gateway('old', oldDist), await gateway('new', newDist)];

  const tx = await paidTransaction(sandbox.currentUrl, bearer);
  const calls = {
    l6: { path: `/transactions/${tx}`, headers: legacy },
    current: { path: `/transactions/${tx}`, headers: bearer },
    l1: {
      path: '/orders',
      method: 'POST',
      headers: { ...legacy, 'content-type': 'application/json' },
      body: JSON.stringify(ORDER_LEGACY),
    },
  };
  const call = calls[process.env.CALL ?? 'l6'];
  if (!call) throw new Error(`CALL: one of ${Object.keys(calls).join(', ')}`);

  for (const b of builds) {
    await load({ url: b.url + call.path, ...call, duration: 3 });
    await shadowDrained(b.url);
  }
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const figures = {};
    for (const b of round % 2 === 0 ? builds : [...builds].reverse()) {
      const r = await withCpu(b.pid, async () => {
        const run = await load({ url: b.url + call.path, ...call, ...RATE });
        await shadowDrained(b.url);
        return run;
      });
      figures[b.label] = { rps: r.rps, cpuUs: r.cpuUs };
    }
    ratios.push(figures.new.cpuUs / figures.old.cpuUs);
    console.log(
      `  round ${round + 1}: ${builds.map((b) => `${b.label} ${Math.round(figures[b.label].rps)} req/s ${figures[b.label].cpuUs.toFixed(1)} us`).join(', ')}; new/old CPU ${ratios.at(-1).toFixed(3)}`,
    );
  }
  console.log(
    `new/old CPU per request, median of ${ROUNDS} rounds: ${median(ratios).toFixed(3)} (${process.env.CALL ?? 'l6'}${gatewayArgs.length ? ` ${gatewayArgs.join(' ')}` : ''})`,
  );
} finally {
  for (const proc of started.reverse()) await proc.stop();
}
