/**
 * The LimepayApi.Net SDK (legacy-api.md section 0): HttpClient with `Content-Type:
 * application/json;charset=utf-8` and `Limepay-SecretKey` on the content of POST, PUT and PATCH, only
 * `Limepay-SecretKey` on GET and DELETE; bodies from DataContractJsonSerializer (members in ordinal
 * order, nulls and false/0 defaults omitted by the models). Answers are checked against the SDK's
 * data contracts: DataContractJsonSerializer throws on a string where a class is expected (the old
 * `transactionPayType`) and on null in a non-nullable Int64 or int member.
 */
import { expect } from 'vitest';
import { z } from 'zod';
import { CARDS, KEYS } from '../helpers/sandbox.js';
import { browserCardToken, Recorder, type Target } from './replay.js';
import { dataContractJson } from './serializers.js';
import { hostOf, type WireRequest } from './wire.js';

const str = z.string().nullable().optional();
const int64 = z.int().nullable().optional();
/** A member the SDK declares `Int64` or `int` (not nullable): absent is fine, null is not. */
const int64NotNull = z.int().optional();
const address = z
  .object({ line1: str, line2: str, country: str, city: str, postalCode: str, state: str })
  .nullable()
  .optional();

/** OrderCreateResponse and its members, as the SDK's classes type them. */
const OrderCreateResponse = z.object({
  merchantOrderId: z.string(),
  merchantId: str,
  marketplaceId: str,
  internalOrderId: str,
  amount: int64,
  currency: str,
  customerEmail: str,
  phoneNo: str,
  type: str,
  description: str,
  items: z
    .array(
      z.object({
        amount: z.number().optional(),
        currency: str,
        description: str,
        sku: str,
        quantity: int64NotNull,
        imageUrl: str,
      }),
    )
    .nullable()
    .optional(),
  discount: z.object({ amount: int64 }).nullable().optional(),
  shipping: z
    .object({ amount: int64NotNull, address, carrier: str, name: str, phone: str, trackingNumber: str })
    .nullable()
    .optional(),
  billing: z.object({ address, name: str, phone: str }).nullable().optional(),
  metadata: z.object({ name: str, value: str }).nullable().optional(),
  status: str,
  createdAt: str,
  updatedAt: str,
});
const TransactionResponse = z.object({
  transactionId: str,
  transactionStatus: str,
  amount: int64,
  currency: str,
  type: str,
});
const PaymentActionResponse = z.object({
  paymentToken: z.string(),
  paymentActionRequired: z.object({ threeDSAuthorisationId: z.string(), redirectURL: z.string() }),
});
const PaymentResponse = z.object({
  _id: z.string(),
  merchantId: str,
  marketplaceId: str,
  merchantOrderId: str,
  transactionPayType: z
    .object({ bankTransferId: str, payCardId: str, payDeferralId: str, PayPlanId: str })
    .nullable()
    .optional(),
  amount: int64,
  currency: str,
  status: str,
  statusBeforeDispute: str,
  lastChargeId: str,
  refundedAmount: int64,
  payoutId: str,
  createdAt: str,
  updatedAt: str,
  fee: int64,
});
const RefundResponse = z.object({ refundId: z.string() });
const OrderCreateInvoiceResponse = z.object({ order: OrderCreateResponse, token: z.string(), magicLink: z.string() });
/** HandleResponseError: `message` (or error.message) becomes the exception's message. */
const LimepayApiError = z.object({ message: z.string().min(1) });

function request(target: Target, method: string, path: string, data?: unknown): WireRequest {
  const host: [string, string] = ['Host', hostOf(target.base)];
  if (data === undefined) return { method, path, headers: [host, ['Limepay-SecretKey', KEYS.soloSk]] };
  const body = dataContractJson(data);
  return {
    method,
    path,
    headers: [
      host,
      ['Content-Type', 'application/json;charset=utf-8'],
      ['Limepay-SecretKey', KEYS.soloSk],
      ['Content-Length', String(Buffer.byteLength(body))],
    ],
    body,
  };
}

