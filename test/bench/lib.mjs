// Shared helpers of the benchmarks: spawn servers from the built bin, run autocannon in its own process, read CPU and memory.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ORDER_CURRENT } from './orders.mjs';

export const BIN = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** Whether `taskset` exists here: then servers are pinned to cores (see pinned). */
export const TASKSET = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

/** [command, args] running `node <args>`, pinned to `cpu` with taskset when it exists and cpu is given. */
export function pinned(cpu, args) {
  return TASKSET && cpu !== undefined
    ? ['taskset', ['-c', String(cpu), process.execPath, ...args]]
    : [process.execPath, args];
}

/** Starts `node <script args>` in its own process (pinned to `cpu`) and resolves once stdout or stderr matches `ready`. */
export function spawnNode(args, ready, { env = {}, cpu } = {}) {
  const [command, argv] = pinned(cpu, args);
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  return new Promise((resolve, reject) => {
    let resolved = false;
    const onData = (d) => {
      if (resolved) return;
      out += d;
      const m = out.match(ready);
      if (m) {
        resolved = true;
        resolve({
          child,
          pid: child.pid,
          match: m,
          output: () => out,
          stop: () =>
            new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => {
      if (!resolved) reject(new Error(`${args.join(' ')} exited ${code}: ${out}`));
    });
  });
}

/** Starts `paybridge <args>` in its own process and resolves once stdout or stderr matches `ready`. */
export function spawnBin(args, ready, options = {}) {
  return spawnNode([BIN, ...args], ready, options);
}

/**
 * The sandbox bin on free ports; resolves with its URLs and seeded credentials, `secretKey` the one
 * merchant (mcht_solo) every benchmark calls as.
 */
export async function spawnSandbox(cpu) {
  const proc = await spawnBin(
    ['sandbox', '--port', '0', '--legacy-port', '0', '--agreement-delay-ms', '0', '--json'],
    /^\{.*\}\n/,
    { cpu },
  );
  const seeded = JSON.parse(proc.match[0]);
  const secretKey = seeded.credentials.merchants.find((m) => m.merchantId === 'mcht_solo').secretKey;
  return { ...seeded, secretKey, stop: proc.stop, pid: proc.pid };
}

export async function json(url, { method = 'GET', headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (res.status >= 300 && res.status !== 403) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs `count` async jobs with at most `width` in flight. */
export async function pool(count, width, job) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await job(i);
      }
    }),
  );
  return results;
}

/**
 * One autocannon run in its own process (servers/load.mjs), pinned to `cpu` (with taskset, beside the
 * upstream); resolves with its figures, rejects over failed requests.
 */
export function pinnedLoad(options, cpu = 0) {
  const [command, argv] = pinned(cpu, [
    fileURLToPath(new URL('./servers/load.mjs', import.meta.url)),
    JSON.stringify({ connections: CONNECTIONS, duration: DURATION, ...options }),
  ]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
    });
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited ${code}`));
      const r = JSON.parse(out.trim().split('\n').pop());
      const failed = r.errors + r.timeouts + r.non2xx;
      if (failed > 0)
        return reject(new Error(`${options.url}: ${failed} failed requests ${JSON.stringify(r.statusCodeStats)}`));
      resolve(r);
    });
  });
}

/** The sum of a metric's samples in a server's /metrics whose lines contain `match` (all labels by default). */
export async function metricSum(url, name, match = '') {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(name) && line.includes(match)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

/** Resolves once a gateway has no shadow comparison queued or running (at once in other modes). */
export async function shadowDrained(url, limitMs = 60_000) {
  for (const end = Date.now() + limitMs; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 50)))
    if ((await metricSum(url, 'paybridge_shadow_queue_depth')) === 0) return;
  throw new Error(`${url}: the comparison queue did not drain within ${limitMs / 1000} s`);
}

/** A paid transaction in the sandbox (ORDER_CURRENT paid by a test card): its id. */
export async function paidTransaction(currentUrl, bearer) {
  const order = await json(`${currentUrl}/orders`, { method: 'POST', headers: bearer, body: ORDER_CURRENT });
  const token = await json(`${currentUrl}/sandbox/card-tokens`, {
    method: 'POST',
    headers: bearer,
    body: { cardNumber: '4242424242424242' },
  });
  const paid = await json(`${currentUrl}/orders/${order.OnlineOrder.order.orderId}/pay`, {
    method: 'POST',
    headers: bearer,
    body: { PayByCard: { paymentTokenId: token.paymentTokenId } },
  });
  return paid.transactionId;
}

/** Resident set size of a process in MB, from /proc/<pid>/status. */
export function rssMb(pid) {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/);
  return Number(m[1]) / 1024;
}

export const median = (list) => {
  const sorted = [...list].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Where the median of the distribution the rounds were drawn from lies, assuming nothing of its shape:
 * the k-th smallest and k-th largest of the n values hold it with probability 1 - 2 P(Bin(n, 1/2) < k)
 * (order statistics). The widest k whose coverage is at least `confidence` is taken; with too few
 * values even the smallest and largest cover less, and `coverage` says how much.
 */
export function medianInterval(list, confidence = 0.9) {
  const sorted = [...list].sort((x, y) => x - y);
  const n = sorted.length;
  let below = 0; // P(Bin(n, 1/2) < k), k = 1 first
  let term = 2 ** -n; // P(Bin(n, 1/2) = k - 1)
  let k = 1;
  let coverage = 1 - 2 * term;
  for (let next = 2; next <= (n + 1) / 2; next++) {
    below += term;
    term *= (n - next + 2) / (next - 1);
    const c = 1 - 2 * (below + term);
    if (c < confidence) break;
    k = next;
    coverage = c;
  }
  return { low: sorted[k - 1], high: sorted[n - k], coverage };
}

/**
 * A target line judged on the rounds: `meets` when the median's interval lies at or above it, `misses`
 * when it lies below, `cannot tell` when it holds the line (more rounds narrow it) or when the rounds
 * are too few for an interval of that confidence (fewer than 5 at 90%).
 */
export function lineVerdict(list, target, confidence = 0.9) {
  const interval = medianInterval(list, confidence);
  const decided = interval.coverage >= confidence;
  const verdict =
    decided && interval.low >= target ? 'meets' : decided && interval.high < target ? 'misses' : 'cannot tell';
  return { verdict, ...interval };
}

/** CPU seconds a process has used in user space and in the kernel, from /proc/<pid>/stat (USER_HZ = 100). */
function cpuTimes(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/**
 * Runs `load` (resolving with figures that count `requests`) and adds the CPU process `pid` used over
 * it, per request in microseconds: `userUs`, `systemUs` (the kernel) and `cpuUs` (both).
 */
export async function withCpu(pid, load) {
  const before = cpuTimes(pid);
  const r = await load();
  const after = cpuTimes(pid);
  const userUs = ((after.user - before.user) / r.requests) * 1e6;
  const systemUs = ((after.system - before.system) / r.requests) * 1e6;
  return { ...r, userUs, systemUs, cpuUs: userUs + systemUs };
}
