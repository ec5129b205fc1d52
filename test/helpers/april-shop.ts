/**
 * A WooCommerce shop running the official April plugin (the current generation's deployed client), on
 * its own origin, written for the browser tests from reading the plugin's public source
 * (`public/js/april.js`, `includes/woocommerce-april.php`, `includes/april-api.php`,
 * `includes/april-customer.php`, `includes/payment-action-controller.php`), not copied from it.
 *
 * Its checkout page loads `AprilCheckout` from the sandbox's current face where production serves it
 * (`/v3/checkout-v3.0.0.min.js`, only the origin swapped) and runs a page script that does what
 * april.js does, in plain DOM calls instead of jQuery: `wp_localize_script` parameters (every scalar a
 * string), amount and currency read from the hidden inputs `payment_fields()` prints, the component
 * rendered again on WooCommerce's `updated_checkout`, the token and `paymentData` put in hidden inputs
 * of the checkout form, the form posted as WooCommerce posts it (urlencoded, `?wc-ajax=checkout`), 3DS
 * by a `#lpaction::<ThreeDSAuthorisationRequired>::<action url>::april` redirect handed to
 * `handleThreeDSAuthorisationRequired`, and subscriptions' `createPaymentSource`.
 *
 * Its server side is the plugin's, each call as WordPress puts it on the wire (`Authorization: Bearer`
 * with the secret key, the JSON body labelled `application/x-www-form-urlencoded`, the `0:`/`1:` header
 * lines): `RegisterPluginConsumerCustomer` and `SignInConsumer` for a logged-in shopper,
 * `CreateSavedPaymentSourceToken` for a saved card, `CreateOnlineOrder`, then `PayByCard` when the
 * component reported `paymentMethodType: Card` and `PayByPaymentToken` otherwise, and
 * `Confirm3DSComplete` with the whole `ThreeDSAuthorisationRequired` object it saved. It reads what the
 * plugin reads (`PayOrderComplete.transactionId`, `ThreeDSAuthorisationRequired`, `errorCode`).
 *
 * Every request the shop's server receives is kept, so a test can show no card data reached it.
 */
import { randomBytes } from 'node:crypto';
import { aprilOrderData } from '../clients/april.js';
import { float, phpJson } from '../clients/serializers.js';
import { send } from '../clients/wire.js';
import { wordPressRequest } from '../clients/woocommerce.js';
import { KEYS } from './sandbox.js';
import { CHECKOUT_HEAD, ShopServer, type ShopAnswer } from './shop-server.js';

export interface AprilPageOptions {
  /** The plugin's "Available payment options": '0' both, 'paycard' full payment only, 'payplan' split payment only. */
  option?: '0' | 'paycard' | 'payplan';
  /** `payplan` when the shopper chose pay later on a product page (the `april-preferred-bnpl-option` cookie). */
  paymentType?: 'paycard' | 'payplan';
  /** A logged-in WordPress user: the page carries an April custom token. */
  loggedIn?: boolean;
  /** A subscription in the cart: `pay_source_only`, the card saved through `createPaymentSource`. */
  subscription?: boolean;
  /** The "Allow Wallet payments to place the order" setting (default off: `prevent_wallet_submit` true). */
  walletPlacesOrder?: boolean;
}

/** One call of the plugin's `April_API::request`, with what it sent and the answer it read. */
export interface AprilCall {
  path: string;
  sent: any;
  status: number;
  body: any;
}

const AMOUNT = 2_500;
const USER = { id: 7, email: 'jo@example.com', first: 'Jo', last: 'Bloggs' };
const ERRORS: Record<string, string> = {
  do_not_honor: 'Please contact your card issuer',
  expired_card: 'Card expired',
  insufficient_funds: 'Insufficient funds',
};

interface ShopOrder {
  id: number;
  key: string;
  nonce: string;
  subscription: boolean;
  /** `_april_payment_data`: the April order, token and saved 3DS challenge (wp_json_encode'd). */
  aprilOrderId?: string;
  paymentToken?: string;
  paymentAction?: string;
  transactionId?: string;
  status: 'pending' | 'processing' | 'failed';
}

/** What process_payment throws: WooCommerce answers it as a failure notice. */
class PluginError extends Error {}

