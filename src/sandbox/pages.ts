import type { FastifyInstance } from 'fastify';
import { hasIdForm } from '../contract/ids.js';
import { CHECKOUT_SCRIPT } from './checkout/component.js';
import { registerDemoShop } from './checkout/shop.js';
import type { Store } from './store.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Unauthenticated sandbox pages both faces serve: the store's counts and the 3DS challenge page. */
export function registerSandboxPages(app: FastifyInstance, store: Store): void {
  app.get('/sandbox/stats', async () => ({ ...store.stats }));

  // the checkout web component, and a demo shop that uses it as the deployed plugin does
  app.get('/sandbox/checkout.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(CHECKOUT_SCRIPT),
  );
  registerDemoShop(app, store);

  // Stateful realism on demand, so a client's polling and decline paths can be tested deterministically:
  // an agreement's bank answers now, and the sandbox clock moves on (agreement delays, token expiry).
  app.post('/sandbox/agreements/:token/:decision', async (req, reply) => {
    const { token, decision } = req.params as { token: string; decision: string };
    const agreement = store.agreements.get(token);
    if (!agreement || (decision !== 'activate' && decision !== 'decline'))
      return reply.code(404).send({ statusCode: 404, errorCode: 'not_found', message: 'No such agreement or decision (activate, decline)' });
    agreement.bankAccepts = decision === 'activate';
    agreement.activateAt = store.clock();
    return { token, status: decision === 'activate' ? 'Active' : 'Declined' };
  });
  // The page a pay-by-link magic link opens: the order, shown to whoever holds its checkout token.
  app.get('/sandbox/checkout/:orderId', async (req, reply) => {
    const orderId = (req.params as { orderId: string }).orderId;
    const token = (req.query as { token?: unknown }).token;
    const grant = typeof token === 'string' ? store.checkoutTokens.get(token) : undefined;
    const order = hasIdForm('order', orderId) ? store.orders.get(orderId) : undefined;
    const valid = grant && order && grant.merchantId === order.merchantId && (grant.expiresAt === undefined || grant.expiresAt > store.clock());
    const text = valid
      ? `Order ${escapeHtml(order.orderId)} (${escapeHtml(order.referenceOrderId)}): ${(order.amount.minorCurrencyUnits / 100).toFixed(2)} ${escapeHtml(order.amount.currency)}, ${escapeHtml(order.status)}.`
      : 'This payment link is not valid or has expired.';
    return reply
      .code(valid ? 200 : 404)
      .type('text/html; charset=utf-8')
      .header('referrer-policy', 'no-referrer')
      .send(`<!doctype html><html><head><title>Sandbox checkout</title></head><body><p>${text}</p></body></html>`);
  });

  app.get('/sandbox/time', async () => ({ now: store.timestamp(), offsetMs: store.clockOffsetMs }));
  app.post('/sandbox/time', async (req, reply) => {
    const advanceMs = (req.body as { advanceMs?: unknown } | undefined)?.advanceMs;
    if (typeof advanceMs !== 'number' || !Number.isInteger(advanceMs) || advanceMs < 0 || advanceMs > 366 * 86_400_000)
      return reply.code(400).send({ statusCode: 400, errorCode: 'invalid_request', message: 'The request is invalid', detail: 'advanceMs: expected a whole number of milliseconds, 0 to one year' });
    store.clockOffsetMs += advanceMs;
    return { now: store.timestamp(), offsetMs: store.clockOffsetMs };
  });

  // The page a 3DS redirectUrl points at: the shopper approves or declines the challenge (left
  // unanswered, the sandbox issuer approves it); the merchant then confirms (Confirm3DSComplete). Shown
  // in a frame by the checkout component, the page tells its parent the answer.
  app.get('/sandbox/3ds/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const auth = hasIdForm('threeDS', id) ? store.threeDS.get(id) : undefined;
    if (!auth)
      return reply.code(404).type('text/html; charset=utf-8').send(`<!doctype html><html lang="en"><head><title>Sandbox 3DS</title></head><body><p>No 3DS challenge ${escapeHtml(id)}.</p></body></html>`);
    const order = store.orders.get(auth.orderId);
    const amount = order ? `${(order.amount.minorCurrencyUnits / 100).toFixed(2)} ${escapeHtml(order.amount.currency)}` : '';
    return reply.type('text/html; charset=utf-8').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox 3DS</title>
<style>body{font:15px system-ui,sans-serif;margin:16px;color:#222}button{font:inherit;padding:8px 16px;margin-right:8px}</style></head>
<body><h1>Sandbox card issuer</h1>
<p>3DS challenge ${escapeHtml(id)} for order ${escapeHtml(auth.orderId)}${amount ? ` (${amount})` : ''}: ${escapeHtml(auth.status)}. Unless you decline, it is approved by the sandbox issuer.</p>
<p><button type="button" id="approve">Approve</button><button type="button" id="decline">Decline</button></p>
<p id="outcome" role="status"></p>
<script>
(function () {
  var id = ${JSON.stringify(id)};
  function answer(decision) {
    fetch('/sandbox/3ds/' + id + '/' + decision, { method: 'POST' }).then(function (res) { return res.json(); }).then(function (body) {
      document.getElementById('outcome').textContent = 'Challenge ' + body.status + '.';
      if (window.parent !== window) window.parent.postMessage({ limepay3DS: body.status, threeDSAuthorisationId: id }, '*');
    });
  }
  document.getElementById('approve').addEventListener('click', function () { answer('approve'); });
  document.getElementById('decline').addEventListener('click', function () { answer('decline'); });
})();
</script></body></html>`);
  });

  app.post('/sandbox/3ds/:id/:decision', async (req, reply) => {
    const { id, decision } = req.params as { id: string; decision: string };
    const auth = hasIdForm('threeDS', id) ? store.threeDS.get(id) : undefined;
    if (!auth || (decision !== 'approve' && decision !== 'decline')) return reply.code(404).send({ status: 'not found' });
    if (auth.status === 'pending' || auth.status === 'approved' || auth.status === 'declined') auth.status = decision === 'approve' ? 'approved' : 'declined';
    return { threeDSAuthorisationId: id, status: auth.status };
  });
}
