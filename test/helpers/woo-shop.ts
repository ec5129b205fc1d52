/**
 * A WooCommerce-like shop on its own origin, written for the browser tests from reading the deployed
 * WooCommerce plugin's public source (public/js/limepay.js, includes/woocommerce-limepay.php), not
 * copied from it. Its checkout page loads the checkout component from the gateway, as a shop loads
 * it from the payment service, and runs a page script that calls the component as the plugin's does:
 * `wp_localize_script` parameters (every scalar a string), `createCheckout().init/render/submit`, the
 * handlers written with `this` as the plugin writes them, the token put in a hidden input of the
 * checkout form, the form posted as WooCommerce posts it (urlencoded, `?wc-ajax=checkout`), 3DS by a
 * `#lpaction::<action>::<url>::limepay` redirect, and subscriptions' `createPaymentSource`. Its
 * server side is the plugin's: L28/L29 for a logged-in customer, L1 then L4 (L19 first for a saved
 * card), and the 3DS action URL confirming with `paymentActionRequired`.
 *
 * Every request the shop's server receives is kept, so a test can show no card data reached it.
 */
import { orderData } from '../clients/woocommerce.js';
import { phpJson } from '../clients/serializers.js';
import { KEYS } from './sandbox.js';
import { CHECKOUT_HEAD, ShopServer, type ShopAnswer } from './shop-server.js';

export interface PageOptions {
  /** The plugin's "Available payment options" setting: '0' both, 'paycard' full only, 'payplan' split only. */
  option?: '0' | 'paycard' | 'payplan';
  /** `payplan` when the shopper chose pay later on a product page (the plugin's cookie). */
  paymentType?: 'paycard' | 'payplan';
  /** A logged-in shopper: the page carries a custom token (L28 + L29). */
  loggedIn?: boolean;
  /** A subscription in the cart: the card is saved (createPaymentSource) and paid through L19. */
  sourceOnly?: boolean;
}

const AMOUNT = 2_500;
const EMAIL = 'jo@example.com';

interface ShopOrder {
  id: number;
  merchantOrderId: string;
  paymentToken: string;
  payAction: unknown;
}

export class WooShop extends ShopServer {
  /** Every legacy call the shop's server made, with the gateway's answer. */
  readonly calls: { path: string; status: number; body: any }[] = [];
  private orders = new Map<number, ShopOrder>();
  private nextOrder = 100;

  constructor(private gatewayUrl: () => string) {
    super();
  }