export class AprilShop extends ShopServer {
  readonly calls: AprilCall[] = [];
  readonly orders = new Map<number, ShopOrder>();
  private nextOrder = 500;
  /** The WordPress user's `_april_customer_id` user option. */
  private customerId: string | null = null;

  constructor(private apiBase: () => string) {
    super();
  }

  /** The calls whose path is `api` (`orders`, `tokens`, `orders/<id>/pay`, ...). */
  callsTo(pattern: RegExp): AprilCall[] {
    return this.calls.filter((c) => pattern.test(c.path));
  }

  /** April_API::request: the body through wp_json_encode, the secret key as a Bearer, cURL's wire bytes. */
  private async april(api: string, data: unknown): Promise<{ status: number; body: any }> {
    const body = phpJson(data);
    const answer = await send(
      this.apiBase(),
      wordPressRequest({ base: this.apiBase() }, 'curl', 'POST', api, body, ['Authorization', `Bearer ${KEYS.soloSk}`]),
    );
    this.calls.push({ path: api, sent: JSON.parse(body), status: answer.status, body: answer.json });
    if (answer.text === '') throw new PluginError('April API call failed');
    return { status: answer.status, body: answer.json };
  }

  /** get_error_message(): the plugin's own words for known decline codes, else message [code] detail [reference]. */
  private errorMessage(answer: { body: any }, fallback: string): string {
    const b = answer.body;
    if (!b || typeof b !== 'object' || !('errorCode' in b)) return fallback;
    return (
      ERRORS[b.errorCode] ??
      `${b.message ?? ''} [${b.errorCode}] ${b.detail ?? ''} [Error reference: ${b.tracer ?? 'Not available'}]`
    );
  }

  /** get_april_custom_token(): the user's April customer (created once), signed in. Null on any failure. */
  private async customToken(): Promise<string | null> {
    try {
      if (!this.customerId) {
        const created = await this.april('customers', {
          RegisterPluginConsumerCustomer: {
            referenceCustomerId: String(USER.id),
            givenName: USER.first,
            familyName: USER.last,
            emailAddress: USER.email,
          },
        });
        if (created.status !== 200) throw new PluginError('April create customer API call failed.');
        this.customerId = created.body.customerId as string;
      }
      const signin = await this.april('auth/signin', { SignInConsumer: { customerId: this.customerId } });
      if (signin.status !== 200) throw new PluginError('April signin customer API call failed.');
      return signin.body.customToken as string;
    } catch {
      return null;
    }
  }

  protected async handle(method: string, url: URL, body: string): Promise<ShopAnswer> {
    const json = (value: unknown): ShopAnswer => [200, 'application/json; charset=UTF-8', JSON.stringify(value)];
    const ajax = url.searchParams.get('wc-ajax');
    if (method === 'GET' && url.pathname === '/checkout')
      return [200, 'text/html; charset=UTF-8', await this.page(url.searchParams)];
    if (method === 'GET' && url.pathname === '/april-shop.js') return [200, 'application/javascript', PAGE_SCRIPT];
    if (method === 'GET' && url.pathname === '/foreign') return [200, 'text/html; charset=UTF-8', FOREIGN_PAGE];
    const received = /^\/checkout\/order-received\/(\d+)\/$/.exec(url.pathname);
    if (method === 'GET' && received) {
      const order = this.orders.get(Number(received[1]));
      const known = order && url.searchParams.get('key') === order.key;
      return [
        200,
        'text/html; charset=UTF-8',
        `<!doctype html><title>Order received</title><h1>Order received</h1><p id="status">${known ? order.status : 'unknown'}</p><p id="transaction">${known ? (order.transactionId ?? '') : ''}</p>`,
      ];
    }
    if (method === 'POST' && ajax === 'update_order_review') return json({ result: 'success', fragments: {} });
    if (method === 'POST' && ajax === 'checkout') return json(await this.checkout(new URLSearchParams(body)));
    if (method === 'GET' && ajax === 'wc_lp_payment_action') return json(await this.paymentAction(url.searchParams));
    return [404, 'text/plain', 'not found'];
  }

  private returnUrl(order: ShopOrder): string {
    return `${this.url}/checkout/order-received/${order.id}/?key=${order.key}`;
  }

