// Translator throughput on one core: toCurrent + toLegacy of an L1 create order and an L6 transaction
// read, in translations (request and answer) per second. Target: at least 50,000 per second each.
import { createTranslator } from '../../dist/src/index.js';

const translator = createTranslator();
const headers = { 'limepay-secretkey': 'sandbox_sk_solo_secret_key', 'content-type': 'application/json' };
const SECONDS = Number(process.env.BENCH_TRANSLATE_SECONDS ?? 3);

const orderBody = {
  internalOrderId: 'order-1042',
  paymentAmount: { amount: 10_000, currency: 'AUD' },
  description: 'Two books',
  customerEmail: 'shopper@example.com',
  phoneNo: '+61400000001',
  items: [
    {
      description: 'Book',
      quantity: 1,
      amount: 5000,
      currency: 'AUD',
      sku: 'BK-1',
      imageUrl: 'https://img.example/bk1.png',
    },
    {
      description: 'Book',
      quantity: 1,
      amount: 5000,
      currency: 'AUD',
      sku: 'BK-2',
      imageUrl: 'https://img.example/bk2.png',
    },
  ],
  discount: { amount: 0 },
  shipping: {
    amount: 500,
    name: 'Jo',
    address: { line1: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
  },
  billing: {
    name: 'Jo',
    email: 'jo@example.com',
    phone: '+61400000002',
    address: { line1: '1 Main St', city: 'Sydney', country: 'AU' },
  },
  metadata: { cart: { id: 42, tags: ['gift'] } },
};
const ts = '2026-11-21T05:00:00.000Z';
const orderAnswer = {
  OnlineOrder: {
    order: {
      orderId: 'ordr_abc123',
      merchantId: 'mcht_solo',
      marketplaceId: null,
      orderType: 'online',
      referenceOrderId: 'order-1042',
      amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
      description: 'Two books',
      customerEmailAddress: 'shopper@example.com',
      customerPhoneNumber: '+61400000001',
      items: orderBody.items.map(({ amount, currency, ...rest }) => ({
        ...rest,
        amount: { minorCurrencyUnits: amount, currency },
      })),
      discountAmount: 0,
      shipping: orderBody.shipping,
      billing: {
        name: 'Jo',
        emailAddress: 'jo@example.com',
        phoneNumber: '+61400000002',
        address: orderBody.billing.address,
      },
      metadata: orderBody.metadata,
      status: 'created',
      createdAt: ts,
      updatedAt: ts,
    },
  },
};
const transactionAnswer = {
  purchaseDetails: {
    orderId: 'ordr_abc123',
    merchantId: 'mcht_solo',
    referenceOrderId: 'order-1042',
    amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
    surchargeAmount: 0,
    refundedAmount: 3_000,
    merchantName: 'Solo Coffee',
    transactionId: 'tran_abc123',
    orderType: 'online',
    payType: 'PayInFull',
    description: 'Two books',
    orderMetadata: { cart: { id: 42, tags: ['gift'] } },
    status: 'partially_refunded',
    refundIds: ['rfnd_1', 'rfnd_2'],
    disputeId: null,
    disputeIds: [],
    paidOn: '2026-11-21',
    createdAt: ts,
    updatedAt: ts,
  },
  paymentMethod: { paymentMethodType: 'Card', accountHint: '****4242', paymentStatus: 'Settled', paymentFailure: null },
  serviceFees: { variableAmount: 175, fixedAmount: 30, taxAmount: 21, totalAmount: 226 },
  customerDetails: null,
  timelines: [
    { eventType: 'PaymentSucceed', eventTime: ts, amount: 10_000, identifier: null },
    { eventType: 'PaymentRefunded', eventTime: ts, amount: 1_000, identifier: 'rfnd_1' },
    { eventType: 'PaymentRefunded', eventTime: ts, amount: 2_000, identifier: 'rfnd_2' },
  ],
  transfers: [],
};

async function rate(label, legacy, answer) {
  const once = async () => {
    const current = await translator.toCurrent(legacy);
    const out = translator.toLegacy({ status: 200, body: answer }, current.context);
    if (out.status !== 200) throw new Error(`${label}: ${JSON.stringify(out.body)}`);
  };
  for (let i = 0; i < 20_000; i++) await once(); // warm up
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(SECONDS * 1e9);
  while (process.hrtime.bigint() < end) {
    for (let i = 0; i < 1000; i++) await once();
    n += 1000;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const perSecond = Math.round(n / seconds);
  console.log(
    `  ${label.padEnd(44)} ${String(perSecond).padStart(9)} /s  ${(1e6 / perSecond).toFixed(1).padStart(6)} us each  ${perSecond >= 50_000 ? 'meets' : 'BELOW'} the 50,000/s target`,
  );
  return perSecond;
}

console.log(`\ntranslator, one core, toCurrent + toLegacy per translation (${SECONDS}s each)`);
const l1 = await rate(
  'L1 POST /orders (create order)',
  { method: 'POST', path: '/orders', headers, body: orderBody },
  orderAnswer,
);
const l6 = await rate(
  'L6 GET /transactions/{id} (transaction)',
  { method: 'GET', path: '/transactions/tran_abc123', headers },
  transactionAnswer,
);
if (l1 < 50_000 || l6 < 50_000) process.exitCode = 1;
