// A CPU profile of the gateway under one benchmark load, to see where its time goes (issue 14: measure
// before and after every change). `node test/bench/profile.mjs l6|l1|current|legacy|shadow|minimal [seconds]`:
// the sandbox and autocannon pinned to core 0, the gateway alone on core 1 with --cpu-prof; prints
// self time by function (top 45) and by area (node core, undici, fastify, pino, prom-client, own code).
// SAMPLE (default 1): the shadow gateway's sample rate.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BIN, paidTransaction, spawnNode, spawnSandbox } from './lib.mjs';
import { ORDER_LEGACY } from './orders.mjs';

const which = process.argv[2] ?? 'l6';
// more node flags for the server under test (NODE_EXTRA='--trace-gc'); its output goes to gc.log in the profile folder
// ALLOC=1: also the bytes allocated per request by function (servers/alloc-sampler.mjs), sampled after a
// 3-second warm-up, objects already collected included
const ALLOC = process.env.ALLOC === '1';
const extra = [
  ...(process.env.NODE_EXTRA ?? '').split(' ').filter(Boolean),
  ...(ALLOC ? ['--import', fileURLToPath(new URL('./servers/alloc-sampler.mjs', import.meta.url))] : []),
];
const seconds = Number(process.argv[3] ?? 8);
const sandbox = await spawnSandbox(0);
const sk = sandbox.secretKey;
const legacy = { 'limepay-secretkey': sk, 'content-type': 'application/json' };
const dir = mkdtempSync(join(tmpdir(), 'paybridge-prof-'));
const allocFile = join(dir, 'alloc.json');
writeFileSync(join(dir, 'config.json'), JSON.stringify({ client: { maxRequestsPerSocket: 0 } }));
const modes = {
  legacy: ['--mode', '*=legacy'],
  shadow: ['--mode', '*=shadow', '--shadow-sample', process.env.SAMPLE ?? '1', '--shadow-log', '/dev/null'],
};
const gateway =
  which === 'minimal'
    ? await spawnNode(
        [
          ...extra,
          '--cpu-prof',
          '--cpu-prof-dir',
          dir,
          fileURLToPath(new URL('./servers/minimal-proxy.mjs', import.meta.url)),
          sandbox.currentUrl,
        ],
        /listening (http:\/\/\S+)/,
        { cpu: 1, env: { ALLOC_OUT: allocFile } },
      )
    : await spawnNode(
        [
          ...extra,
          '--cpu-prof',
          '--cpu-prof-dir',
          dir,
          BIN,
          'serve',
          '--config',
          join(dir, 'config.json'),
          '--port',
          '0',
          '--current-url',
          sandbox.currentUrl,
          '--legacy-url',
          sandbox.legacyUrl,
          '--log-level',
          process.env.LOG_LEVEL ?? 'info',
          ...(modes[which] ?? []),
        ],
        /listening on (http:\/\/\S+)/,
        { cpu: 1, env: { ALLOC_OUT: allocFile } },
      );
