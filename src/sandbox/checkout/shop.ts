/**
 * A demo shop, served by the sandbox at `/sandbox/shop`: its page uses the checkout component exactly
 * as the deployed WooCommerce plugin's page script does, and its backend completes each order server
 * side with legacy calls (L28/L29 customer and sign-in, L19 saved card, L1 create, L4 pay and 3DS,
 * L7 refund) to the address the page was opened at: through the gateway, the whole legacy flow runs
 * on the current API.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Merchant } from '../model.js';
import type { Store } from '../store.js';

const AMOUNT = 2_500;
const CURRENCY = 'AUD';

/** The demo shop's merchant: the first stand-alone one of the fixtures. */
function shopMerchant(store: Store): Merchant {
  const merchants = [...store.merchants.values()];
  return merchants.find((m) => m.marketplaceId === null) ?? merchants[0]!;
}

/** What the shop reads of a legacy answer (a tolerant reader: any of these may be missing). */
interface LegacyBody {
  message?: string;
  detail?: string;
  transactionId?: string;
  transactionStatus?: string;
  paymentActionRequired?: unknown;
  paymentTokenId?: string;
  merchantOrderId?: string;
  refundId?: string;
  customerId?: string;
  customToken?: string;
}

interface Legacy {
  status: number;
  body: LegacyBody | undefined;
}

