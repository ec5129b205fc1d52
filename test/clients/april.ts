/**
 * The official April WooCommerce plugin 1.0.3, the current generation's own deployed client
 * (current-api-decisions.md, "What the official current client sends and reads"), on WordPress's HTTP
 * API: April_API::request builds `["Content-Type: application/json", "Content-Length: N"]` with an
 * `Authorization` key, so WordPress writes header lines named `0` and `1` and cURL labels the JSON body
 * `application/x-www-form-urlencoded` (fsockopen: `...; charset=UTF-8`). Written from reading the
 * plugin's calls (includes/april-api.php, woocommerce-april.php, april-customer.php); what it reads of
 * each answer is asserted as its code reads it.
 */
import { expect } from 'vitest';
import { CARDS, KEYS } from '../helpers/sandbox.js';
import { Recorder, type Target } from './replay.js';
import { float, phpJson } from './serializers.js';
import { wordPressRequest, type WordPressTransport } from './woocommerce.js';
import type { WireRequest } from './wire.js';

/** April_API::request: the JSON of wp_json_encode, the header list with an `Authorization` key, on WordPress's HTTP API. */
const request = (
  target: Target,
  transport: WordPressTransport,
  method: 'POST' | 'PATCH',
  path: string,
  data: unknown,
): WireRequest =>
  wordPressRequest(target, transport, method, path, phpJson(data), ['Authorization', `Bearer ${KEYS.soloSk}`]);

