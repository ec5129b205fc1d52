/**
 * The checkout web component, one engine under two names: the legacy generation's `LimepayCheckout`
 * (served at `/sandbox/checkout.js`) and the current generation's `AprilCheckout` (at
 * `/v3/checkout-v3.0.0.min.js`, the production path, and `/sandbox/april-checkout.js`). Plain browser
 * code (no framework, no build step a shop sees) with the surface the deployed plugins' page scripts
 * use (current-api-decisions.md, "Checkout web component" and "Checkout component"). The card fields
 * are a frame from the origin the script was loaded from (`/sandbox/card-fields`, see fields.ts); the
 * component on the shop's page only ever holds token and source ids. A merchant's handlers are called
 * with `this` the checkout object, and one that throws is reported to the console without stopping
 * the checkout.
 */

/** Bytes each served script may take; a test holds both to this. */
export const CHECKOUT_SCRIPT_BUDGET_BYTES = 30 * 1024;

/** What differs between the generations' components: the global's name, the events' prefix and the 3DS method's name. */
interface Generation {
  name: 'LimepayCheckout' | 'AprilCheckout';
  events: string;
  threeDS: string;
}

const ENGINE = String.raw`(function (G) {
  'use strict';
  var script = document.currentScript;
  var ORIGIN = script && script.src ? new URL(script.src).origin : window.location.origin;
  var STYLE = '.lp-frame{width:100%;max-width:440px;height:260px;border:0;display:block}' +
    '.lp-overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:9999}' +
    '.lp-overlay iframe{width:440px;max-width:96vw;height:400px;border:0;background:#fff;border-radius:6px}';

  function addStyle() {
    if (document.getElementById('lp-style')) return;
    var style = document.createElement('style');
    style.id = 'lp-style';
    style.textContent = STYLE;
    document.head.appendChild(style);
  }

  /** PHP pages pass booleans as strings ("1", ""): true, 1, "1", "true" and "yes" are on. */
  function flag(v) { return v === true || v === 1 || v === '1' || v === 'true' || v === 'yes'; }

  /** A merchant's handler, called with this = the checkout object; what it throws stops nothing of ours. */
  function notify(self, fn, args, name) {
    if (typeof fn !== 'function') return;
    try { fn.apply(self, args); } catch (err) {
      if (window.console) console.error(G.name + ': the merchant\'s ' + name + ' threw; the checkout goes on.', err);
    }
  }

  /** The card fields: a frame from the payment origin, spoken to by postMessage with both origins checked. */
  function cardFields(root, mode, config, onMessage) {
    addStyle();
    var frame = document.createElement('iframe');
    frame.className = 'lp-frame';
    frame.title = 'Secure card details';
    frame.src = ORIGIN + '/sandbox/card-fields?mode=' + mode + '#parent=' + encodeURIComponent(window.location.origin);
    root.innerHTML = '';
    root.appendChild(frame);
    var ready = false;
    var queue = [];
    function post(message) {
      if (ready) frame.contentWindow.postMessage(message, ORIGIN);
      else queue.push(message);
    }
    function listen(event) {
      if (event.source !== frame.contentWindow || event.origin !== ORIGIN) return;
      var data = event.data || {};
      if (data.lp === 'ready') {
        ready = true;
        frame.contentWindow.postMessage({ lp: 'init', params: config }, ORIGIN);
        queue.splice(0).forEach(post);
      } else if (data.lp === 'size') {
        frame.style.height = Math.min(Math.max(Number(data.height) || 0, 120), 900) + 'px';
      } else if (typeof data.lp === 'string') onMessage(data);
    }
    window.addEventListener('message', listen);
    return { post: post, close: function () { window.removeEventListener('message', listen); } };
  }

  function rootOf(elementId) {
    var root = document.getElementById(elementId);
    if (!root) throw new Error(G.name + ': no element #' + elementId);
    return root;
  }

  function createCheckout() {
    var params = {};
    var handlers = { error: null, event: null };
    var fields = null;
    var api = {};
    /** An event by the generation's name (limepay_card_3DS_pending, april_card_3DS_pending). */
    function emit(name) { notify(api, handlers.event, [{ eventName: G.events + name }], 'eventHandler'); }
    function fail(message) { notify(api, handlers.error, [{ message: message }], 'errorHandler'); }
    function onMessage(data) {
      if (data.lp === 'token') {
        emit('payment_token_created');
        // paymentMethodType Card: a card typed here (the April plugin then pays with PayByCard)
        notify(api, params.paymentToken, [data.paymentTokenId, { paymentMethodType: data.paymentMethodType }], 'paymentToken callback');
      } else if (data.lp === 'error') fail(data.message);
      else if (data.lp === 'event') emit(data.eventName);
    }
    api.init = function (p) { params = p || {}; return api; };
    api.errorHandler = function (fn) { handlers.error = fn; return api; };
    api.eventHandler = function (fn) { handlers.event = fn; return api; };
    api.render = function (r) {
      r = r || {};
      var root = rootOf(r.elementId);
      if (fields) fields.close();
      fields = cardFields(root, 'checkout', {
        publicKey: params.publicKey,
        customerToken: params.customerToken || null,
        email: params.email || null,
        amount: Number(r.amount) || 0,
        currency: r.currency ? String(r.currency) : null,
        paymentType: r.paymentType === 'payplan' ? 'payplan' : 'paycard',
        hidePayLater: flag(params.hidePayLaterOption),
        hideFullPay: flag(params.hideFullPayOption),
        hideSavedCards: flag(params.hideSavedCards) || flag(r.hideSavedCards),
        showPayNow: flag(r.showPayNow),
        showPayPlanSubmit: flag(r.showPayPlanSubmit),
        preventWalletSubmit: flag(params.preventWalletSubmit),
        primaryColor: r.primaryColor || null
      }, onMessage);
      return api;
    };
    api.submit = function () {
      if (!fields) return fail(G.name + ': render() first');
      fields.post({ lp: 'submit' });
    };
    // the 3DS challenge (legacy paymentActionRequired, current ThreeDSAuthorisationRequired) in a frame over the page
    api[G.threeDS] = function (action, onSuccess, onFailure) {
      if (typeof action === 'string') { try { action = JSON.parse(action); } catch (e) { action = {}; } }
      action = action || {};
      if (action.ThreeDSAuthorisationRequired) action = action.ThreeDSAuthorisationRequired;
      var url = action.redirectURL || action.redirectUrl;
      if (!url) return notify(api, onFailure, ['The 3DS challenge has no redirect URL'], 'failure callback');
      var origin = new URL(url, window.location.href).origin;
      addStyle();
      var frame = document.createElement('iframe');
      frame.src = url + '#parent=' + encodeURIComponent(window.location.origin);
      frame.title = 'Card issuer verification (3DS)';
      var overlay = document.createElement('div');
      overlay.className = 'lp-overlay';
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', 'Card issuer verification');
      overlay.appendChild(frame);
      document.body.appendChild(overlay);
      function done(event) {
        var data = event.data || {};
        if (event.source !== frame.contentWindow || event.origin !== origin || data.threeDSAuthorisationId !== action.threeDSAuthorisationId) return;
        window.removeEventListener('message', done);
        overlay.remove();
        if (data.limepay3DS === 'approved') {
          emit('card_3DS_approved');
          notify(api, onSuccess, [], 'success callback');
        } else {
          emit(data.limepay3DS === 'cancelled' ? 'card_3DS_cancelled' : 'card_3DS_declined');
          notify(api, onFailure, [data.limepay3DS === 'cancelled' ? 'The verification was cancelled' : 'The card issuer declined the verification'], 'failure callback');
        }
      }
      window.addEventListener('message', done);
      emit('card_3DS_pending');
    };
    return api;
  }

  function createPaymentSource() {
    var params = {};
    var handlers = { error: null };
    var fields = null;
    var callback = null;
    var api = {};
    // the callbacks April's guide passes to init (submitCallbackFunction, errorCallbackFunction) serve when none is given here
    function fail(message) { notify(api, handlers.error || params.errorCallbackFunction, [{ message: message }], 'errorHandler'); }
    function onMessage(data) {
      if (data.lp === 'source') {
        var done = callback || params.submitCallbackFunction;
        callback = null;
        notify(api, done, [{ cardPaymentSource: { cardPaymentSourceId: data.paymentSourceId } }], 'submit callback');
      } else if (data.lp === 'error') fail(data.message);
    }
    api.init = function (p) { params = p || {}; return api; };
    api.errorHandler = function (fn) { handlers.error = fn; return api; };
    api.render = function (r) {
      r = r || {};
      if (fields) fields.close();
      fields = cardFields(rootOf(r.elementId), 'source', {
        publicKey: params.publicKey,
        customerToken: params.customerToken || null,
        hideSavedCards: flag(r.hideSavedCards),
        showSubmit: flag(r.showSubmit),
        primaryColor: r.primaryColor || null
      }, onMessage);
      return api;
    };
    api.submit = function (fn) {
      if (!fields) return fail(G.name + ': render() first');
      callback = typeof fn === 'function' ? fn : null;
      fields.post({ lp: 'submit' });
    };
    return api;
  }

  window[G.name] = { createCheckout: createCheckout, createPaymentSource: createPaymentSource };
})`;

/** The engine installed under one generation's names: the script served for that generation. */
function served(g: Generation): string {
  return `/* ${g.name} for the paybridge sandbox: test cards 4242424242424242 (pays),
   4000000000000002 (declined), 4000000000003220 (3DS). */
${ENGINE}(${JSON.stringify(g)});
`;
}

/** `LimepayCheckout`, as the legacy generation's plugins load it. */
export const CHECKOUT_SCRIPT = served({
  name: 'LimepayCheckout',
  events: 'limepay_',
  threeDS: 'handlePaymentActionRequired',
});
/** Where production serves the current component (the April plugin's APRIL_CHECKOUTJS); the sandbox's current face serves it there too. */
export const APRIL_CHECKOUT_PATH = '/v3/checkout-v3.0.0.min.js';
/** `AprilCheckout`, as the official April plugin's page script (public/js/april.js) loads it. */
export const APRIL_CHECKOUT_SCRIPT = served({
  name: 'AprilCheckout',
  events: 'april_',
  threeDS: 'handleThreeDSAuthorisationRequired',
});