const url = gateway.match[1];
const gc = { scavenge: 0, scavengeMs: 0, mark: 0, markMs: 0 };
gateway.child.stdout.on('data', (d) => {
  for (const line of String(d).split('\n')) {
    if (!line.includes('gc=s ')) continue;
    const f = Object.fromEntries([...line.matchAll(/([\w.]+)=([\d.]+)/g)].map((m) => [m[1], Number(m[2])]));
    gc.nvp = (gc.nvp ?? 0) + 1;
    for (const k of [
      'pause',
      'promoted',
      'new_space_survived',
      'scavenge.roots',
      'scavenge.parallel',
      'scavenge.weak_global_handles.process',
      'scavenge.update_refs',
    ])
      gc[k] = (gc[k] ?? 0) + (f[k] ?? 0);
  }
  for (const m of String(d).matchAll(/(Scavenge|Mark-Compact)[^,]*?, ([\d.]+) \/ [\d.]+ ms/g)) {
    if (m[1] === 'Scavenge') {
      gc.scavenge++;
      gc.scavengeMs += Number(m[2]);
    } else {
      gc.mark++;
      gc.markMs += Number(m[2]);
    }
  }
});
const bearer = { authorization: `Bearer ${sk}` };
const tx = await paidTransaction(sandbox.currentUrl, bearer);
const calls = {
  l6: { path: `/transactions/${tx}`, headers: legacy },
  legacy: { path: `/transactions/${tx}`, headers: legacy },
  shadow: { path: `/transactions/${tx}`, headers: legacy },
  minimal: { path: `/transactions/${tx}`, headers: bearer },
  current: { path: `/transactions/${tx}`, headers: bearer },
  l1: { path: '/orders', method: 'POST', headers: legacy, body: JSON.stringify(ORDER_LEGACY) },
};
// RATE=n paces the load at n requests a second (autocannon overallRate): below saturation, every shadow exchange is compared
const loadOptions = {
  url: url + calls[which].path,
  connections: Number(process.env.CONNECTIONS ?? 50),
  ...(process.env.RATE ? { overallRate: Number(process.env.RATE) } : {}),
  ...calls[which],
};
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
if (ALLOC) {
  await autocannon({ ...loadOptions, duration: 3 });
  process.kill(gateway.pid, 'SIGUSR2');
  await pause(500);
}
const r = await autocannon({ ...loadOptions, duration: seconds });
if (ALLOC) {
  process.kill(gateway.pid, 'SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(allocFile); i++) await pause(100);
}
console.log(`${which}: ${Math.round(r.requests.average)} req/s, ${r.non2xx} non-2xx, ${r.errors} errors`);
await gateway.stop();
if (gc.nvp)
  console.log(
    `scavenges: ${gc.nvp}; per scavenge: ${['pause', 'scavenge.roots', 'scavenge.parallel', 'scavenge.weak_global_handles.process', 'scavenge.update_refs'].map((k) => `${k} ${(gc[k] / gc.nvp).toFixed(2)} ms`).join(', ')}, promoted ${(gc.promoted / gc.nvp / 1024).toFixed(0)} KiB, survived ${(gc.new_space_survived / gc.nvp / 1024).toFixed(0)} KiB`,
  );
if (extra.includes('--trace-gc'))
  console.log(
    `gc: ${gc.scavenge} scavenges (${gc.scavengeMs.toFixed(0)} ms), ${gc.mark} mark-compacts (${gc.markMs.toFixed(0)} ms)`,
  );
await sandbox.stop();

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
/** A function as printed: name, file (past node_modules) and line. */
const labelOf = (f) => `${f.functionName || '(anon)'} ${f.url.replace(/^.*\/(node_modules\/)?/, '')}:${f.lineNumber}`;
const self = new Map();
const dt = new Map();
profile.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
let total = 0;
const areas = new Map();
const area = (u) =>
  !u
    ? 'native/idle'
    : u.startsWith('node:')
      ? 'node core'
      : /undici/.test(u)
        ? 'undici'
        : /fastify|find-my-way|avvio/.test(u)
          ? 'fastify'
          : /pino|sonic-boom/.test(u)
            ? 'pino'
            : /prom-client/.test(u)
              ? 'prom-client'
              : /node_modules/.test(u)
                ? 'other deps'
                : 'paybridge';
for (const [id, us] of dt) {
  const n = byId.get(id);
  const f = n.callFrame;
  if (f.functionName === '(idle)') continue;
  total += us;
  const key = labelOf(f);
  self.set(key, (self.get(key) ?? 0) + us);
  const a = f.functionName === '(garbage collector)' ? 'gc' : f.functionName === '(program)' ? 'program' : area(f.url);
  areas.set(a, (areas.get(a) ?? 0) + us);
}
const perReq = (us) => (us / (r.requests.total || 1)).toFixed(1);
console.log(`busy ${(total / 1e6).toFixed(2)} s over ${r.requests.total} requests: ${perReq(total)} us/request`);
for (const [a, us] of [...areas].sort((x, y) => y[1] - x[1]))
  console.log(`  ${a.padEnd(14)} ${((100 * us) / total).toFixed(1).padStart(5)}%  ${perReq(us)} us/req`);
const top = Number(process.env.TOP ?? 45);
// INCLUSIVE=name,name: time in each named function and everything it calls (a name counted once per stack)
if (process.env.INCLUSIVE) {
  const names = new Set(process.env.INCLUSIVE.split(','));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map();
  for (const [id, us] of dt) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const name = byId.get(cur).callFrame.functionName;
      if (names.has(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      }
    }
  }
  for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]))
    console.log(`  inclusive ${name.padEnd(20)} ${perReq(us).padStart(6)} us/req`);
}
// PARENTS=name: who calls the function `name` or `name file:line` as printed (its self time by its three callers), e.g. PARENTS=nextTick
if (process.env.PARENTS) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const callers = new Map();
  for (const [id, us] of dt) {
    const n = byId.get(id);
    const f = n.callFrame;
    if (f.functionName !== process.env.PARENTS && labelOf(f) !== process.env.PARENTS) continue;
    const up = [];
    for (let cur = parent.get(id); cur !== undefined && up.length < 3; cur = parent.get(cur)) {
      up.push(labelOf(byId.get(cur).callFrame));
    }
    const key = up.join(' <- ');
    callers.set(key, (callers.get(key) ?? 0) + us);
  }
  for (const [k, us] of [...callers].sort((a, b) => b[1] - a[1]).slice(0, 15))
    console.log(`  ${process.env.PARENTS} from ${perReq(us).padStart(6)} us/req  ${k}`);
}
// PROFILE_OUT=file.json: us per request by function, to compare two runs (diff them with jq or a line of node)
if (process.env.PROFILE_OUT)
  writeFileSync(
    process.env.PROFILE_OUT,
    JSON.stringify(Object.fromEntries([...self].map(([k, us]) => [k, us / (r.requests.total || 1)]))),
  );
for (const [k, us] of [...self].sort((x, y) => y[1] - x[1]).slice(0, top))
  console.log(`${((100 * us) / total).toFixed(2).padStart(6)}%  ${perReq(us).padStart(5)} us  ${k}`);

// ALLOC=1: bytes allocated per request (sampled every 1 KiB, so a site under about 100 bytes a request is noise)
if (ALLOC) {
  const allocated = new Map();
  let bytes = 0;
  const walk = (node) => {
    const f = node.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\/(node_modules\/)?/, '')}:${f.lineNumber + 1}`;
    bytes += node.selfSize;
    if (node.selfSize) allocated.set(key, (allocated.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child);
  };
  walk(JSON.parse(readFileSync(allocFile, 'utf8')).head);
  const requests = r.requests.total || 1;
  console.log(
    `allocated: ${(bytes / requests / 1024).toFixed(1)} KiB per request (after a 3 s warm-up, freed objects included); by function:`,
  );
  for (const [k, b] of [...allocated].sort((x, y) => y[1] - x[1]).slice(0, top))
    console.log(`${(b / requests).toFixed(0).padStart(8)} B  ${k}`);
}
