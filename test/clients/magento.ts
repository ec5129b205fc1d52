/**
 * The Magento 2 plugin (Lpcheckout) on cURL (legacy-api.md section 0): `Content-Type: application/json`,
 * `Content-Length`, `Limepay-SecretKey`; bodies from json_encode with Magento's values as they come
 * (quantities as decimal strings, totals as PHP floats, a guest's empty email, `paymentActionRequired:
 * null` on the first pay call).
 */
import { expect } from 'vitest';
import { CARDS, KEYS } from '../helpers/sandbox.js';
import { browserCardToken, Recorder, type Target } from './replay.js';
import { float, phpJson } from './serializers.js';
import { hostOf, type WireRequest } from './wire.js';

/**
 * A POST as the plugin's cURL writes it. libcurl before 7.69 (still on many PHP hosts) adds `Expect:
 * 100-continue` to a body over 1 KiB and sends the body only after the server's `100 Continue`.
 */
function request(target: Target, resource: string, params: unknown): WireRequest {
  const body = phpJson(params);
  const length = Buffer.byteLength(body);
  return {
    method: 'POST',
    path: `/${resource}`,
    headers: [
      ['Host', hostOf(target.base)],
      ['Accept', '*/*'],
      ['Content-Type', 'application/json'],
      ['Content-Length', String(length)],
      ['Limepay-SecretKey', KEYS.soloSk],
      ...(length > 1024 ? ([['Expect', '100-continue']] as [string, string][]) : []),
    ],
    body,
  };
}

/** A cart of several products, as MerchantOrder::buildRequest lists each visible item: a body over 1 KiB. */
function buildCartRequest(incrementId: string) {
  const order = buildRequest(incrementId, 21_500);
  const products = [
    ['Fusion Backpack', '24-MB02', 5_900],
    ['Push It Messenger Bag', '24-WB04', 4_500],
    ['Driven Backpack', '24-MB03', 3_600],
    ['Overnight Duffle', '24-WB07', 4_500],
    ['Sprite Yoga Strap 6 foot', '24-WG085', 1_400],
  ] as const;
  order.items = products.map(([description, sku, amount]) => ({
    description,
    sku,
    amount: float(amount),
    currency: 'AUD',
    quantity: '1.0000',
    imageUrl: `https://magento.example/media/catalog/product/cache/1/small_image/${sku.toLowerCase()}.jpg`,
  }));
  order.description = `${products.length} item(s)`;
  return order;
}

/** MerchantOrder::buildRequest for a guest order with one simple product. */
function buildRequest(incrementId: string, grandTotal: number) {
  return {
    internalOrderId: incrementId,
    paymentAmount: { amount: float(grandTotal), currency: 'AUD' },
    customerEmail: '',
    items: [
      {
        description: 'Fusion Backpack',
        sku: '24-MB02',
        amount: float(grandTotal - 1000),
        currency: 'AUD',
        quantity: '1.0000',
        imageUrl: 'https://magento.example/media/catalog/product/cache/1/small_image/mb02.jpg',
      },
    ],
    description: '1 item(s)',
    discount: { amount: float(-0) },
    billing: {
      address: {
        city: 'Melbourne',
        country: 'AU',
        line1: '12 Collins St',
        line2: '',
        postalCode: '3000',
        state: 'Victoria',
      },
      phone: '+61 3 9000 0000',
      name: 'Sam Citizen',
    },
    shipping: {
      amount: float(1000),
      address: {
        city: 'Melbourne',
        country: 'AU',
        line1: '12 Collins St',
        line2: '',
        postalCode: '3000',
        state: 'Victoria',
      },
      carrier: 'Flat Rate - Fixed',
      phone: '+61 3 9000 0000',
      name: 'Sam Citizen',
    },
  };
}

export async function magento(target: Target): Promise<Recorder> {
  const m2 = new Recorder(target);
  const post = (step: string, resource: string, params: unknown) => m2.call(step, request(target, resource, params));

  // Customer::create reads customerId from an object; the same Magento customer again is the same customer
  const created = await post('L28 upsert customer', 'customers/plugin', {
    internalCustomerId: '42',
    emailAddress: 'sam@example.com',
  });
  expect(created.status).toBe(200);
  expect(created.json.customerId).toMatch(/^cust_/);
  const again = await post('L28 upsert customer again', 'customers/plugin', {
    internalCustomerId: 42,
    emailAddress: 'sam@example.com',
  });
  expect(again.json.customerId).toBe(created.json.customerId);
  const signin = await post('L29 sign in', 'authn/tenants/accounts:signinCustomerWithCustomerId', {
    customerId: created.json.customerId,
  });
  expect(signin.status).toBe(200);
  expect(signin.json.customToken).toEqual(expect.any(String));

  // Transaction::create: paymentAction is null unless a 3DS challenge is pending
  const order = await post('L1 order', 'orders', buildRequest('000000101', 12_500));
  expect(order.status).toBe(200);
  const paid = await post('L4 pay', `orders/${order.json.merchantOrderId}/pay`, {
    paymentToken: await browserCardToken(target, CARDS.ok),
    request3DS: false,
    paymentActionRequired: null,
  });
  expect(paid.status).toBe(200);
  expect(paid.json.transactionId).toMatch(/^tran_/);

  const order3ds = await post('L1 order', 'orders', buildRequest('000000102', 30_000));
  const paymentToken = await browserCardToken(target, CARDS.threeDS);
  const challenge = await post('L4 pay with 3DS', `orders/${order3ds.json.merchantOrderId}/pay`, {
    paymentToken,
    request3DS: true,
    paymentActionRequired: null,
  });
  expect(challenge.status).toBe(403);
  expect(challenge.json).toHaveProperty('paymentActionRequired');
  const completed = await post('L4 complete 3DS', `orders/${order3ds.json.merchantOrderId}/pay`, {
    paymentToken,
    request3DS: true,
    paymentActionRequired: challenge.json.paymentActionRequired,
  });
  expect(completed.status).toBe(200);

  // a cart of five products: over 1 KiB, so cURL sends it with Expect: 100-continue
  const cartBody = phpJson(buildCartRequest('000000103'));
  expect(Buffer.byteLength(cartBody)).toBeGreaterThan(1024);
  const cart = await post('L1 order of a cart (Expect: 100-continue)', 'orders', buildCartRequest('000000103'));
  expect(cart.status, JSON.stringify(cart.json)).toBe(200);
  expect(cart.json.merchantOrderId).toMatch(/^ordr_/);
  const cartPaid = await post('L4 pay the cart', `orders/${cart.json.merchantOrderId}/pay`, {
    paymentToken: await browserCardToken(target, CARDS.ok),
    request3DS: false,
    paymentActionRequired: null,
  });
  expect(cartPaid.status).toBe(200);

  // Transaction::refund: convertToCents gives a float
  const refund = await post('L7 refund', 'refunds', {
    transactionId: paid.json.transactionId,
    refundAmount: { amount: float(12_500), currency: 'AUD' },
  });
  expect(refund.status).toBe(200);
  const again2 = await post('L7 refund beyond the amount', 'refunds', {
    transactionId: paid.json.transactionId,
    refundAmount: { amount: float(100), currency: 'AUD' },
  });
  expect([400, 409]).toContain(again2.status);
  expect(again2.json).toMatchObject({ errorCode: expect.any(String), message: expect.any(String) });
  return m2;
}
