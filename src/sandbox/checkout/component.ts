/**
 * The checkout web component, as the sandbox serves it at `/sandbox/checkout.js`: plain browser code
 * (no framework, no build step a shop sees) defining the global `LimepayCheckout` with the surface the
 * deployed plugins' page scripts use (current-api-decisions.md, "Checkout web component"). Card data
 * goes only to the origin the script was loaded from (the sandbox, or the gateway in front of it).
 */

/** Bytes the served script may take; a test holds it to this. */
export const CHECKOUT_SCRIPT_BUDGET_BYTES = 30 * 1024;

export const CHECKOUT_SCRIPT = String.raw`/* LimepayCheckout for the paybridge sandbox: test cards 4242424242424242 (pays),
   4000000000000002 (declined), 4000000000003220 (3DS). */
(function () {
  'use strict';
  var script = document.currentScript;
  var ORIGIN = script && script.src ? new URL(script.src).origin : window.location.origin;
  var STYLE = '.lp-form{font:15px system-ui,sans-serif;border:1px solid #ccc;border-radius:6px;padding:12px;max-width:420px}' +
    '.lp-form label{display:block;margin:8px 0 2px}.lp-form input{font:inherit;padding:6px;width:100%;box-sizing:border-box}' +
    '.lp-row{display:flex;gap:8px}.lp-row>div{flex:1}.lp-error{color:#b3261e;min-height:1.2em}.lp-hint{color:#555;font-size:13px}' +
    '.lp-form button{font:inherit;margin-top:10px;padding:8px 14px;color:#fff;border:0;border-radius:4px;cursor:pointer}' +
    '.lp-overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:9999}' +
    '.lp-overlay iframe{width:420px;height:340px;border:0;background:#fff;border-radius:6px}';
  var counter = 0;

  function h(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }

  function addStyle() {
    if (document.getElementById('lp-style')) return;
    document.head.appendChild(h('style', { id: 'lp-style', text: STYLE }));
  }

  function post(path, credential, body) {
    return fetch(ORIGIN + path, {
      method: 'POST',
      headers: { Authorization: 'Bearer ' + credential, 'Content-Type': 'application/json' },
      body: JSON.stringify(body)
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) throw new Error((json && json.message ? json.message : 'The request failed') + (json && json.detail ? ': ' + json.detail : ''));
        return json;
      });
    });
  }

  function luhn(digits) {
    var sum = 0;
    for (var i = 0; i < digits.length; i++) {
      var d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return sum % 10 === 0;
  }

  function field(id, label, attrs) {
    var input = h('input', Object.assign({ id: id, name: id, type: 'text', required: 'required' }, attrs));
    return { wrap: h('div', {}, [h('label', { for: id, text: label }), input]), input: input };
  }

  /** The card form inside elementId: number, expiry, CVC, with labels and autocomplete for cards. */
  function cardForm(root, primaryColor) {
    addStyle();
    var n = ++counter;
    var number = field('lp-card-number-' + n, 'Card number', { autocomplete: 'cc-number', inputmode: 'numeric', placeholder: '4242 4242 4242 4242' });
    var expiry = field('lp-card-expiry-' + n, 'Expiry (MM/YY)', { autocomplete: 'cc-exp', inputmode: 'numeric', placeholder: 'MM/YY' });
    var cvc = field('lp-card-cvc-' + n, 'Security code (CVC)', { autocomplete: 'cc-csc', inputmode: 'numeric', placeholder: '123' });
    var error = h('p', { class: 'lp-error', role: 'alert', 'aria-live': 'assertive' });
    var form = h('div', { class: 'lp-form', role: 'group', 'aria-label': 'Card details' }, [
      number.wrap, h('div', { class: 'lp-row' }, [expiry.wrap, cvc.wrap]), error,
      h('p', { class: 'lp-hint', text: 'Sandbox test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 3220 asks for 3DS.' })
    ]);
    root.innerHTML = '';
    root.appendChild(form);
    return {
      form: form,
      color: primaryColor || '#1f6f43',
      showError: function (message) { error.textContent = message || ''; },
      read: function () {
        var digits = number.input.value.replace(/[\s-]/g, '');
        if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) throw new Error('Enter a valid card number');
        var m = /^\s*(\d{2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry.input.value);
        if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) throw new Error('Enter the expiry as MM/YY');
        var year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
        var now = new Date();
        if (year < now.getFullYear() || (year === now.getFullYear() && Number(m[1]) < now.getMonth() + 1)) throw new Error('The card has expired');
        if (!/^\d{3,4}$/.test(cvc.input.value.trim())) throw new Error('Enter the 3 or 4 digit security code');
        return digits;
      }
    };
  }

  function button(form, label, onClick) {
    var b = h('button', { type: 'button', text: label });
    b.style.background = form.color;
    b.addEventListener('click', onClick);
    form.form.appendChild(b);
  }

  function createCheckout() {
    var params = {};
    var onError = function () {};
    var onEvent = function () {};
    var view = null;
    var amount = null;
    function fail(err) {
      var message = err && err.message ? err.message : String(err);
      if (view) view.showError(message);
      onError({ message: message });
    }
    var api = {
      init: function (p) { params = p || {}; return api; },
      errorHandler: function (fn) { onError = fn || function () {}; return api; },
      eventHandler: function (fn) { onEvent = fn || function () {}; return api; },
      render: function (r) {
        var root = document.getElementById(r.elementId);
        if (!root) throw new Error('LimepayCheckout: no element #' + r.elementId);
        view = cardForm(root, r.primaryColor);
        amount = r.amount && r.currency ? { minorCurrencyUnits: Number(r.amount), currency: String(r.currency) } : null;
        if (r.showPayNow && !params.hideFullPayOption) button(view, 'Pay Now', function () { api.submit(); });
        if (r.showPayPlanSubmit && !params.hidePayLaterOption) button(view, 'Submit Payment Plan', function () { api.submit(); });
        onEvent({ eventName: 'limepay_checkout_rendered' });
        return api;
      },
      submit: function () {
        if (!view) return fail(new Error('LimepayCheckout: render() first'));
        var cardNumber;
        try { cardNumber = view.read(); } catch (err) { return fail(err); }
        view.showError('');
        var body = amount ? { cardNumber: cardNumber, amount: amount } : { cardNumber: cardNumber };
        post('/sandbox/card-tokens', params.publicKey, body).then(function (res) {
          onEvent({ eventName: 'limepay_payment_token_created' });
          if (typeof params.paymentToken === 'function') params.paymentToken(res.paymentTokenId);
        }, fail);
      },
      handlePaymentActionRequired: function (action, onSuccess, onFailure) {
        onEvent({ eventName: 'limepay_card_3DS_pending' });
        var frame = h('iframe', { src: action.redirectURL, title: 'Card issuer verification (3DS)' });
        var overlay = h('div', { class: 'lp-overlay', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Card issuer verification' }, [frame]);
        addStyle();
        document.body.appendChild(overlay);
        function done(event) {
          var data = event.data || {};
          if (event.source !== frame.contentWindow || data.threeDSAuthorisationId !== action.threeDSAuthorisationId) return;
          window.removeEventListener('message', done);
          overlay.remove();
          if (data.limepay3DS === 'approved') {
            onEvent({ eventName: 'limepay_card_3DS_approved' });
            if (onSuccess) onSuccess();
          } else {
            onEvent({ eventName: 'limepay_card_3DS_declined' });
            if (onFailure) onFailure('The card issuer declined the verification');
          }
        }
        window.addEventListener('message', done);
      }
    };
    return api;
  }

  function createPaymentSource() {
    var params = {};
    var view = null;
    var api = {
      init: function (p) { params = p || {}; return api; },
      render: function (r) {
        var root = document.getElementById(r.elementId);
        if (!root) throw new Error('LimepayCheckout: no element #' + r.elementId);
        view = cardForm(root, r.primaryColor);
        if (r.showSubmit) button(view, 'Save card', function () { api.submit(function () {}); });
        return api;
      },
      submit: function (callback) {
        var cardNumber;
        try { cardNumber = view.read(); } catch (err) { view.showError(err.message); return; }
        view.showError('');
        post('/sandbox/card-sources', params.customerToken, { cardNumber: cardNumber }).then(function (source) {
          callback({ cardPaymentSource: { cardPaymentSourceId: source.paymentSourceId } });
        }, function (err) { view.showError(err.message); });
      }
    };
    return api;
  }

  window.LimepayCheckout = { createCheckout: createCheckout, createPaymentSource: createPaymentSource };
})();
`;