/** get_order_data(): amounts through round() (PHP floats), strings through strval(), the e-mail of a signed-in shopper. */
export function aprilOrderData(orderId: number, totalCents: number, virtual: boolean) {
  const address = virtual
    ? { line1: '', line2: '', city: '', state: '', postalCode: '', country: '' }
    : { line1: '1 George St', line2: '', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' };
  return {
    referenceOrderId: String(orderId),
    amount: { minorCurrencyUnits: float(totalCents), currency: 'AUD' },
    description: '1 item(s)',
    items: [
      {
        amount: { minorCurrencyUnits: float(totalCents), currency: 'AUD' },
        description: virtual ? 'E-book – “Café” edition' : 'Hat',
        sku: virtual ? '' : 'HAT-1',
        quantity: float(1),
        imageUrl: virtual ? '' : 'https://shop.example/wp-content/uploads/hat.jpg',
      },
    ],
    discountAmount: float(0),
    shipping: { amount: float(0), address, name: virtual ? ' ' : 'Jo Bloggs' },
    billing: {
      address: { line1: '1 George St', line2: '', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
      name: 'Jo Bloggs',
      phoneNumber: '',
    },
    customerEmailAddress: 'jo@example.com',
  };
}

/** The checkout component's part, as the shopper's browser does it: a card token with the public key (paymentMethodType Card). */
async function browserCard(target: Target, cardNumber: string): Promise<string> {
  const res = await fetch(`${target.base}/sandbox/card-tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEYS.soloPk}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cardNumber }),
  });
  const body = (await res.json()) as { paymentTokenId: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.paymentTokenId;
}

/** The component's createPaymentSource with the signed-in shopper's custom token. */
async function browserSavedCard(target: Target, customToken: string, cardNumber: string): Promise<string> {
  const res = await fetch(`${target.base}/sandbox/card-sources`, {
    method: 'POST',
    headers: { authorization: `Bearer ${customToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cardNumber }),
  });
  const body = (await res.json()) as { paymentSourceId: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.paymentSourceId;
}

/** Every server call of the plugin, in the order a signed-in shopper's checkouts make them. */
export async function aprilPlugin(target: Target, transport: WordPressTransport = 'curl'): Promise<Recorder> {
  const wp = new Recorder(target);
  const call = (step: string, method: 'POST' | 'PATCH', path: string, data: unknown) =>
    wp.call(step, request(target, transport, method, path, data));

  // April_Customer::create_customer (map_customer_data), then signin_customer for the checkout component
  const customer = await call('register customer', 'POST', 'customers', {
    RegisterPluginConsumerCustomer: {
      referenceCustomerId: '5',
      givenName: 'Jo',
      familyName: 'Bloggs',
      emailAddress: 'jo@example.com',
    },
  });
  expect(customer.status, customer.text).toBe(200);
  const customerId = customer.json.customerId as string;
  expect(customerId).toMatch(/^cust_/);
  const signin = await call('sign in', 'POST', 'auth/signin', { SignInConsumer: { customerId } });
  expect(signin.status, signin.text).toBe(200);
  const customToken = signin.json.customToken as string;
  expect(customToken).toEqual(expect.any(String));

  // a saved card (a subscription's source): generate_payment_token, create_april_order, then PayByPaymentToken (no payment data)
  const source = await browserSavedCard(target, customToken, CARDS.ok);
  const token = await call('saved-source token', 'POST', 'tokens', {
    CreateSavedPaymentSourceToken: {
      paymentSourceId: source,
      amount: { minorCurrencyUnits: float(2500), currency: 'AUD' },
    },
  });
  expect(token.status, token.text).toBe(200);
  const savedToken = token.json.SavedPaymentSourceToken.paymentTokenId as string;
  expect(savedToken).toMatch(/^ptkn_/);
  const virtual = await call('create order', 'POST', 'orders', { CreateOnlineOrder: aprilOrderData(201, 2500, true) });
  expect(virtual.status, virtual.text).toBe(200);
  const virtualOrder = virtual.json.OnlineOrder.order.orderId as string;
  expect(virtualOrder).toMatch(/^ordr_/);
  const paid = await call('pay with the saved-source token', 'POST', `orders/${virtualOrder}/pay`, {
    PayByPaymentToken: { paymentTokenId: savedToken },
  });
  expect(paid.status, paid.text).toBe(200);
  expect(paid.json).toHaveProperty('PayOrderComplete');
  const transactionId = paid.json.PayOrderComplete.transactionId as string;
  expect(transactionId).toMatch(/^tran_/);

  // a card (paymentMethodType Card) over minimum_amount_3ds: PayByCard with request3DS, the challenge kept
  // as JSON on the order, then Confirm3DSComplete echoing the whole ThreeDSAuthorisationRequired object
  const order3ds = await call('create order', 'POST', 'orders', {
    CreateOnlineOrder: aprilOrderData(202, 15_000, false),
  });
  expect(order3ds.status, order3ds.text).toBe(200);
  const order3dsId = order3ds.json.OnlineOrder.order.orderId as string;
  const cardToken = await browserCard(target, CARDS.threeDS);
  const challenge = await call('pay by card with 3DS', 'POST', `orders/${order3dsId}/pay`, {
    PayByCard: { paymentTokenId: cardToken, request3DS: true },
  });
  expect(challenge.status, challenge.text).toBe(200);
  expect(challenge.json).toHaveProperty('ThreeDSAuthorisationRequired');
  const saved = JSON.parse(JSON.stringify(challenge.json.ThreeDSAuthorisationRequired)) as Record<string, unknown>;
  expect(Object.keys(saved)).toEqual(expect.arrayContaining(['threeDSAuthorisationId', 'redirectUrl']));
  const confirmed = await call('confirm 3DS', 'POST', `orders/${order3dsId}/pay`, {
    Confirm3DSComplete: { paymentTokenId: cardToken, threeDSResponse: saved },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  expect(confirmed.json.PayOrderComplete.transactionId).toMatch(/^tran_/);

  // a declined card: get_error_message reads errorCode (the plugin's own sentence for do_not_honor)
  const declinedOrder = await call('create order', 'POST', 'orders', {
    CreateOnlineOrder: aprilOrderData(203, 900, false),
  });
  const declined = await call(
    'pay by card, declined',
    'POST',
    `orders/${declinedOrder.json.OnlineOrder.order.orderId}/pay`,
    {
      PayByCard: { paymentTokenId: await browserCard(target, CARDS.decline), request3DS: false },
    },
  );
  expect(declined.status).toBeGreaterThanOrEqual(400);
  expect(declined.status).toBeLessThanOrEqual(499);
  expect(declined.json).toMatchObject({
    errorCode: 'do_not_honor',
    message: expect.any(String),
    detail: expect.any(String),
    tracer: expect.any(String),
  });

  // process_refund: HTTP 200 is all it reads; beyond the amount, the error's code reaches the shop
  const refund = await call('refund', 'PATCH', `transactions/${transactionId}`, {
    CreateRefund: { refundAmount: float(1000) },
  });
  expect(refund.status, refund.text).toBe(200);
  const tooMuch = await call('refund beyond the amount', 'PATCH', `transactions/${transactionId}`, {
    CreateRefund: { refundAmount: float(10_000) },
  });
  expect(tooMuch.status).toBe(400);
  expect(tooMuch.json.errorCode).toBe('refund_exceeds_amount');
  return wp;
}
