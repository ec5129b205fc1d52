// Sandbox throughput: requests per second of a GET (transaction) and of a pay, so later benchmarks can
// show the sandbox is not their bottleneck. Run: npm run bench -- sandbox
import { json, measure, ORDER_BODY, pool, printRows, spawnSandbox, DURATION, CONNECTIONS } from './lib.mjs';

const sandbox = await spawnSandbox();
const sk = sandbox.secretKey;
const auth = { authorization: `Bearer ${sk}` };
const base = sandbox.currentUrl;

async function orderAndToken() {
  const order = await json(`${base}/orders`, { method: 'POST', headers: auth, body: ORDER_BODY });
  const token = await json(`${base}/sandbox/card-tokens`, { method: 'POST', headers: auth, body: { cardNumber: '4242424242424242' } });
  return { orderId: order.OnlineOrder.order.orderId, paymentTokenId: token.paymentTokenId };
}

try {
  const first = await orderAndToken();
  const paid = await json(`${base}/orders/${first.orderId}/pay`, { method: 'POST', headers: auth, body: { PayByCard: { paymentTokenId: first.paymentTokenId } } });
  const rows = [];
  rows.push(await measure('GET /transactions/{id}', { url: `${base}/transactions/${paid.transactionId}`, headers: auth }));

  // Each pay needs its own unpaid order and token: prepare them first, then measure the pays alone.
  const count = Number(process.env.BENCH_PAYS ?? 20_000);
  const pairs = await pool(count, 50, orderAndToken);
  let i = 0;
  rows.push(
    await measure('POST /orders/{id}/pay (PayByCard)', {
      url: base,
      amount: count,
      requests: [{
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        setupRequest: (req) => {
          const pair = pairs[i++ % count];
          return { ...req, path: `/orders/${pair.orderId}/pay`, body: JSON.stringify({ PayByCard: { paymentTokenId: pair.paymentTokenId } }) };
        },
      }],
    }),
  );
  rows.push(await measure('POST /orders (CreateOnlineOrder)', {
    url: `${base}/orders`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(ORDER_BODY),
  }));
  printRows(`sandbox, ${CONNECTIONS} connections, ${DURATION}s per GET run`, rows);
  const stats = await json(`${base}/sandbox/stats`);
  console.log(`  sandbox counted ${stats.transactionsCreated} transactions for ${count + 1} prepared pays`);
  if (stats.transactionsCreated !== count + 1) throw new Error('every prepared pay must have paid exactly once');
} finally {
  await sandbox.stop();
}