/** LimepayCommon.CreateRequest as a merchant fills it in (the SDK's own tests use placeholders). */
function createOrderRequest(internalOrderId: string, phoneNo = '+61 400 000 000', orderType?: string) {
  const addr = {
    line1: '5 Queen St',
    line2: 'Level 2',
    country: 'AU',
    city: 'Brisbane',
    postalCode: '4000',
    state: 'QLD',
  };
  return {
    internalOrderId,
    paymentAmount: { amount: 1500, currency: 'AUD' },
    customerEmail: 'buyer@domain.example',
    phoneNo,
    description: 'Order Description',
    items: [
      {
        amount: 750,
        currency: 'AUD',
        description: 'Obey propaganda hat',
        sku: 'SKU1',
        quantity: 1,
        imageUrl: 'https://yourdomain.example/images/thumbs/0000062_obey-propaganda-hat.jpeg',
      },
      {
        amount: 750,
        currency: 'AUD',
        description: 'Ray-Ban aviator sunglasses',
        sku: 'SKU2',
        quantity: 1,
        imageUrl: 'https://yourdomain.example/images/thumbs/0000064_ray-ban.jpeg',
      },
    ],
    discount: { amount: 0 },
    shipping: {
      amount: 1,
      address: addr,
      carrier: 'Carrier',
      name: 'Name',
      phone: '+61 400 000 001',
      trackingNumber: 'TrackingNumber',
    },
    billing: { address: addr, name: 'Name', phone: '+61 400 000 002' },
    metadata: { name: 'version', value: 'v4.4' },
    ...(orderType ? { orderType } : {}),
  };
}

const cardStatement = { name: 'JohnDoe', city: 'City' };