  /** WooCommerce's checkout: the order made, then the gateway's process_payment; an exception is a failure notice. */
  private async checkout(form: URLSearchParams) {
    const order: ShopOrder = {
      id: this.nextOrder++,
      key: `wc_order_${randomBytes(6).toString('hex')}`,
      nonce: randomBytes(5).toString('hex'),
      subscription: form.get('shop_subscription') === '1',
      status: 'pending',
    };
    this.orders.set(order.id, order);
    try {
      const result = await this.processPayment(order, form);
      // update_successful_payment_response: a challenge goes to the page as a #lpaction:: redirect
      if (!('payment_action_required' in result)) return result;
      return {
        result: 'success',
        redirect: `#lpaction::${result.payment_action_required}::${encodeURIComponent(this.actionUrl(order))}::april`,
      };
    } catch (err) {
      if (!(err instanceof PluginError)) throw err;
      order.status = 'failed';
      return {
        result: 'failure',
        messages: `<ul class="woocommerce-error" role="alert"><li>${escapeHtml(err.message)}</li></ul>`,
        refresh: false,
        reload: false,
      };
    }
  }

  /** build_action_url(): the payment action endpoint with the order, a nonce and where to go after. */
  private actionUrl(order: ShopOrder): string {
    return `${this.url}/?wc-ajax=wc_lp_payment_action&order=${order.id}&nonce=${order.nonce}&redirect_to=${encodeURIComponent(this.returnUrl(order))}`;
  }

  /** process_payment() */
  private async processPayment(
    order: ShopOrder,
    form: URLSearchParams,
  ): Promise<{ result: string; redirect: string } | { payment_action_required: string }> {
    const token = prefixed(form.get('april_payment_token'), 'ptkn');
    const source = prefixed(form.get('april_payment_source'), 'psrc');
    let paymentData: { paymentMethodType: unknown } | null = null;
    try {
      const parsed = JSON.parse(form.get('april_payment_data') ?? '');
      if (parsed && typeof parsed === 'object' && 'paymentMethodType' in parsed) paymentData = parsed;
    } catch {
      // sanitize_validate_payment_data_string: not JSON, no payment data
    }
    if (!token && !source) throw new PluginError('Transaction incomplete. No payment token or payment source found.');
    if (order.subscription && !source) throw new PluginError('No payment source found.');
    let paymentToken = token;
    if (source) paymentToken = await this.savedSourceToken(source);
    order.aprilOrderId = await this.createOrder(order);
    const paid = await this.pay(order.aprilOrderId, paymentToken!, paymentData, null, false);
    return this.afterPay(order, paid, paymentToken!);
  }

  /** generate_payment_token() */
  private async savedSourceToken(paymentSourceId: string): Promise<string> {
    const answer = await this.april('tokens', {
      CreateSavedPaymentSourceToken: {
        paymentSourceId,
        amount: { minorCurrencyUnits: float(AMOUNT), currency: 'AUD' },
      },
    });
    if (answer.status !== 200)
      throw new PluginError(this.errorMessage(answer, 'Unable to generate a payment token from provided source'));
    return answer.body.SavedPaymentSourceToken.paymentTokenId as string;
  }

  /** create_april_order() with get_order_data(): a hat shipped to Sydney, or a virtual subscription with the empty address WooCommerce gives it. */
  private async createOrder(order: ShopOrder): Promise<string> {
    const answer = await this.april('orders', {
      CreateOnlineOrder: aprilOrderData(order.id, AMOUNT, order.subscription),
    });
    if (answer.status !== 200)
      throw new PluginError(`An unknown error occurred while creating the order with April ${JSON.stringify(answer)}`);
    return answer.body.OnlineOrder.order.orderId as string;
  }

