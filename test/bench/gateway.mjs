// The gateway against a plain passthrough proxy, in one run, upstream included:
//   (a) the sandbox directly, (b) @fastify/http-proxy in front of it, (c) the gateway translating
//   L6 GET transaction and L1 create order. Prints req/s, p50, p99, the ratios c/b, and the gateway's
//   added CPU per request next to JSON.parse + JSON.stringify of that request's bodies.
// Targets (2 cores, 50 connections): c/b >= 0.75 req/s, p99(c) <= p99(b) + 2 ms, added CPU <= 2x the JSON floor.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CONNECTIONS, cpuSeconds, DURATION, json, measure, printRows, spawnBin, spawnSandbox } from './lib.mjs';


function spawnProxy(upstream) {
  const file = fileURLToPath(new URL('./servers/passthrough-proxy.mjs', import.meta.url));
  const child = spawn(process.execPath, [file, upstream], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/passthrough listening (\S+)/);
      if (m) resolve({ url: m[1], pid: child.pid, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) });
    });
    child.once('exit', (code) => reject(new Error(`proxy exited ${code}`)));
  });
}

/** Runs autocannon and measures the CPU the server process spent per request meanwhile. */
async function measureWithCpu(label, pid, options) {
  const before = cpuSeconds(pid);
  const row = await measure(label, options);
  row.cpuUsPerRequest = ((cpuSeconds(pid) - before) / row.requests) * 1e6;
  return row;
}

/** Microseconds of JSON.parse + JSON.stringify for the bodies one translated request handles. */
function jsonFloorUs(toParse, toStringify) {
  const texts = toParse.map((b) => JSON.stringify(b));
  const run = (n) => {
    for (let i = 0; i < n; i++) {
      for (const t of texts) JSON.parse(t);
      for (const b of toStringify) JSON.stringify(b);
    }
  };
  run(20_000);
  const n = 200_000;
  const start = process.hrtime.bigint();
  run(n);
  return Number(process.hrtime.bigint() - start) / 1e3 / n;
}

const sandbox = await spawnSandbox();
const sk = sandbox.credentials.merchants.find((m) => m.merchantId === 'mcht_solo').secretKey;
const bearer = { authorization: `Bearer ${sk}` };
const proxy = await spawnProxy(sandbox.currentUrl);
const gateway = await spawnBin(
  ['serve', '--port', '0', '--current-url', sandbox.currentUrl, '--legacy-url', sandbox.legacyUrl, '--log-level', process.env.BENCH_LOG_LEVEL ?? 'info'],
  /listening on (http:\/\/\S+)/,
);
const gatewayUrl = gateway.match[1];
const legacyHeaders = { 'limepay-secretkey': sk };

const ORDER_CURRENT = {
  CreateOnlineOrder: {
    referenceOrderId: 'bench-1', amount: { minorCurrencyUnits: 10_000, currency: 'AUD' }, description: 'bench order',
    customerEmailAddress: 'bench@example.com', customerPhoneNumber: '+61400000001',
    items: [{ description: 'Book', quantity: 2, amount: { minorCurrencyUnits: 5000, currency: 'AUD' }, sku: 'BK-1' }],
    billing: { name: 'Jo', emailAddress: 'jo@example.com', phoneNumber: '+61400000002' },
    metadata: { cart: { id: 42 } },
  },
};
const ORDER_LEGACY = {
  internalOrderId: 'bench-1', paymentAmount: { amount: 10_000, currency: 'AUD' }, description: 'bench order',
  customerEmail: 'bench@example.com', phoneNo: '+61400000001',
  items: [{ description: 'Book', quantity: 2, amount: 5000, currency: 'AUD', sku: 'BK-1' }],
  billing: { name: 'Jo', email: 'jo@example.com', phone: '+61400000002' },
  metadata: { cart: { id: 42 } },
};