  /** Limepay_API::request: JSON with the secret key, to the gateway. */
  private async legacy(path: string, data: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.gatewayUrl()}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Limepay-SecretKey': KEYS.soloSk },
      body: phpJson(data),
    });
    const text = await res.text();
    const answer = { status: res.status, body: text ? JSON.parse(text) : null };
    this.calls.push({ path, ...answer });
    return answer;
  }

  private async customToken(): Promise<string> {
    const customer = await this.legacy('customers/plugin', {
      emailAddress: EMAIL,
      givenName: 'Jo',
      familyName: 'Bloggs',
    });
    const signin = await this.legacy('authn/tenants/accounts:signinCustomerWithCustomerId', {
      customerId: customer.body.customerId,
    });
    return signin.body.customToken as string;
  }

  protected async handle(method: string, url: URL, body: string): Promise<ShopAnswer> {
    const json = (value: unknown): ShopAnswer => [200, 'application/json; charset=UTF-8', JSON.stringify(value)];
    const ajax = url.searchParams.get('wc-ajax');
    if (method === 'GET' && url.pathname === '/checkout')
      return [200, 'text/html; charset=UTF-8', await this.page(url.searchParams)];
    if (method === 'GET' && url.pathname === '/shop.js') return [200, 'application/javascript', PAGE_SCRIPT];
    if (method === 'GET' && url.pathname.startsWith('/order-received/')) {
      const order = this.orders.get(Number(url.pathname.split('/').pop()));
      return [
        200,
        'text/html; charset=UTF-8',
        `<!doctype html><title>Order received</title><h1>Order received</h1><p id="order">${order?.merchantOrderId ?? ''}</p>`,
      ];
    }
    if (method === 'POST' && ajax === 'checkout') return json(await this.processPayment(new URLSearchParams(body)));
    if (method === 'GET' && ajax === 'wc_lp_payment_action')
      return json(await this.paymentAction(Number(url.searchParams.get('order'))));
    return [404, 'text/plain', 'not found'];
  }

  /** process_payment(): the order created, then paid with the token (or a token from the saved card). */
  private async processPayment(form: URLSearchParams) {
    const id = this.nextOrder++;
    let paymentToken = form.get('limepay_payment_token') ?? '';
    const source = form.get('limepay_payment_source');
    if (source) {
      const token = await this.legacy('payments/saved-card', {
        paymentAmount: { amount: AMOUNT, currency: 'AUD' },
        cardPaymentSourceId: source,
      });
      if (token.status !== 201) return failure(token.body?.message);
      paymentToken = token.body.paymentTokenId;
    }
    const order = await this.legacy('orders', orderData(id, AMOUNT, true));
    if (order.status !== 200) return failure('An unknown error occurred while creating the order with Limepay');
    const entry: ShopOrder = { id, merchantOrderId: order.body.merchantOrderId, paymentToken, payAction: null };
    this.orders.set(id, entry);
    const paid = await this.legacy(`orders/${entry.merchantOrderId}/pay`, { paymentToken, request3DS: false });
    if (paid.status === 200) return { result: 'success', redirect: `${this.url}/order-received/${id}` };
    if (paid.status === 403 && paid.body?.paymentActionRequired) {
      entry.payAction = paid.body.paymentActionRequired;
      const actionUrl = `${this.url}/?wc-ajax=wc_lp_payment_action&order=${id}&redirect_to=${encodeURIComponent(`${this.url}/order-received/${id}`)}`;
      return {
        result: 'success',
        redirect: `#lpaction::${JSON.stringify(entry.payAction)}::${encodeURIComponent(actionUrl)}::limepay`,
      };
    }
    return failure(paid.status === 400 ? paid.body?.message : 'Failed to process the payment');
  }

  /** The payment action URL the page calls after the challenge: pay again with the action. */
  private async paymentAction(id: number) {
    const entry = this.orders.get(id);
    if (!entry) return { success: false, data: { message: 'No such order' } };
    const paid = await this.legacy(`orders/${entry.merchantOrderId}/pay`, {
      paymentToken: entry.paymentToken,
      request3DS: true,
      paymentActionRequired: entry.payAction,
    });
    if (paid.status === 200) return { success: true, data: { redirect: `${this.url}/order-received/${id}` } };
    if (paid.status === 403 && paid.body?.paymentActionRequired) {
      entry.payAction = paid.body.paymentActionRequired;
      return {
        success: true,
        data: {
          payment_action_required: JSON.stringify(entry.payAction),
          redirect: `${this.url}/?wc-ajax=wc_lp_payment_action&order=${id}`,
        },
      };
    }
    return { success: false, data: { message: paid.body?.message ?? 'Failed to process the payment' } };
  }

  private async page(query: URLSearchParams): Promise<string> {
    const option = query.get('option') ?? '0';
    // wp_localize_script: every scalar becomes a string (false and null: "", true: "1")
    const params = {
      checkout_disabled: '',
      element_id: 'limepay-placeholder',
      publishable_key: KEYS.soloPk,
      prevent_wallet_submit: '1',
      available_payment_option: option,
      primary_color: '#7f54b3',
      payment_type: query.get('type') ?? 'paycard',
      email: EMAIL,
      first_name: 'Jo',
      last_name: 'Bloggs',
      custom_token: query.get('login') === '1' ? await this.customToken() : '',
      amount: String(AMOUNT),
      currency: 'AUD',
      pay_source_only: query.get('source') === '1' ? '1' : '',
      platform: 'woocommerce',
      platform_version: '8.2.1',
      platform_plugin_version: '4.2.3',
    };
    return `${CHECKOUT_HEAD}<div id="notices"></div>
<form class="woocommerce-checkout checkout" method="post" action="/checkout" name="checkout">
<p><label for="billing_email">Email</label> <input id="billing_email" name="billing_email" value="${EMAIL}"></p>
<p><label for="billing_first_name">First name</label> <input id="billing_first_name" name="billing_first_name" value="Jo"></p>
<ul class="payment_methods"><li><input type="radio" id="payment_method_limepay" name="payment_method" value="limepay" checked>
<label for="payment_method_limepay">Limepay</label>
<div class="payment_box">
<script type="text/javascript">var wc_limepay_params_amount = ${AMOUNT};var wc_limepay_params_currency = "AUD";</script>
<p>Pay with your card.</p><div id="limepay-placeholder"></div></div></li></ul>
<button type="submit" id="place_order" name="woocommerce_checkout_place_order" value="Place order">Place order</button>
</form>
<script>var wc_limepay_params = ${JSON.stringify(params)};</script>
<script src="${this.gatewayUrl()}/sandbox/checkout.js"></script>
<script src="/shop.js"></script>
</body></html>`;
  }
}