  /** pay_for_april_order(): Confirm3DSComplete with the saved challenge, PayByCard for a card, else PayByPaymentToken. */
  private async pay(
    aprilOrderId: string,
    paymentTokenId: string,
    paymentData: { paymentMethodType: unknown } | null,
    paymentAction: string | null,
    request3DS: boolean,
  ) {
    const data =
      paymentAction !== null
        ? { Confirm3DSComplete: { paymentTokenId, threeDSResponse: JSON.parse(paymentAction) } }
        : paymentData?.paymentMethodType === 'Card'
          ? { PayByCard: { paymentTokenId, request3DS } }
          : { PayByPaymentToken: { paymentTokenId } };
    const answer = await this.april(`orders/${aprilOrderId}/pay`, data);
    if (answer.status >= 200 && answer.status <= 299) {
      if (answer.body && 'PayOrderComplete' in answer.body)
        return { success: true as const, response: answer.body.PayOrderComplete };
      if (answer.body && 'ThreeDSAuthorisationRequired' in answer.body)
        return { success: false as const, response: answer.body };
      throw new PluginError('Error in April API order pay response');
    }
    if (answer.status >= 400 && answer.status <= 499)
      throw new PluginError(
        this.errorMessage(answer, 'An unknown error occurred while processing the payment with April'),
      );
    throw new PluginError('Failed to process the payment');
  }

  /** process_pay_order_response(): paid, or the challenge saved to the order (wp_json_encode) for the page. */
  private afterPay(order: ShopOrder, paid: { success: boolean; response: any }, paymentToken: string) {
    if (paid.success) {
      order.transactionId = paid.response.transactionId;
      order.status = 'processing';
      return { result: 'success', redirect: this.returnUrl(order) };
    }
    if (paid.response?.ThreeDSAuthorisationRequired) {
      order.paymentToken = paymentToken;
      order.paymentAction = phpJson(paid.response.ThreeDSAuthorisationRequired);
      return { payment_action_required: order.paymentAction };
    }
    throw new PluginError('Unknown error occured after order pay API call.');
  }

  /** April_Payment_Action_Controller: after the challenge, complete_payment_action() and wp_send_json_*. */
  private async paymentAction(query: URLSearchParams) {
    const order = this.orders.get(Number(query.get('order')));
    if (!order || query.get('nonce') !== order.nonce)
      return { success: false, data: { message: 'Error: Payment verification error: CSRF verification failed.' } };
    if (!order.aprilOrderId || !order.paymentToken || !order.paymentAction)
      return { success: false, data: { message: 'Error: Missing order ID for payment confirmation' } };
    try {
      const paid = await this.pay(order.aprilOrderId, order.paymentToken, null, order.paymentAction, true);
      const result = this.afterPay(order, paid, order.paymentToken);
      if (!('payment_action_required' in result)) return { success: true, data: result };
      return {
        success: true,
        data: {
          result: 'success',
          payment_action_required: result.payment_action_required,
          redirect: this.actionUrl(order),
        },
      };
    } catch (err) {
      if (!(err instanceof PluginError)) throw err;
      return { success: false, data: { message: `Error: ${err.message}` } };
    }
  }