/** One legacy call to where the shop was opened (the gateway, or the sandbox's legacy face). */
async function legacyCall(req: FastifyRequest, merchant: Merchant, path: string, body: unknown): Promise<Legacy> {
  const res = await fetch(`${req.protocol}://${req.host}${path}`, {
    method: 'POST',
    headers: { 'Limepay-SecretKey': merchant.secretKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: LegacyBody | undefined;
  try {
    parsed = text ? (JSON.parse(text) as LegacyBody) : undefined;
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed };
}

const failed = (step: string, answer: Legacy) => ({
  result: 'error',
  step,
  status: answer.status,
  message: `${answer.body?.message ?? 'The payment service refused the request'}${answer.body?.detail ? `: ${answer.body.detail}` : ''}`,
});

async function pay(req: FastifyRequest, merchant: Merchant, merchantOrderId: string, payment: Record<string, unknown>) {
  const paid = await legacyCall(req, merchant, `/orders/${merchantOrderId}/pay`, payment);
  if (paid.status === 200)
    return {
      result: 'paid',
      merchantOrderId,
      transactionId: paid.body?.transactionId,
      transactionStatus: paid.body?.transactionStatus,
    };
  if (paid.status === 403 && paid.body?.paymentActionRequired)
    return {
      result: 'payment_action_required',
      merchantOrderId,
      paymentToken: payment.paymentToken,
      paymentActionRequired: paid.body.paymentActionRequired,
    };
  return failed('pay', paid);
}

export function registerDemoShop(app: FastifyInstance, store: Store): void {
  app.get('/sandbox/shop', async (_req, reply) => {
    const merchant = shopMerchant(store);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(shopPage(merchant.publicKey));
  });

  // the shop's backend, as a plugin's server side: legacy calls with the merchant's secret key
  app.post('/sandbox/shop/api/orders', async (req) => {
    const merchant = shopMerchant(store);
    const input = (req.body ?? {}) as { paymentToken?: string; cardPaymentSourceId?: string };
    let paymentToken = input.paymentToken;
    if (input.cardPaymentSourceId) {
      const token = await legacyCall(req, merchant, '/payments/saved-card', {
        cardPaymentSourceId: input.cardPaymentSourceId,
        paymentAmount: { amount: AMOUNT, currency: CURRENCY },
      });
      if (token.status !== 201) return failed('saved card', token);
      paymentToken = token.body?.paymentTokenId;
    }
    const order = await legacyCall(req, merchant, '/orders', {
      internalOrderId: `demo-${Date.now()}`,
      paymentAmount: { amount: AMOUNT, currency: CURRENCY },
      description: 'Demo shop order',
      items: [
        { description: 'Paybridge mug', quantity: 1, amount: AMOUNT, currency: CURRENCY, sku: 'MUG-1', imageUrl: '' },
      ],
      billing: { name: 'Demo Shopper', email: 'shopper@example.com', phone: '' },
      shipping: { amount: 0, address: { line1: '', city: '', country: '' }, name: ' ' },
    });
    if (order.status !== 200) return failed('create order', order);
    // 3DS when the card asks for it (4000 0000 0000 3220), as a shop with request3DS off by amount
    return pay(req, merchant, order.body?.merchantOrderId ?? '', { paymentToken, request3DS: false });
  });

  app.post('/sandbox/shop/api/orders/:merchantOrderId/complete', async (req) => {
    const { paymentToken, paymentActionRequired } = (req.body ?? {}) as {
      paymentToken?: string;
      paymentActionRequired?: unknown;
    };
    return pay(req, shopMerchant(store), (req.params as { merchantOrderId: string }).merchantOrderId, {
      paymentToken,
      request3DS: true,
      paymentActionRequired,
    });
  });

  app.post('/sandbox/shop/api/refunds', async (req) => {
    const { transactionId } = (req.body ?? {}) as { transactionId?: string };
    const refund = await legacyCall(req, shopMerchant(store), '/refunds', {
      transactionId,
      refundAmount: { amount: AMOUNT, currency: CURRENCY },
    });
    return refund.status === 200 ? { result: 'refunded', refundId: refund.body?.refundId } : failed('refund', refund);
  });

  app.post('/sandbox/shop/api/customer', async (req) => {
    const merchant = shopMerchant(store);
    const customer = await legacyCall(req, merchant, '/customers/plugin', {
      emailAddress: 'shopper@example.com',
      givenName: 'Demo',
      familyName: 'Shopper',
    });
    if (customer.status !== 200) return failed('customer', customer);
    const signin = await legacyCall(req, merchant, '/authn/tenants/accounts:signinCustomerWithCustomerId', {
      customerId: customer.body?.customerId,
    });
    if (signin.status !== 200) return failed('sign in', signin);
    return { result: 'signed_in', customerId: customer.body?.customerId, customToken: signin.body?.customToken };
  });
}

function shopPage(publicKey: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Demo shop (paybridge sandbox)</title>
<style>body{font:15px system-ui,sans-serif;margin:24px;max-width:560px;color:#222}button{font:inherit;padding:8px 14px;margin:8px 8px 0 0}
#status{margin-top:12px;min-height:1.4em}#status.error{color:#b3261e}#status.ok{color:#1f6f43}section{margin-top:20px}</style>
<script src="/sandbox/checkout.js"></script></head>
<body><h1>Demo shop</h1><p>One Paybridge mug, 25.00 AUD. Pay with a sandbox test card.</p>
<div id="limepay-checkout"></div>
<button type="button" id="place-order">Place order</button>
<p id="status" role="status" aria-live="polite"></p>
<section><h2>Saved card</h2>
<button type="button" id="sign-in">Save a card for next time</button>
<div id="limepay-source"></div>
<button type="button" id="save-card" hidden>Save card</button>
<button type="button" id="pay-saved" hidden>Pay with the saved card</button></section>
<script>
(function () {
  'use strict';
  var publicKey = ${JSON.stringify(publicKey)};
  var checkout = LimepayCheckout.createCheckout();
  var paymentSource = LimepayCheckout.createPaymentSource();
  var state = { transactionId: null, cardPaymentSourceId: null };
  var status = document.getElementById('status');
  function show(message, kind) { status.textContent = message; status.className = kind || ''; }
  function api(path, body) {
    return fetch('/sandbox/shop/api/' + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) })
      .then(function (res) { return res.json(); });
  }
  function refundButton() {
    var b = document.createElement('button');
    b.type = 'button'; b.id = 'refund'; b.textContent = 'Refund';
    b.addEventListener('click', function () {
      api('refunds', { transactionId: state.transactionId }).then(function (res) {
        show(res.result === 'refunded' ? 'Refunded: ' + res.refundId : res.message, res.result === 'refunded' ? 'ok' : 'error');
      });
    });
    status.after(b);
  }
  function handleResult(res) {
    if (res.result === 'paid') {
      state.transactionId = res.transactionId;
      show('Order paid: ' + res.merchantOrderId + ', transaction ' + res.transactionId, 'ok');
      if (!document.getElementById('refund')) refundButton();
    } else if (res.result === 'payment_action_required') {
      show('Your card issuer asks you to confirm the payment.');
      checkout.handlePaymentActionRequired(res.paymentActionRequired, function () {
        api('orders/' + res.merchantOrderId + '/complete', { paymentToken: res.paymentToken, paymentActionRequired: res.paymentActionRequired }).then(handleResult);
      }, function (message) { show('Payment failed: ' + message, 'error'); });
    } else {
      show('Payment failed: ' + res.message, 'error');
    }
  }
  // as the plugin's page script: a token from the component, then the shop's server side pays
  checkout.init({
    publicKey: publicKey, email: 'shopper@example.com', customerFirstName: 'Demo', customerLastName: 'Shopper',
    hidePayLaterOption: true, hideFullPayOption: false, paymentToken: function (token) { show('Paying...'); api('orders', { paymentToken: token }).then(handleResult); },
    preventWalletSubmit: true, platform: 'paybridge-demo', platformVersion: '1', platformPluginVersion: '1'
  });
  checkout.errorHandler(function (error) { show(error.message, 'error'); });
  checkout.eventHandler(function (event) { document.body.setAttribute('data-last-event', event.eventName); });
  checkout.render({ elementId: 'limepay-checkout', currency: 'AUD', amount: 2500, paymentType: 'paycard', showPayNow: false, showPayPlanSubmit: false });
  document.getElementById('place-order').addEventListener('click', function () { checkout.submit(); });

  document.getElementById('sign-in').addEventListener('click', function () {
    api('customer').then(function (res) {
      if (res.result !== 'signed_in') return show(res.message, 'error');
      paymentSource.init({ publicKey: publicKey, customerToken: res.customToken });
      paymentSource.render({ elementId: 'limepay-source', showSubmit: false, hideSavedCards: false });
      document.getElementById('save-card').hidden = false;
    });
  });
  document.getElementById('save-card').addEventListener('click', function () {
    paymentSource.submit(function (source) {
      state.cardPaymentSourceId = source.cardPaymentSource.cardPaymentSourceId;
      show('Card saved: ' + state.cardPaymentSourceId, 'ok');
      document.getElementById('pay-saved').hidden = false;
    });
  });
  document.getElementById('pay-saved').addEventListener('click', function () {
    show('Paying with the saved card...');
    api('orders', { cardPaymentSourceId: state.cardPaymentSourceId }).then(handleResult);
  });
})();
</script></body></html>`;
}
