/**
 * The WooCommerce plugin 4.2.3 on WordPress's HTTP API (legacy-api.md section 0): Limepay_API::request
 * builds `["Content-Type: application/json", "Content-Length: N"]` plus `Limepay-SecretKey`, WordPress
 * flattens the list into header lines named `0` and `1`, and cURL sends the JSON body as
 * `application/x-www-form-urlencoded` (the fsockopen transport adds `; charset=UTF-8`). The header lines
 * are those WordPress 6.1 wrote when the plugin's own code ran (`npm run field`). What the plugin reads
 * is asserted as its code reads it.
 */
import { expect } from 'vitest';
import { CARDS, KEYS } from '../helpers/sandbox.js';
import { browserCardToken, browserSavedCard, Recorder, type Target } from './replay.js';
import { float, phpJson } from './serializers.js';
import { hostOf, type WireRequest } from './wire.js';

export type WordPressTransport = 'curl' | 'fsockopen';

/**
 * A plugin's call as WordPress 6.1's Requests writes it: the plugin's own header list (`0:`/`1:` lines
 * included) inside the header lines of the transport, in the order captured from its two transports.
 */
export function wordPressRequest(
  target: Target,
  transport: WordPressTransport,
  method: string,
  path: string,
  body: string,
  credential: [string, string],
): WireRequest {
  const length = String(Buffer.byteLength(body));
  const plugin: [string, string][] = [
    ['0', 'Content-Type: application/json'],
    ['1', `Content-Length: ${length}`],
    credential,
  ];
  const headers: [string, string][] =
    transport === 'curl'
      ? [
          ['Host', hostOf(target.base)],
          ['User-Agent', 'WordPress/6.1.9; https://shop.example'],
          ['Accept', '*/*'],
          ['Accept-Encoding', 'deflate, gzip, br, zstd'],
          ['Referer', `${target.base}/${path}`],
          ...plugin,
          ['Connection', 'close'],
          ['Content-Length', length],
          ['Content-Type', 'application/x-www-form-urlencoded'],
        ]
      : [
          ['Host', hostOf(target.base)],
          ['User-Agent', 'WordPress/6.1.9; https://shop.example'],
          ['Accept-Encoding', 'deflate;q=1.0, compress;q=0.5, gzip;q=0.5'],
          ...plugin,
          ['Content-Length', length],
          ['Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8'],
          ['Connection', 'Close'],
        ];
  return { method, path: `/${path}`, headers, body };
}

const request = (target: Target, transport: WordPressTransport, path: string, data: unknown): WireRequest =>
  wordPressRequest(target, transport, 'POST', path, phpJson(data), ['Limepay-SecretKey', KEYS.soloSk]);

/** get_order_data(): every string through strval(), amounts through round() (PHP floats). */
export function orderData(orderId: number, totalCents: number, virtual: boolean) {
  const address = virtual
    ? { city: '', country: '', line1: '', line2: '', postalCode: '', state: '' }
    : { city: 'Sydney', country: 'AU', line1: '1 George St', line2: '', postalCode: '2000', state: 'NSW' };
  return {
    internalOrderId: String(orderId),
    paymentAmount: { amount: float(totalCents), currency: 'AUD' },
    description: '',
    items: [
      {
        description: virtual ? 'E-book – “Café” edition' : 'Hat',
        quantity: float(1),
        amount: float(totalCents),
        currency: 'AUD',
        sku: virtual ? '' : 'HAT-1',
        imageUrl: virtual ? '' : 'https://shop.example/wp-content/uploads/hat.jpg',
      },
    ],
    discount: { amount: float(0) },
    shipping: { amount: float(0), address, name: virtual ? ' ' : 'Jo Bloggs' },
    billing: {
      address: { city: 'Sydney', country: 'AU', line1: '1 George St', line2: '', postalCode: '2000', state: 'NSW' },
      name: 'Jo Bloggs',
      email: 'jo@example.com',
      phone: '',
    },
    customerEmail: 'jo@example.com',
  };
}

export async function wooCommerce(target: Target, transport: WordPressTransport = 'curl'): Promise<Recorder> {
  const wp = new Recorder(target);
  const post = (step: string, path: string, data: unknown) => wp.call(step, request(target, transport, path, data));

  // Limepay_Customer::create_customer, then signin_customer
  const customer = await post('L28 create customer', 'customers/plugin', {
    givenName: 'Jo',
    familyName: 'Bloggs',
    emailAddress: 'jo@example.com',
  });
  expect(customer.status).toBe(200);
  const customerId = customer.json.customerId as string;
  expect(customerId).toMatch(/^cust_/);
  const signin = await post('L29 sign in', 'authn/tenants/accounts:signinCustomerWithCustomerId', { customerId });
  expect(signin.status).toBe(200);
  expect(signin.json.customToken).toEqual(expect.any(String));

  // a virtual product paid with a saved card: generate_payment_token, create_limepay_order, pay_for_limepay_order
  const source = await browserSavedCard(target, customerId, CARDS.ok);
  const token = await post('L19 saved-card token', 'payments/saved-card', {
    cardPaymentSourceId: source,
    paymentAmount: { amount: float(2500), currency: 'AUD' },
  });
  expect(token.status).toBe(201);
  expect(token.json.paymentTokenId).toMatch(/^ptkn_/);
  const virtual = await post('L1 virtual order', 'orders', orderData(101, 2500, true));
  expect(virtual.status).toBe(200);
  expect(virtual.json.merchantOrderId).toMatch(/^ordr_/);
  const paid = await post('L4 pay', `orders/${virtual.json.merchantOrderId}/pay`, {
    paymentToken: token.json.paymentTokenId,
    request3DS: false,
  });
  expect(paid.status).toBe(200);
  expect(paid.json.transactionId).toMatch(/^tran_/);

  // request3DS chosen by amount: the 403 is saved as JSON and sent back after the challenge
  const order3ds = await post('L1 order', 'orders', orderData(102, 15_000, false));
  const paymentToken = await browserCardToken(target, CARDS.threeDS);
  const challenge = await post('L4 pay with 3DS', `orders/${order3ds.json.merchantOrderId}/pay`, {
    paymentToken,
    request3DS: true,
  });
  expect(challenge.status).toBe(403);
  expect(challenge.json.paymentActionRequired).toMatchObject({
    threeDSAuthorisationId: expect.any(String),
    redirectURL: expect.any(String),
  });
  const saved = JSON.parse(JSON.stringify(challenge.json.paymentActionRequired));
  const completed = await post('L4 complete 3DS', `orders/${order3ds.json.merchantOrderId}/pay`, {
    paymentToken,
    request3DS: true,
    paymentActionRequired: saved,
  });
  expect(completed.status).toBe(200);
  expect(completed.json.transactionId).toMatch(/^tran_/);

  // a declined card: get_error_message reads errorCode, message, detail, tracer
  const declinedOrder = await post('L1 order', 'orders', orderData(103, 900, false));
  const declined = await post('L4 declined', `orders/${declinedOrder.json.merchantOrderId}/pay`, {
    paymentToken: await browserCardToken(target, CARDS.decline),
    request3DS: false,
  });
  expect(declined.status).toBe(400);
  expect(declined.json).toMatchObject({
    errorCode: 'do_not_honor',
    message: expect.any(String),
    detail: expect.any(String),
    tracer: expect.any(String),
  });

  // process_refund: HTTP 200 is all it reads
  const refund = await post('L7 refund', 'refunds', {
    transactionId: paid.json.transactionId,
    refundAmount: { amount: float(1000), currency: 'AUD' },
  });
  expect(refund.status).toBe(200);
  return wp;
}
