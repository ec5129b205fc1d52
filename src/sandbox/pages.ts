import type { FastifyInstance } from 'fastify';
import { hasIdForm } from '../contract/ids.js';
import { frameAncestors, type BrowserAccess } from './browser.js';
import { APRIL_CHECKOUT_SCRIPT, CHECKOUT_SCRIPT } from './checkout/component.js';
import { CARD_FIELDS_PAGE } from './checkout/fields.js';
import { registerDemoShop } from './checkout/shop.js';
import type { Store } from './store.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A checkout component's script, which any page may load (a script tag needs no CORS; the header lets a module load it too). */
export function registerScript(app: FastifyInstance, url: string, script: string): void {
  app.get(url, async (_req, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('access-control-allow-origin', '*')
      .send(script),
  );
}

/**
 * Unauthenticated sandbox pages both faces serve: the store's counts, the checkout component and its
 * card fields, the 3DS challenge page. The two pages a shop frames may be framed only by the origins
 * `browser` allows.
 */
export function registerSandboxPages(app: FastifyInstance, store: Store, browser: BrowserAccess): void {
  app.get('/sandbox/stats', async () => ({ ...store.stats }));
  const framed = `frame-ancestors ${frameAncestors(browser)}`;

  // the checkout web component (both generations' names), its card fields, and a demo shop that uses it as the deployed plugin does
  registerScript(app, '/sandbox/checkout.js', CHECKOUT_SCRIPT);
  registerScript(app, '/sandbox/april-checkout.js', APRIL_CHECKOUT_SCRIPT);
  app.get('/sandbox/card-fields', async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', framed)
      .header('referrer-policy', 'no-referrer')
      .send(CARD_FIELDS_PAGE),
  );
  registerDemoShop(app, store);

  // Stateful realism on demand, so a client's polling and decline paths can be tested deterministically:
  // an agreement's bank answers now, and the sandbox clock moves on (agreement delays, token expiry).
  app.post('/sandbox/agreements/:token/:decision', async (req, reply) => {
    const { token, decision } = req.params as { token: string; decision: string };
    const agreement = store.agreements.get(token);
    if (!agreement || (decision !== 'activate' && decision !== 'decline'))
      return reply.code(404).send({
        statusCode: 404,
        errorCode: 'not_found',
        message: 'No such agreement or decision (activate, decline)',
      });
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
    const valid =
      grant &&
      order &&
      grant.merchantId === order.merchantId &&
      (grant.expiresAt === undefined || grant.expiresAt > store.clock());
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
      return reply.code(400).send({
        statusCode: 400,
        errorCode: 'invalid_request',
        message: 'The request is invalid',
        detail: 'advanceMs: expected a whole number of milliseconds, 0 to one year',
      });
    store.clockOffsetMs += advanceMs;
    return { now: store.timestamp(), offsetMs: store.clockOffsetMs };
  });

  // The page a 3DS redirectUrl points at, as an issuer shows it: the shopper approves or declines the
  // challenge (left unanswered, the sandbox issuer approves it) or cancels back to the shop; the
  // merchant then confirms (Confirm3DSComplete). Framed by the checkout component, the page tells the
  // origin that framed it (`#parent=`) the answer.
  app.get('/sandbox/3ds/:id', async (req, reply) => {
    const id = (req.params as { id: string }).id;
    const auth = hasIdForm('threeDS', id) ? store.threeDS.get(id) : undefined;
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', framed)
      .header('referrer-policy', 'no-referrer');
    if (!auth)
      return reply
        .code(404)
        .send(
          `<!doctype html><html lang="en"><head><title>Sandbox 3DS</title></head><body><p>No 3DS challenge ${escapeHtml(id)}.</p></body></html>`,
        );
    const order = store.orders.get(auth.orderId);
    const merchant = store.merchants.get(auth.merchantId);
    const amount = order
      ? `${(order.amount.minorCurrencyUnits / 100).toFixed(2)} ${escapeHtml(order.amount.currency)}`
      : '';
    return reply.send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sandbox Bank: verify your payment</title>
<style>body{font:15px system-ui,sans-serif;margin:0;color:#222}header{background:#0b3d91;color:#fff;padding:12px 16px}
header h1{font-size:18px;margin:0}main{padding:12px 16px}dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:12px 0}
dt{color:#555}dd{margin:0;font-weight:600}button{font:inherit;padding:8px 16px;margin:8px 8px 0 0;border-radius:4px;border:1px solid #0b3d91}
#approve{background:#0b3d91;color:#fff}#decline{background:#fff;color:#0b3d91}#cancel{background:none;border:0;color:#555;text-decoration:underline}</style></head>
<body><header><h1>Sandbox Bank: verify your payment</h1></header>
<main><p>Your card issuer asks you to confirm this payment. (Sandbox: unless you decline, it is approved by the sandbox issuer.)</p>
<dl><dt>Merchant</dt><dd id="merchant">${escapeHtml(merchant?.name ?? auth.merchantId)}</dd>
<dt>Amount</dt><dd id="amount">${amount}</dd><dt>Reference</dt><dd>${escapeHtml(id)}</dd></dl>
<p><button type="button" id="approve" disabled>Approve</button><button type="button" id="decline" disabled>Decline</button><button type="button" id="cancel" disabled>Cancel and return to the shop</button></p>
<p id="outcome" role="status">${auth.status === 'pending' ? '' : `This challenge is ${escapeHtml(auth.status)}.`}</p></main>
<script>
(function () {
  var id = ${JSON.stringify(id)};
  var parent = /[#&]parent=([^&]+)/.exec(window.location.hash);
  function tell(status) {
    if (window.parent !== window) window.parent.postMessage({ limepay3DS: status, threeDSAuthorisationId: id }, parent ? decodeURIComponent(parent[1]) : '*');
  }
  function answer(decision) {
    fetch('/sandbox/3ds/' + id + '/' + decision, { method: 'POST' }).then(function (res) { return res.json(); }).then(function (body) {
      document.getElementById('outcome').textContent = 'Challenge ' + body.status + '.';
      tell(body.status);
    });
  }
  document.getElementById('approve').addEventListener('click', function () { answer('approve'); });
  document.getElementById('decline').addEventListener('click', function () { answer('decline'); });
  document.getElementById('cancel').addEventListener('click', function () { tell('cancelled'); });
  // the buttons work from here on: enabled only now, so a click can never fall before its handler
  ['approve', 'decline', 'cancel'].forEach(function (id) { document.getElementById(id).disabled = false; });
})();
</script></body></html>`);
  });

  app.post('/sandbox/3ds/:id/:decision', async (req, reply) => {
    const { id, decision } = req.params as { id: string; decision: string };
    const auth = hasIdForm('threeDS', id) ? store.threeDS.get(id) : undefined;
    if (!auth || (decision !== 'approve' && decision !== 'decline'))
      return reply.code(404).send({ status: 'not found' });
    if (auth.status === 'pending' || auth.status === 'approved' || auth.status === 'declined')
      auth.status = decision === 'approve' ? 'approved' : 'declined';
    return { threeDSAuthorisationId: id, status: auth.status };
  });
}