  private async page(query: URLSearchParams): Promise<string> {
    const loggedIn = query.get('login') === '1';
    const subscription = query.get('subscription') === '1';
    // wp_localize_script: every scalar becomes a string (false and null: "", true: "1")
    const params = {
      checkout_disabled: '',
      element_id: 'april-placeholder',
      publishable_key: KEYS.soloPk,
      prevent_wallet_submit: query.get('wallet') === '1' ? '' : '1',
      available_payment_option: query.get('option') ?? '0',
      primary_color: '#7f54b3',
      payment_type: query.get('type') ?? 'paycard',
      email: loggedIn ? USER.email : '',
      first_name: loggedIn ? USER.first : '',
      last_name: loggedIn ? USER.last : '',
      custom_token: loggedIn ? ((await this.customToken()) ?? '') : '',
      amount: String(AMOUNT),
      currency: 'AUD',
      pay_source_only: subscription ? '1' : '',
      platform: 'woocommerce',
      platform_version: '8.2.1',
      platform_plugin_version: '1.0.3',
    };
    return `${CHECKOUT_HEAD}<form class="checkout woocommerce-checkout" method="post" action="/checkout" name="checkout">
<p><label for="billing_email">Email</label> <input id="billing_email" name="billing_email" value="${USER.email}"></p>
<p><label for="billing_first_name">First name</label> <input id="billing_first_name" name="billing_first_name" value="${USER.first}"></p>
${subscription ? '<input type="hidden" name="shop_subscription" value="1"><p>Hat of the month (subscription), 25.00 AUD a month</p>' : '<p>Hat, 25.00 AUD</p>'}
<ul class="wc_payment_methods payment_methods methods"><li><input type="radio" id="payment_method_april" name="payment_method" value="april" checked>
<label for="payment_method_april">April</label>
<div class="payment_box payment_method_april">
<input type="hidden" id="wc_april_params_amount" name="wc_april_params_amount" value="${AMOUNT}" ><input type="hidden" id="wc_april_params_currency" name="wc_april_params_currency" value="AUD" ><p>Pay in full or in instalments.</p><div id="april-placeholder"></div>
</div></li></ul>
<button type="submit" id="place_order" name="woocommerce_checkout_place_order" value="Place order">Place order</button>
</form>
<script>var wc_april_params = ${JSON.stringify(params)};</script>
<script src="${this.apiBase()}/v3/checkout-v3.0.0.min.js"></script>
<script src="/april-shop.js"></script>
</body></html>`;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** sanitize_validate_payment_token / _source: the value when it starts with `<prefix>_`. */
function prefixed(value: string | null, prefix: string): string | null {
  return value && value.split('_').length > 1 && value.split('_')[0] === prefix ? value : null;
}

/**
 * A page a test frames from another origin (the shop's server reached by IP, not by name): it posts the
 * messages its URL's hash lists to the page that framed it or to that page's first frame (the card
 * fields), as a hostile frame or script on the shop's page could.
 */
const FOREIGN_PAGE = `<!doctype html><html><head><title>Another origin</title></head><body><script>
JSON.parse(decodeURIComponent(location.hash.slice(1))).forEach(function (m) { (m.to === 'parent' ? parent : parent.frames[0]).postMessage(m.data, '*'); });
document.body.setAttribute('data-sent', '1');
</script></body></html>`;

/**
 * The page script: what april.js does, in plain DOM calls, and the few parts of WooCommerce's own
 * checkout.js it leans on (the `checkout_place_order_april` veto before the form is posted, the
 * `updated_checkout` event after the order review loads, failure notices, the redirect).
 */
const PAGE_SCRIPT = String.raw`(function () {
  'use strict';
  var form = document.querySelector('form.woocommerce-checkout');
  var params = null;
  var amount = 0;
  var currency = '';
  var tokenStale = true;
  var sourceStale = true;
  var checkout = AprilCheckout.createCheckout();
  var paymentSource = AprilCheckout.createPaymentSource();
  window.shopSeen = { events: [], handlerThis: [] };

  function loadParams() {
    try {
      currency = document.getElementById('wc_april_params_currency').value;
      amount = parseInt(document.getElementById('wc_april_params_amount').value, 10);
      params = window.wc_april_params;
    } catch (e) {
      return false;
    }
    return !!params;
  }

  function render() {
    if (!loadParams()) return;
    if (params.checkout_disabled) return;
    if (params.pay_source_only) {
      paymentSource.init({ publicKey: params.publishable_key, customerToken: params.custom_token });
      var sourceRender = { elementId: params.element_id, showSubmit: false, hideSavedCards: false };
      if (params.primary_color) sourceRender.primaryColor = params.primary_color;
      paymentSource.render(sourceRender);
      return;
    }
    checkout.init({
      publicKey: params.publishable_key,
      preventWalletSubmit: params.prevent_wallet_submit,
      email: params.email,
      customerFirstName: params.first_name,
      customerLastName: params.last_name,
      hidePayLaterOption: params.available_payment_option === 'paycard',
      hideFullPayOption: params.available_payment_option === 'payplan',
      paymentToken: onToken,
      platform: params.platform,
      platformVersion: params.platform_version,
      platformPluginVersion: params.platform_plugin_version,
      customerToken: params.custom_token
    });
    checkout.errorHandler(onError);
    checkout.eventHandler(onEvent);
    var checkoutRender = { elementId: params.element_id, currency: currency, amount: amount, paymentType: params.payment_type, showPayNow: false, showPayPlanSubmit: false };
    if (params.primary_color) checkoutRender.primaryColor = params.primary_color;
    checkout.render(checkoutRender);
  }

  function hidden(name, value) {
    var old = form.querySelector('input[name="' + name + '"]');
    if (old) old.remove();
    var input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  function filled(name) {
    var input = form.querySelector('input[name="' + name + '"]');
    return !!(input && input.value && input.value !== '0');
  }

  function onToken(paymentTokenId, paymentData) {
    hidden('april_payment_token', paymentTokenId);
    hidden('april_payment_data', JSON.stringify(paymentData));
    tokenStale = false;
    form.requestSubmit();
  }
  function onSource(result) {
    if (!result || !result.cardPaymentSource) return;
    hidden('april_payment_source', result.cardPaymentSource.cardPaymentSourceId);
    sourceStale = false;
    form.requestSubmit();
  }
  // the plugin's handlers: the error only unblocks the form (the component shows it), the event scrolls with this
  function onError(error) {
    form.classList.remove('processing');
    document.getElementById(params.element_id).scrollIntoView();
  }
  function onEvent(event) {
    window.shopSeen.events.push(event.eventName);
    window.shopSeen.handlerThis.push(this === checkout);
    document.body.setAttribute('data-last-event', event.eventName);
    if (event.eventName == 'april_card_3DS_pending') this.scrollIntoViewApril();
  }

  /** checkout_place_order_april: false stops WooCommerce's post until the component has answered. */
  function placeOrder() {
    if (!document.getElementById('payment_method_april').checked) return true;
    if (params.pay_source_only) {
      if (filled('april_payment_source') && !sourceStale) { sourceStale = true; return true; }
      paymentSource.submit(onSource);
      return false;
    }
    if (filled('april_payment_token') && !tokenStale) { tokenStale = true; return true; }
    checkout.submit();
    return false;
  }

  function showError(html) {
    var old = document.querySelectorAll('.woocommerce-NoticeGroup-checkout, .woocommerce-error, .woocommerce-message');
    for (var i = 0; i < old.length; i++) old[i].remove();
    var group = document.createElement('div');
    group.className = 'woocommerce-NoticeGroup woocommerce-NoticeGroup-checkout';
    group.innerHTML = html;
    form.prepend(group);
    form.classList.remove('processing');
  }
  function submitError(message) { showError('<ul class="woocommerce-error"><li>' + message + '</li></ul>'); }

  function go(redirect) {
    if (redirect.indexOf('https://') === -1 || redirect.indexOf('http://') === -1) window.location = redirect;
    else window.location = decodeURI(redirect);
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (form.classList.contains('processing')) return;
    if (placeOrder() === false) return;
    form.classList.add('processing');
    fetch('/?wc-ajax=checkout', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' }, body: new URLSearchParams(new FormData(form)).toString() })
      .then(function (res) { return res.json(); })
      .then(function (result) {
        // the form stays blocked on success, through a 3DS challenge too, as WooCommerce leaves it
        if (result.result === 'success') go(result.redirect);
        else showError(result.messages);
      });
  });

  function openChallenge(payAction, actionUrl) {
    checkout.handleThreeDSAuthorisationRequired(payAction, function () {
      fetch(actionUrl + '&methodId=april&is_ajax').then(function (res) { return res.json(); }).then(function (result) {
        if (result.success === true && result.data && result.data.payment_action_required) openChallenge(JSON.parse(result.data.payment_action_required), result.data.redirect);
        else if (result.success === true && result.data && result.data.redirect) go(result.data.redirect);
        else submitError(result.data && result.data.message ? result.data.message : 'Result failure');
      }, function (err) { submitError(String(err)); });
    }, function (message) { submitError(message); });
  }
  window.addEventListener('hashchange', function () {
    var parts = window.location.hash.split('::');
    if (parts.length < 2) return;
    var payAction = JSON.parse(decodeURIComponent(parts[1]));
    var actionUrl = decodeURIComponent(parts[2]);
    if (decodeURIComponent(parts[3]) !== 'april') return;
    window.location.hash = '';
    openChallenge(payAction, actionUrl);
  });

  render();
  // WooCommerce loads the order review once the page is up, then fires updated_checkout: the plugin renders again
  document.body.addEventListener('updated_checkout', render);
  fetch('/?wc-ajax=update_order_review', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' }, body: 'payment_method=april' })
    .then(function () {
      document.body.dispatchEvent(new Event('updated_checkout'));
      document.body.setAttribute('data-checkout-updated', '1');
    });
})();
`;