const failure = (message: unknown) => ({
  result: 'failure',
  messages: `<ul class="woocommerce-error" role="alert"><li>${typeof message === 'string' ? message : 'Payment failed'}</li></ul>`,
});

/** The page script: what the plugin's limepay.js does, in plain DOM calls instead of jQuery. */
const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var params = window.wc_limepay_params;
  var form = document.querySelector('form.woocommerce-checkout');
  var checkout = LimepayCheckout.createCheckout();
  var paymentSource = LimepayCheckout.createPaymentSource();
  window.shopSeen = { handlerThis: [] };

  function notice(html) {
    document.getElementById('notices').innerHTML = html;
    form.classList.remove('processing');
  }
  function setHidden(name, value) {
    var old = form.querySelector('input[name="' + name + '"]');
    if (old) old.remove();
    var input = document.createElement('input');
    input.type = 'hidden'; input.name = name; input.value = value;
    form.appendChild(input);
  }
  // WooCommerce's checkout: the form, serialised, posted to ?wc-ajax=checkout
  function post() {
    form.classList.add('processing');
    fetch('/?wc-ajax=checkout', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' }, body: new URLSearchParams(new FormData(form)).toString() })
      .then(function (res) { return res.json(); })
      .then(function (result) {
        if (result.result === 'success') window.location = result.redirect;
        else notice(result.messages);
      });
  }
  function openAction(payAction, actionUrl) {
    checkout.handlePaymentActionRequired(payAction, function () {
      fetch(actionUrl + '&methodId=limepay&is_ajax').then(function (res) { return res.json(); }).then(function (result) {
        if (result.success && result.data.payment_action_required) openAction(JSON.parse(result.data.payment_action_required), result.data.redirect);
        else if (result.success && result.data.redirect) window.location = result.data.redirect;
        else notice('<ul class="woocommerce-error" role="alert"><li>' + result.data.message + '</li></ul>');
      });
    }, function (message) {
      notice('<ul class="woocommerce-error" role="alert"><li>' + message + '</li></ul>');
    });
  }
  window.addEventListener('hashchange', function () {
    var parts = window.location.hash.split('::');
    if (parts.length < 4 || decodeURIComponent(parts[3]) !== 'limepay') return;
    var payAction = JSON.parse(decodeURIComponent(parts[1]));
    var actionUrl = decodeURIComponent(parts[2]);
    window.location.hash = '';
    openAction(payAction, actionUrl);
  });

  // the handlers as the plugin writes them: this.scrollIntoViewLimepay(), which its checkout object lacks
  function onEvent(lpEvent) {
    window.shopSeen.handlerThis.push(this === checkout);
    document.body.setAttribute('data-last-event', lpEvent.eventName);
    if (lpEvent.eventName == 'limepay_card_3DS_pending') this.scrollIntoViewLimepay();
  }
  function onError(error) {
    notice('<ul class="woocommerce-error" role="alert"><li>' + error.message + '</li></ul>');
    this.scrollIntoViewLimepay();
  }

  if (params.pay_source_only) {
    paymentSource.init({ publicKey: params.publishable_key, customerToken: params.custom_token });
    paymentSource.render({ elementId: params.element_id, showSubmit: false, hideSavedCards: false, primaryColor: params.primary_color });
  } else {
    checkout.init({
      publicKey: params.publishable_key,
      preventWalletSubmit: params.prevent_wallet_submit,
      email: params.email,
      customerFirstName: params.first_name,
      customerLastName: params.last_name,
      hidePayLaterOption: params.available_payment_option === 'paycard',
      hideFullPayOption: params.available_payment_option === 'payplan',
      paymentToken: function (token) { setHidden('limepay_payment_token', token); post(); },
      platform: params.platform,
      platformVersion: params.platform_version,
      platformPluginVersion: params.platform_plugin_version,
      customerToken: params.custom_token
    });
    checkout.errorHandler(onError);
    checkout.eventHandler(onEvent);
    checkout.render({
      elementId: params.element_id, currency: window.wc_limepay_params_currency, amount: window.wc_limepay_params_amount,
      paymentType: params.payment_type, showPayNow: false, showPayPlanSubmit: false, primaryColor: params.primary_color
    });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (!document.getElementById('payment_method_limepay').checked) return post();
    if (params.pay_source_only) {
      paymentSource.submit(function (source) {
        if (source && source.cardPaymentSource) { setHidden('limepay_payment_source', source.cardPaymentSource.cardPaymentSourceId); post(); }
      });
    } else checkout.submit();
  });
})();
`;
