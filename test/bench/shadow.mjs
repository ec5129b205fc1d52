// Shadow mode against legacy passthrough, in one run: the primary's req/s and p99 for L6 GET
// transaction with the gateway in `legacy` mode, and in `shadow` mode at sample rates 1.0 and 0.1.
// Target at 0.1: at least 0.85 of passthrough req/s and p99 at most 2 ms above it (50 connections).
import { CONNECTIONS, cpuSeconds, DURATION, json, measure, printRows, spawnBin, spawnSandbox } from './lib.mjs';

const metric = (text, name) => [...text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? (\\d+(\\.\\d+)?)$`, 'gm'))].reduce((s, m) => s + Number(m[2]), 0);

const sandbox = await spawnSandbox();
const sk = sandbox.secretKey;
const bearer = { authorization: `Bearer ${sk}` };
const upstreams = ['--current-url', sandbox.currentUrl, '--legacy-url', sandbox.legacyUrl, '--log-level', 'warn'];
const gateways = [
  ['legacy passthrough', ['--mode', '*=legacy']],
  ['shadow, sample 1.0', ['--mode', '*=shadow', '--shadow-sample', '1']],
  ['shadow, sample 0.1', ['--mode', '*=shadow', '--shadow-sample', '0.1']],
];
const started = [];
try {
  const order = await json(`${sandbox.currentUrl}/orders`, { method: 'POST', headers: bearer, body: { CreateOnlineOrder: { referenceOrderId: 'b', amount: { minorCurrencyUnits: 10_000, currency: 'AUD' }, metadata: { a: 1 } } } });
  const token = await json(`${sandbox.currentUrl}/sandbox/card-tokens`, { method: 'POST', headers: bearer, body: { cardNumber: '4242424242424242' } });
  const paid = await json(`${sandbox.currentUrl}/orders/${order.OnlineOrder.order.orderId}/pay`, { method: 'POST', headers: bearer, body: { PayByCard: { paymentTokenId: token.paymentTokenId } } });
  const path = `/transactions/${paid.transactionId}`;
  const headers = { 'limepay-secretkey': sk };
  for (const [label, args] of gateways) {
    const g = await spawnBin(['serve', '--port', '0', ...upstreams, ...args], /listening on (http:\/\/\S+)/);
    started.push({ label, url: g.match[1], pid: g.pid, stop: g.stop });
  }
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
  for (const g of started) await measure('warm-up', { url: g.url + path, headers, duration: 3 });
  // alternate the configurations so drift on a shared machine hits all of them alike
  const runs = new Map(started.map((g) => [g, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const g of started) {
      const gatewayCpu = cpuSeconds(g.pid);
      const sandboxCpu = cpuSeconds(sandbox.pid);
      const row = await measure(g.label, { url: g.url + path, headers });
      row.gatewayCpuUs = ((cpuSeconds(g.pid) - gatewayCpu) / row.requests) * 1e6;
      row.sandboxCpuUs = ((cpuSeconds(sandbox.pid) - sandboxCpu) / row.requests) * 1e6;
      runs.get(g).push(row);
    }
  }
  const mean = (list, key) => list.reduce((s, r) => s + r[key], 0) / list.length;
  const rows = [];
  for (const g of started) {
    const list = runs.get(g);
    const m = await (await fetch(`${g.url}/metrics`)).text();
    rows.push({
      label: g.label,
      rps: Math.round(mean(list, 'rps')),
      p50: mean(list, 'p50'),
      p99: mean(list, 'p99'),
      requests: list.reduce((s, r) => s + r.requests, 0),
      gatewayCpuUs: mean(list, 'gatewayCpuUs'),
      sandboxCpuUs: mean(list, 'sandboxCpuUs'),
      compared: metric(m, 'paybridge_shadow_comparisons_total'),
      dropped: metric(m, 'paybridge_shadow_dropped_total'),
    });
  }
  printRows(`shadow benchmark, L6 GET transaction, ${CONNECTIONS} connections, ${DURATION}s per run, mean of ${ROUNDS} alternating rounds`, rows);
  const base = rows[0];
  console.log('\n  vs legacy passthrough            req/s ratio   p99 +ms   compared   dropped   gateway CPU us/req   sandbox CPU us/req');
  let ok = true;
  for (const r of rows) {
    const ratio = r.rps / base.rps;
    const p99 = r.p99 - base.p99;
    console.log(`  ${r.label.padEnd(32)} ${ratio.toFixed(2).padStart(11)} ${p99.toFixed(1).padStart(9)} ${String(r.compared).padStart(10)} ${String(r.dropped).padStart(9)} ${r.gatewayCpuUs.toFixed(0).padStart(20)} ${r.sandboxCpuUs.toFixed(0).padStart(20)}`);
    if (r.label.endsWith('0.1')) ok = ratio >= 0.85 && p99 <= 2;
  }
  console.log(`  target at 0.1: >= 0.85 req/s and p99 <= +2 ms: ${ok ? 'met' : 'MISSED'}`);
  console.log('  at 1.0 each request also costs a buffered primary forward, a translated candidate call (a second upstream request) and a comparison; see the CPU columns.');
  if (!ok) process.exitCode = 1;
} finally {
  for (const g of started) await g.stop();
  await sandbox.stop();
}
