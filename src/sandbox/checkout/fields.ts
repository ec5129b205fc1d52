/**
 * The card fields, as the sandbox serves them at `/sandbox/card-fields`: a page on the payment origin
 * the checkout component frames inside the shop's page. Card number, expiry and CVC live only here;
 * the page tokenises them with its own origin (the sandbox, or the gateway in front of it) and tells
 * the component the token id by `postMessage`, to the one origin that framed it. The shop's page, form
 * and server never see card data.
 *
 * Messages (each an object with `lp`): from the component `init {params}` and `submit`; to it
 * `ready`, `size {height}`, `token {paymentTokenId, paymentMethodType}`, `source {paymentSourceId}`,
 * `error {message}`, `event {eventName}` (without the generation's prefix: the component adds it).
 *
 * `paymentMethodType` says what the token pays with, as the current generation's plugin reads it to
 * choose its pay action: `Card` a card typed here (PayByCard), `SavedPaymentSource` a saved card,
 * `PayPlan` pay later, `Wallet` the sandbox's test wallet (PayByPaymentToken for the three).
 */

/** Bytes the page may take; a test holds it to this. */
export const CARD_FIELDS_BUDGET_BYTES = 24 * 1024;

export const CARD_FIELDS_PAGE = String.raw`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card details</title>
<style>
body{margin:0;font:15px system-ui,sans-serif;color:#222;background:#fff}[hidden]{display:none!important}
.lp{border:1px solid #ccc;border-radius:6px;padding:12px}
label{display:block;margin:8px 0 2px}input[type=text]{font:inherit;padding:6px;width:100%;box-sizing:border-box}
.row{display:flex;gap:8px}.row>div{flex:1}.err{color:#b3261e;min-height:1.2em;margin:8px 0 0}.hint{color:#555;font-size:13px}
fieldset{border:0;padding:0;margin:0 0 8px}legend{font-weight:600;padding:0}.opt{display:flex;gap:6px;align-items:center;margin:4px 0}
.opt label{margin:0}.plan{color:#333;font-size:14px;margin:4px 0 0 24px}button{font:inherit;margin-top:10px;padding:8px 14px;color:#fff;border:0;border-radius:4px;cursor:pointer}
#wallet{background:#000;margin:0 0 8px}.link{background:none;color:inherit;padding:0;margin:0;text-decoration:underline}
</style></head>
<body><div class="lp" id="lp">
<fieldset id="choice" hidden><legend>How would you like to pay?</legend>
<div class="opt"><input type="radio" name="lp-pay" id="lp-full" value="full"><label for="lp-full">Pay in full</label></div>
<div class="opt"><input type="radio" name="lp-pay" id="lp-later" value="later"><label for="lp-later">Pay later</label></div>
<p class="plan" id="plan"></p></fieldset>
<fieldset id="saved" hidden><legend>Saved cards</legend><div id="saved-list"></div>
<div class="opt"><input type="radio" name="lp-card" id="lp-new" value="" checked><label for="lp-new">A new card</label></div></fieldset>
<div id="wallet-row" hidden><button type="button" id="wallet">Sandbox Pay</button> <span class="hint">a test wallet holding 4242 4242 4242 4242</span></div>
<p id="wallet-chosen" hidden>Sandbox Pay is ready: place the order to pay. <button type="button" id="wallet-undo" class="link">Use a card instead</button></p>
<div id="card">
<label for="number">Card number</label><input type="text" id="number" autocomplete="cc-number" inputmode="numeric" placeholder="4242 4242 4242 4242">
<div class="row"><div><label for="expiry">Expiry (MM/YY)</label><input type="text" id="expiry" autocomplete="cc-exp" inputmode="numeric" placeholder="MM/YY"></div>
<div><label for="cvc">Security code (CVC)</label><input type="text" id="cvc" autocomplete="cc-csc" inputmode="numeric" placeholder="123"></div></div>
</div>
<p class="err" id="err" role="alert" aria-live="assertive"></p>
<div id="buttons"></div>
<p class="hint">Sandbox test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined, 4000 0000 0000 3220 asks for 3DS.</p>
</div>
<script>
(function () {
  'use strict';
  var match = /[#&]parent=([^&]+)/.exec(window.location.hash);
  var PARENT = match ? decodeURIComponent(match[1]) : '';
  var MODE = /[?&]mode=source/.test(window.location.search) ? 'source' : 'checkout';
  var VARIANT = { name: 'payplan_fortnight_25_25_25_25', count: 4, every: 'fortnight' };
  var WALLET_CARD = '4242424242424242';
  var params = null;
  var busy = false;
  /** The wallet's token, kept for the next submit when the shop asked to place wallet orders itself (preventWalletSubmit). */
  var wallet = null;
  var walletOffered = false;
  function $(id) { return document.getElementById(id); }

  function send(message) {
    if (PARENT && window.parent !== window) window.parent.postMessage(message, PARENT);
  }
  function resize() { send({ lp: 'size', height: document.documentElement.scrollHeight }); }
  function showError(message) { $('err').textContent = message || ''; resize(); }

  function call(method, path, credential, body) {
    var headers = { Authorization: 'Bearer ' + credential };
    if (body) headers['Content-Type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body ? JSON.stringify(body) : undefined }).then(function (res) {
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

  function readCard() {
    var digits = $('number').value.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(digits) || !luhn(digits)) throw new Error('Enter a valid card number');
    var m = /^\s*(\d{2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec($('expiry').value);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) throw new Error('Enter the expiry as MM/YY');
    var year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
    var now = new Date();
    if (year < now.getFullYear() || (year === now.getFullYear() && Number(m[1]) < now.getMonth() + 1)) throw new Error('The card has expired');
    if (!/^\d{3,4}$/.test($('cvc').value.trim())) throw new Error('Enter the 3 or 4 digit security code');
    return digits;
  }

  function money(minor) { return (minor / 100).toFixed(2) + ' ' + params.currency; }
  function amount() { return params.amount > 0 && params.currency ? { minorCurrencyUnits: params.amount, currency: params.currency } : undefined; }
  function payLater() { return !$('choice').hidden ? $('lp-later').checked : params.payLaterOnly; }
  function savedSource() { var c = document.querySelector('input[name=lp-card]:checked'); return c && c.value ? c.value : null; }

  // a pay plan takes the card typed here: the saved cards and the wallet are for paying in full
  function layout() {
    var later = payLater();
    $('saved').hidden = later || wallet !== null || !$('saved-list').children.length;
    $('wallet-row').hidden = later || !walletOffered || wallet !== null;
    $('wallet-chosen').hidden = later || wallet === null;
    $('card').hidden = !later && (wallet !== null || savedSource() !== null);
    resize();
  }

  function renderChoice() {
    var later = !params.hidePayLater && params.amount > 0;
    var full = !params.hideFullPay || !later;
    params.payLaterOnly = later && !full;
    if (later) {
      var each = Math.ceil(params.amount / VARIANT.count);
      $('plan').textContent = VARIANT.count + ' payments of about ' + money(each) + ', one every ' + VARIANT.every + ', the first today.';
      if (!params.customerToken) {
        $('lp-later').disabled = true;
        $('plan').textContent = 'Pay later needs a customer account: sign in to the shop first.';
      }
    }
    walletOffered = full;
    $('choice').addEventListener('change', layout);
    if (later && full) {
      $('choice').hidden = false;
      (params.paymentType === 'payplan' && !$('lp-later').disabled ? $('lp-later') : $('lp-full')).checked = true;
    } else if (later) {
      $('choice').hidden = false;
      $('lp-full').parentNode.hidden = true;
      $('lp-later').checked = true;
    }
  }

  function renderSaved() {
    if (!params.customerToken || params.hideSavedCards) return Promise.resolve();
    return call('GET', '/sources', params.customerToken).then(function (answer) {
      var items = Array.isArray(answer) ? answer : (answer.items || []);
      var cards = items.filter(function (s) { return s.sourceMethod && s.sourceMethod.CardMethodResp; });
      cards.forEach(function (s) {
        var row = document.createElement('div');
        row.className = 'opt';
        var input = document.createElement('input');
        input.type = 'radio'; input.name = 'lp-card'; input.id = 'src-' + s.paymentSourceId; input.value = s.paymentSourceId;
        var label = document.createElement('label');
        label.htmlFor = input.id; label.textContent = 'Card ' + s.sourceMethod.CardMethodResp.cardHint;
        row.appendChild(input); row.appendChild(label);
        $('saved-list').appendChild(row);
      });
      $('saved').addEventListener('change', layout);
    }, function () { /* no saved cards shown: the shopper types a card */ });
  }

  function addButton(label) {
    var b = document.createElement('button');
    b.type = 'button'; b.textContent = label; b.style.background = params.primaryColor || '#1f6f43';
    b.addEventListener('click', submit);
    $('buttons').appendChild(b);
  }

  function init(p) {
    if (params) return;
    params = p || {};
    if (params.primaryColor) document.documentElement.style.setProperty('accent-color', params.primaryColor);
    if (MODE === 'checkout') {
      renderChoice();
      if (params.showPayNow) addButton('Pay Now');
      if (params.showPayPlanSubmit && !params.hidePayLater) addButton('Submit Payment Plan');
    } else if (params.showSubmit) addButton('Save card');
    renderSaved().then(function () {
      layout();
      send({ lp: 'event', eventName: 'checkout_rendered' });
    });
  }

  // the sandbox's wallet (as Apple Pay or Google Pay): a token at once; placed now, or by the shop's next submit
  function payByWallet() {
    run(function () {
      var body = { cardNumber: WALLET_CARD };
      if (amount()) body.amount = amount();
      return call('POST', '/sandbox/card-tokens', params.publicKey, body).then(function (t) { return { lp: 'token', paymentTokenId: t.paymentTokenId, paymentMethodType: 'Wallet' }; });
    }, function (message) {
      if (!params.preventWalletSubmit) return send(message);
      wallet = message;
      layout();
    });
  }
  $('wallet').addEventListener('click', payByWallet);
  $('wallet-undo').addEventListener('click', function () { wallet = null; layout(); });

  function tokenise() {
    var source = payLater() ? null : savedSource();
    if (MODE === 'source') {
      if (source) return Promise.resolve({ lp: 'source', paymentSourceId: source });
      return call('POST', '/sandbox/card-sources', params.customerToken, { cardNumber: readCard() })
        .then(function (s) { return { lp: 'source', paymentSourceId: s.paymentSourceId }; });
    }
    if (source)
      return call('POST', '/tokens', params.customerToken, { CreateSavedPaymentSourceToken: { paymentSourceId: source, amount: amount() } })
        .then(function (t) { return { lp: 'token', paymentTokenId: t.SavedPaymentSourceToken.paymentTokenId, paymentMethodType: 'SavedPaymentSource' }; });
    var body = { cardNumber: readCard() };
    if (amount()) body.amount = amount();
    if (payLater()) {
      if (!params.customerToken) throw new Error('Pay later needs a customer account: sign in to the shop first');
      body.payPlan = { payPlanVariant: VARIANT.name };
      return call('POST', '/sandbox/card-tokens', params.customerToken, body).then(function (t) { return { lp: 'token', paymentTokenId: t.paymentTokenId, paymentMethodType: 'PayPlan' }; });
    }
    return call('POST', '/sandbox/card-tokens', params.publicKey, body).then(function (t) { return { lp: 'token', paymentTokenId: t.paymentTokenId, paymentMethodType: 'Card' }; });
  }

  function failed(err) { showError(err.message); send({ lp: 'error', message: err.message }); }
  /** One tokenising step at a time: its message handed to then, or its error shown here and sent to the component. */
  function run(start, then) {
    if (!params || busy) return;
    var pending;
    try { pending = start(); } catch (err) { return failed(err); }
    busy = true;
    showError('');
    pending.then(function (message) { busy = false; then(message); }, function (err) { busy = false; failed(err); });
  }

  function submit() {
    if (wallet && !payLater() && !busy) {
      var chosen = wallet;
      wallet = null;
      layout();
      return send(chosen);
    }
    run(tokenise, send);
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== PARENT) return;
    var data = event.data || {};
    if (data.lp === 'init') init(data.params);
    else if (data.lp === 'submit') submit();
  });
  if (typeof ResizeObserver === 'function')
    new ResizeObserver(function () { send({ lp: 'size', height: document.documentElement.scrollHeight }); }).observe($('lp'));
  send({ lp: 'ready' });
})();
</script></body></html>
`;