export async function dotnetSdk(target: Target): Promise<Recorder> {
  const sdk = new Recorder(target);
  const call = (step: string, method: string, path: string, data?: unknown) =>
    sdk.call(step, request(target, method, path, data));

  // Orders.Create, Orders.Get
  const created = await call(
    'L1 Orders.Create',
    'POST',
    '/orders',
    createOrderRequest('Order123', undefined, 'online'),
  );
  expect(created.status).toBe(200);
  const order = OrderCreateResponse.parse(created.json);
  expect(order.marketplaceId).toBeNull();
  const got = await call('L3 Orders.Get', 'GET', `/orders/${order.merchantOrderId}`);
  expect(OrderCreateResponse.parse(got.json)).toMatchObject({
    merchantOrderId: order.merchantOrderId,
    metadata: { name: 'version', value: 'v4.4' },
  });

  // Orders.AuthorizeOrder (authoriseOnly), Payments.CaptureTransaction with an Int64 captureAmount
  const auth = await call('L4 Orders.AuthorizeOrder', 'POST', `/orders/${order.merchantOrderId}/pay`, {
    paymentToken: await browserCardToken(target, CARDS.ok),
    returnURL: 'https://yourdomain.example/',
    authoriseOnly: true,
    cardStatement,
  });
  expect(auth.status).toBe(200);
  const authorised = TransactionResponse.parse(auth.json);
  expect(authorised.transactionStatus).toBe('not_captured');
  const captured = await call(
    'L9 Payments.CaptureTransaction',
    'POST',
    `/transactions/${authorised.transactionId}/authorisation:capture`,
    { captureAmount: 1000 },
  );
  expect(captured.status).toBe(200);
  expect(PaymentResponse.parse(captured.json)).toMatchObject({
    status: 'paid',
    amount: 1000,
    transactionPayType: { payCardId: authorised.transactionId!.replace(/^tran_/, 'card_') },
  });

  // Payments.CaptureTransaction(id, new CreateCaptureRequest()): captureAmount unset, the body `{}`;
  // the legacy service captures the whole authorised amount
  const order4 = OrderCreateResponse.parse(
    (await call('L1 Orders.Create', 'POST', '/orders', createOrderRequest('Order128'))).json,
  );
  const auth4 = TransactionResponse.parse(
    (
      await call('L4 Orders.AuthorizeOrder', 'POST', `/orders/${order4.merchantOrderId}/pay`, {
        paymentToken: await browserCardToken(target, CARDS.ok),
        authoriseOnly: true,
      })
    ).json,
  );
  expect(dataContractJson({})).toBe('{}');
  const capturedAll = await call(
    'L9 Payments.CaptureTransaction (whole amount)',
    'POST',
    `/transactions/${auth4.transactionId}/authorisation:capture`,
    {},
  );
  expect(capturedAll.status, JSON.stringify(capturedAll.json)).toBe(200);
  expect(PaymentResponse.parse(capturedAll.json)).toMatchObject({ status: 'paid', amount: 1500 });

  // Payments.Get by transaction id, and by order id as the SDK's tests do
  const byId = PaymentResponse.parse(
    (await call('L6 Payments.Get', 'GET', `/transactions/${authorised.transactionId}`)).json,
  );
  expect(byId).toMatchObject({
    _id: authorised.transactionId,
    merchantOrderId: order.merchantOrderId,
    fee: expect.any(Number),
  });
  const byOrder = await call('L6 Payments.Get by order', 'GET', `/transactions/${order.merchantOrderId}`);
  expect(PaymentResponse.parse(byOrder.json)._id).toBe(authorised.transactionId);

  // Refunds.RefundTransaction reads refundId
  const refund = await call('L7 Refunds.RefundTransaction', 'POST', '/refunds', {
    refundAmount: { amount: 400, currency: 'AUD' },
    transactionId: authorised.transactionId,
  });
  expect(refund.status).toBe(200);
  expect(RefundResponse.parse(refund.json).refundId).toMatch(/^rfnd_/);
  const tooMuch = await call('L7 refund beyond the amount', 'POST', '/refunds', {
    refundAmount: { amount: 5000, currency: 'AUD' },
    transactionId: authorised.transactionId,
  });
  expect(tooMuch.status).toBe(400);
  LimepayApiError.parse(tooMuch.json);

  // Orders.Update (PATCH). The SDK reads nothing back: Update, Cancel and VoidTransaction deserialize a
  // 2xx body with a null DateTimeFormat, which throws ArgumentNullException in the SDK itself (run on
  // Mono, as .NET's DateTimeFormat does), after the call took effect. The answers are the spec's
  // (the order, the transaction), as the legacy service gave; the effect is read back.
  const updated = await call('L30 Orders.Update', 'PATCH', `/orders/${order.merchantOrderId}`, {
    internalOrderId: 'Test_01',
  });
  expect(updated.status).toBe(200);
  expect(OrderCreateResponse.parse(updated.json).internalOrderId).toBe('Test_01');
  expect(
    OrderCreateResponse.parse((await call('L3 Orders.Get', 'GET', `/orders/${order.merchantOrderId}`)).json)
      .internalOrderId,
  ).toBe('Test_01');

  // Orders.Pay3DSOrder: the 403 is a PaymentActionResponse
  const order3ds = OrderCreateResponse.parse(
    (await call('L1 Orders.Create', 'POST', '/orders', createOrderRequest('Order124'))).json,
  );
  const paymentToken = await browserCardToken(target, CARDS.threeDS);
  const challenge = await call('L4 Orders.Pay3DSOrder', 'POST', `/orders/${order3ds.merchantOrderId}/pay`, {
    paymentToken,
    request3DS: true,
    returnURL: 'https://yourdomain.example/',
    cardStatement,
  });
  expect(challenge.status).toBe(403);
  const action = PaymentActionResponse.parse(challenge.json);
  expect(action.paymentToken).toBe(paymentToken);
  const paid = await call('L4 Orders.PayOrder after 3DS', 'POST', `/orders/${order3ds.merchantOrderId}/pay`, {
    paymentToken,
    paymentActionRequired: action.paymentActionRequired,
    request3DS: true,
  });
  expect(paid.status).toBe(200);
  expect(TransactionResponse.parse(paid.json)).toMatchObject({ transactionStatus: 'paid', type: 'paycard' });

  // Payments.VoidTransaction (DELETE, no body), Orders.Cancel of an unpaid order
  const order2 = OrderCreateResponse.parse(
    (await call('L1 Orders.Create', 'POST', '/orders', createOrderRequest('Order125'))).json,
  );
  const auth2 = TransactionResponse.parse(
    (
      await call('L4 Orders.AuthorizeOrder', 'POST', `/orders/${order2.merchantOrderId}/pay`, {
        paymentToken: await browserCardToken(target, CARDS.ok),
        authoriseOnly: true,
      })
    ).json,
  );
  const voided = await call(
    'L10 Payments.VoidTransaction',
    'DELETE',
    `/transactions/${auth2.transactionId}/authorisation`,
  );
  expect(voided.status).toBe(200);
  expect(PaymentResponse.parse(voided.json).status).toBe('cancelled');
  const order3 = OrderCreateResponse.parse(
    (await call('L1 Orders.Create', 'POST', '/orders', createOrderRequest('Order126'))).json,
  );
  const cancelled = await call('L12 Orders.Cancel', 'DELETE', `/orders/${order3.merchantOrderId}`);
  expect(cancelled.status).toBe(200);
  expect(OrderCreateResponse.parse(cancelled.json).status).toBe('cancelled');
  expect(
    OrderCreateResponse.parse((await call('L3 Orders.Get', 'GET', `/orders/${order3.merchantOrderId}`)).json).status,
  ).toBe('cancelled');

  // Orders.CreateInvoice: a pay-by-link order with its token and magic link
  const invoice = await call('L31 Orders.CreateInvoice', 'POST', '/orders/invoices', {
    SendEmail: true,
    orderRequest: createOrderRequest('Order127', '+61 0417157088', 'online'),
    sendSms: true,
  });
  expect(invoice.status).toBe(200);
  const link = OrderCreateInvoiceResponse.parse(invoice.json);
  expect(link.order.type).toBe('paybylink');
  const page = await fetch(link.magicLink);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(link.order.merchantOrderId);
  return sdk;
}