try {
  // one paid, partly refunded transaction to read
  const order = await json(`${sandbox.currentUrl}/orders`, { method: 'POST', headers: bearer, body: ORDER_CURRENT });
  const token = await json(`${sandbox.currentUrl}/sandbox/card-tokens`, { method: 'POST', headers: bearer, body: { cardNumber: '4242424242424242' } });
  const orderId = order.OnlineOrder.order.orderId;
  const paid = await json(`${sandbox.currentUrl}/orders/${orderId}/pay`, { method: 'POST', headers: bearer, body: { PayByCard: { paymentTokenId: token.paymentTokenId } } });
  const tx = paid.transactionId;
  await json(`${sandbox.currentUrl}/transactions/${tx}`, { method: 'PATCH', headers: bearer, body: { CreateRefund: { refundAmount: 1000 } } });

  const post = (body) => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const runs = [
    ['L6 GET transaction', { path: `/transactions/${tx}`, headers: bearer }, { path: `/transactions/${tx}`, headers: legacyHeaders }],
    ['L1 create order', { path: '/orders', ...post(ORDER_CURRENT), headers: { ...bearer, 'content-type': 'application/json' } }, { path: '/orders', ...post(ORDER_LEGACY), headers: { ...legacyHeaders, 'content-type': 'application/json' } }],
  ];
  const rows = [];
  const summary = [];
  const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
  const average = (list, label) => ({
    label,
    rps: Math.round(list.reduce((s, r) => s + r.rps, 0) / list.length),
    p50: list.reduce((s, r) => s + r.p50, 0) / list.length,
    p99: list.reduce((s, r) => s + r.p99, 0) / list.length,
    requests: list.reduce((s, r) => s + r.requests, 0),
    cpuUsPerRequest: list.reduce((s, r) => s + (r.cpuUsPerRequest ?? 0), 0) / list.length,
  });
  for (const [name, currentCall, legacyCall] of runs) {
    const a = await measure(`(a) sandbox        ${name}`, { url: sandbox.currentUrl + currentCall.path, ...currentCall });
    // warm both up (JIT, connection pools), then alternate b and c so drift hits both alike
    await measure('warm-up b', { url: proxy.url + currentCall.path, ...currentCall, duration: 3 });
    await measure('warm-up c', { url: gatewayUrl + legacyCall.path, ...legacyCall, duration: 3 });
    const bs = [];
    const cs = [];
    for (let i = 0; i < ROUNDS; i++) {
      bs.push(await measureWithCpu('b', proxy.pid, { url: proxy.url + currentCall.path, ...currentCall }));
      cs.push(await measureWithCpu('c', gateway.pid, { url: gatewayUrl + legacyCall.path, ...legacyCall }));
    }
    const b = average(bs, `(b) passthrough    ${name}`);
    const c = average(cs, `(c) gateway        ${name}`);
    rows.push(a, b, c);
    summary.push({ name, a, b, c });
  }
  printRows(`gateway benchmark, ${CONNECTIONS} connections, ${DURATION}s per run (b and c: mean of ${ROUNDS} alternating runs after warm-up), upstream included`, rows);

  // the floor no translating proxy can go below: parse and serialise each body once per direction
  const currentTx = await json(`${sandbox.currentUrl}/transactions/${tx}`, { headers: bearer });
  const legacyTx = await json(`${gatewayUrl}/transactions/${tx}`, { headers: legacyHeaders });
  const currentOrder = await json(`${sandbox.currentUrl}/orders/${orderId}`, { headers: bearer });
  const legacyOrder = await json(`${gatewayUrl}/orders/${orderId}`, { headers: legacyHeaders });
  const floors = {
    'L6 GET transaction': jsonFloorUs([currentTx], [legacyTx]),
    'L1 create order': jsonFloorUs([ORDER_LEGACY, currentOrder], [ORDER_CURRENT, legacyOrder]),
  };

  console.log('\n  ratios and cost per request                 c/b req/s   p99 c-b ms   added CPU us   JSON floor us   added/floor');
  let ok = true;
  for (const { name, b, c } of summary) {
    const ratio = c.rps / b.rps;
    const p99 = c.p99 - b.p99;
    const added = c.cpuUsPerRequest - b.cpuUsPerRequest;
    const floor = floors[name];
    const meets = ratio >= 0.75 && p99 <= 2 && added <= 2 * floor;
    ok &&= meets;
    console.log(`  ${name.padEnd(42)} ${ratio.toFixed(2).padStart(10)} ${p99.toFixed(1).padStart(12)} ${added.toFixed(1).padStart(14)} ${floor.toFixed(1).padStart(15)} ${(added / floor).toFixed(2).padStart(13)}  ${meets ? 'meets targets' : 'MISSES a target'}`);
    console.log(`    CPU per request: passthrough ${b.cpuUsPerRequest.toFixed(1)} us, gateway ${c.cpuUsPerRequest.toFixed(1)} us`);
  }
  console.log('  targets: c/b >= 0.75, p99 c-b <= 2 ms, added CPU <= 2x the JSON floor');
  if (!ok) process.exitCode = 1;
} finally {
  await gateway.stop();
  await proxy.stop();
  await sandbox.stop();
}
