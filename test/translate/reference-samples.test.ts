/**
 * The published references' own sample shapes, written here from reading them (in our words: the
 * samples as ../shared/spec/current-api-changes.md and legacy-api-changes.md describe them, not our
 * schemas): (1) the sandbox's current face answers each current sample's shape; (2) the gateway sends
 * each current request in the reference's shape, to a recording upstream written here that answers
 * with the reference's sample forms (the PayOrderComplete card answer, bare orders and lists), which
 * the gateway must read; (3) each legacy route the legacy reference shows answers its shape.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway } from '../helpers/gateway.js';
import { client, type Client } from '../helpers/http.js';
import {
  CARDS,
  currentOrder,
  KEYS,
  legacyOrder,
  paidCardTransaction,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

/** A sample shape: the keys a sample shows and what each holds ('any' where the sample shows a value of no fixed kind). */
type Sample = { [key: string]: Sample | 'string' | 'int' | 'boolean' | 'null' | 'any' | readonly [Sample] };

/** Where `value` departs from `sample`: missing keys and values of another kind, by path. */
function departures(value: unknown, sample: Sample | readonly [Sample] | string, path = '$'): string[] {
  if (sample === 'any') return value === undefined ? [`${path}: missing`] : [];
  if (sample === 'string')
    return typeof value === 'string' ? [] : [`${path}: expected a string, got ${JSON.stringify(value)}`];
  if (sample === 'int')
    return Number.isInteger(value) ? [] : [`${path}: expected an integer, got ${JSON.stringify(value)}`];
  if (sample === 'boolean') return typeof value === 'boolean' ? [] : [`${path}: expected a boolean`];
  if (sample === 'null') return value === null ? [] : [`${path}: expected null`];
  if (Array.isArray(sample)) {
    if (!Array.isArray(value)) return [`${path}: expected a bare array, got ${JSON.stringify(value)?.slice(0, 80)}`];
    return value.flatMap((item, i) => departures(item, sample[0] as Sample, `${path}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${path}: expected an object`];
  return Object.entries(sample as Sample).flatMap(([key, inner]) =>
    key in value
      ? departures((value as Record<string, unknown>)[key], inner as Sample, `${path}.${key}`)
      : [`${path}.${key}: missing`],
  );
}

const expectShape = (value: unknown, sample: Sample | readonly [Sample], label: string) =>
  expect(departures(value, sample), label).toEqual([]);

const money: Sample = { minorCurrencyUnits: 'int', currency: 'string' };

// ---- the current reference's samples (current-api-changes.md) ----

/** UpdateOrder's and CancelOrder's answer: the bare order, no OnlineOrder wrapper (rows 22-24). */
const REF_ORDER: Sample = {
  orderId: 'string',
  merchantId: 'string',
  referenceOrderId: 'string',
  amount: money,
  surcharge: { surchargeOptions: 'any', surchargePaidAmount: 'any' },
  customerEmailAddress: 'any',
  customerPhoneNumber: 'any',
  customerName: 'any',
  orderType: 'string',
  orderTypeDetails: 'any',
  description: 'any',
  items: 'any',
  discountAmount: 'any',
  shipping: 'any',
  billing: 'any',
  metadata: 'any',
  status: 'string',
  createdAt: 'string',
  updatedAt: 'string',
};
/** GetPaymentSource (row 14): customerDelegateId, and no legacyResp. */
const REF_SAVED_SOURCE: Sample = {
  paymentSourceId: 'string',
  customerId: 'string',
  merchantId: 'string',
  customerDelegateId: 'any',
  sourceMethod: 'any',
  usageScope: 'any',
  createdAt: 'string',
  updatedAt: 'string',
};
/** UpsertCustomer (row 17). */
const REF_UPSERTED: Sample = { customerId: 'string', merchantId: 'string' };
/** SignInCustomer (row 12). */
const REF_SIGNED_IN: Sample = { customerId: 'string', customToken: 'string' };
/** CalculatePayPlanMaxLoan (row 21): `amount`, not `maxLoanAmount`. */
const REF_PAY_PLAN_MAX: Sample = { amount: money, summary: 'any' };
/** UpdateMerchant / CreateMerchant (rows 7, 19): wrapped by kind, the profile under businessProfile. */
const REF_MERCHANT: Sample = {
  ServiceProviderMerchant: {
    merchantId: 'string',
    marketplaceId: 'any',
    status: 'string',
    businessProfile: {
      timeZone: 'any',
      businessName: 'string',
      businessType: 'any',
      companyType: 'any',
      website: 'any',
      industry: 'any',
      taxCountry: 'any',
      tradingCountry: 'any',
      contactEmailAddress: 'any',
    },
  },
};
/** Errors (row 9). */
const REF_ERROR: Sample = { statusCode: 'int', errorCode: 'string', message: 'string', errorTypeDescription: 'string' };
/** PayOrder with 3DS (row 2): 200 and ThreeDSAuthorisationRequired. */
const REF_3DS: Sample = { ThreeDSAuthorisationRequired: { threeDSAuthorisationId: 'string', redirectUrl: 'string' } };

describe("the sandbox's current face answers the current reference's sample shapes", () => {
  let sb: TestSandbox;
  let solo: Client;
  beforeAll(async () => {
    sb = await startSandbox();
    solo = sb.current(KEYS.soloSk);
  });
  afterAll(() => sb.close());

  it('orders: Update and Cancel answer the bare order; every list is a bare array', async () => {
    const order = (await solo.post('/orders', currentOrder())).body.OnlineOrder.order;
    const updated = await solo.patch(`/orders/${order.orderId}`, {
      UpdateReferenceOrderId: { referenceOrderId: 'ref-2' },
    });
    expectShape(updated.body, REF_ORDER, 'UpdateOrder');
    expect(updated.body).not.toHaveProperty('OnlineOrder');
    expectShape((await solo.delete(`/orders/${order.orderId}`)).body, REF_ORDER, 'CancelOrder');
    const tx = await paidCardTransaction(solo);
    expectShape(
      (await solo.get('/transactions?limit=5&page=1&sort=-createdAt')).body,
      [{ purchaseDetails: { transactionId: 'string', status: 'string' } }],
      'QueryTransactions',
    );
    expect((await solo.get(`/transactions/${tx}`)).body.purchaseDetails.status).toBe('paid');
    expectShape((await sb.current(KEYS.marketplace).get('/merchants?limit=2')).body, [REF_MERCHANT], 'QueryMerchants');
    expectShape(
      (await sb.current(KEYS.marketplace).get('/customers?merchantId=mcht_alpha')).body,
      [{ customerId: 'string' }],
      'QueryCustomers',
    );
  });

  it('an authorise-only payment is not_captured (the TransactionStatus enum has no authorised)', async () => {
    const tx = await paidCardTransaction(solo, { authoriseOnly: true });
    expect((await solo.get(`/transactions/${tx}`)).body.purchaseDetails.status).toBe('not_captured');
  });

  it('a card needing 3DS is a 200 ThreeDSAuthorisationRequired; errors carry errorTypeDescription', async () => {
    const token = (await solo.post('/sandbox/card-tokens', { cardNumber: CARDS.threeDS })).body.paymentTokenId;
    const order = (await solo.post('/orders', currentOrder())).body.OnlineOrder.order;
    const challenged = await solo.post(`/orders/${order.orderId}/pay`, { PayByCard: { paymentTokenId: token } });
    expect(challenged.status).toBe(200);
    expectShape(challenged.body, REF_3DS, 'PayOrder 3DS');
    expectShape((await solo.get('/orders/ordr_nosuchorder')).body, REF_ERROR, 'error');
  });

  it('customers: upsert answers {customerId, merchantId}; sign-in {customerId, customToken}; pay plan max {amount, summary}', async () => {
    const upserted = await solo.post('/customers', {
      UpsertConsumerCustomer: {
        emailAddress: 'sample@example.com',
        phoneNumber: '+61400000009',
        givenName: 'Sam',
        familyName: 'Ple',
        isVerified: true,
        metadata: { crm: 1 },
      },
    });
    expectShape(upserted.body, REF_UPSERTED, 'UpsertCustomer');
    expectShape(
      (await solo.post('/auth/signin', { SignInConsumer: { customerId: upserted.body.customerId } })).body,
      REF_SIGNED_IN,
      'SignInCustomer',
    );
    const max = await sb
      .current(KEYS.soloPk, { 'Customer-Id': 'cust_alice' })
      .post('/payplans/max', { currency: 'AUD', payPlanVariant: 'payplan_4_weekly_payments' });
    expectShape(max.body, REF_PAY_PLAN_MAX, 'CalculatePayPlanMaxLoan');
  });

  it('merchants: created and updated wrapped by kind; a saved source read with customerDelegateId and no legacyResp', async () => {
    const mk = sb.current(KEYS.marketplace);
    const created = await mk.post('/merchants', {
      CreateServiceProviderSubmerchant: {
        slug: 'sample-shop',
        businessProfile: { businessName: 'Sample' },
        contactEmailAddress: 's@example.com',
        taxCountry: 'AU',
      },
    });
    expectShape(created.body, REF_MERCHANT, 'CreateMerchant');
    const id = created.body.ServiceProviderMerchant.merchantId;
    const added = await mk.patch(`/merchants/${id}`, {
      AddMerchantBankAccount: {
        accountName: 'Ops',
        bankName: 'Westpac',
        identifier: { AuBankAccountIdentifier: { bsb: '032-000', accountNumber: '123456' } },
        currency: 'AUD',
        setAsPrimary: true,
      },
    });
    expectShape(added.body, REF_MERCHANT, 'UpdateMerchant');
    const source = (await solo.post('/sandbox/card-sources', { cardNumber: CARDS.ok }, { 'Customer-Id': 'cust_alice' }))
      .body.paymentSourceId;
    // Get Payment Source's security list: no merchant key (reference); the operator's marketplace key reads it
    expect((await solo.get(`/sources/${source}`)).status).toBe(403);
    const read = (await sb.current(KEYS.operator, { 'Merchant-Id': 'mcht_solo' }).get(`/sources/${source}`)).body;
    expectShape(read, REF_SAVED_SOURCE, 'GetPaymentSource');
    expect(read).not.toHaveProperty('legacyResp');
    expectShape((await solo.get('/sources?customerId=cust_alice&limit=10')).body, [REF_SAVED_SOURCE], 'list sources');
  });
});

// ---- what the gateway sends: a recording current upstream answering with the reference's forms ----

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const at = '2026-04-01T00:00:00.000Z';
const refOrder = (status = 'created') => ({
  orderId: 'ordr_ref1',
  merchantId: 'mcht_solo',
  referenceOrderId: 'ref-1',
  amount: { minorCurrencyUnits: 2500, currency: 'AUD' },
  surcharge: { surchargeOptions: null, surchargePaidAmount: null },
  customerEmailAddress: null,
  customerPhoneNumber: null,
  customerName: null,
  orderType: 'online',
  orderTypeDetails: null,
  description: null,
  items: null,
  discountAmount: null,
  shipping: null,
  billing: null,
  metadata: null,
  status,
  createdAt: at,
  updatedAt: at,
});
const refPurchase = {
  orderId: 'ordr_ref1',
  merchantId: 'mcht_solo',
  referenceOrderId: 'ref-1',
  amount: { minorCurrencyUnits: 2500, currency: 'AUD' },
  surchargeAmount: 0,
  transactionId: 'tran_ref1',
  payType: 'PayInFull',
  status: 'accepted',
  createdAt: at,
};
const refMerchant = (accounts: object[]) => ({
  ServiceProviderMerchant: {
    merchantId: 'mcht_ref1',
    marketplaceId: 'mktp_demo',
    status: 'Pending',
    businessProfile: { businessName: 'Ref', timeZone: null },
    publicKey: 'sandbox_pk_ref',
    bankAccounts: accounts,
    primaryBankAccountId: null,
  },
});
const refAccount = (id: string) => ({
  bankAccountId: id,
  accountName: 'Ops',
  bankName: null,
  identifier: { AuBankAccountIdentifier: { bsb: '032-000', accountNumber: '123456' } },
  currency: 'AUD',
  createdAt: at,
});

/** The reference's sample answer for each current call the gateway makes. */
function referenceAnswer(method: string, path: string): unknown {
  if (method === 'POST' && /^\/orders\/[^/]+\/pay$/.test(path))
    // the reference's PayOrder sample: PayOrderComplete with the figures under transactionDetails
    return {
      PayOrderComplete: {
        transactionId: 'tran_ref1',
        transactionStatus: 'paid',
        transactionDetails: { purchaseDetails: refPurchase },
      },
    };
  if (method === 'PATCH' && path.startsWith('/orders/')) return refOrder();
  if (method === 'DELETE' && path.startsWith('/orders/')) return refOrder('cancelled');
  if (method === 'POST' && path === '/auth/signin')
    return { customerId: 'cust_alice', customToken: 'chk_reference_token' };
  if (method === 'POST' && path === '/customers') return { customerId: 'cust_ref1', merchantId: 'mcht_solo' };
  // Query Merchants with the caller's own key: the merchant it belongs to (before a call made with the service key)
  if (method === 'GET' && path === '/merchants')
    return [{ ServiceProviderMerchant: { ...refMerchant([]).ServiceProviderMerchant, merchantId: 'mcht_solo' } }];
  if (method === 'GET' && path === '/customers')
    return [
      {
        customerId: 'cust_ref1',
        referenceCustomerId: null,
        emailAddress: 'ref@example.com',
        phoneNumber: null,
        givenName: 'Re',
        familyName: 'F',
      },
    ];
  if (method === 'POST' && path === '/payplans/max')
    return {
      amount: { minorCurrencyUnits: 150_000, currency: 'AUD' },
      summary: { payPlanVariant: 'payplan_fortnight_25_25_25_25' },
    };
  if (method === 'POST' && path === '/merchants') return refMerchant([]);
  if (method === 'GET' && path.startsWith('/merchants/')) return refMerchant([refAccount('bank_old1')]);
  if (method === 'PATCH' && path.startsWith('/merchants/'))
    return refMerchant([refAccount('bank_old1'), refAccount('bank_new1')]);
  throw new Error(`no reference sample for ${method} ${path}`);
}

async function recordingUpstream() {
  const seen: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      try {
        const answer = referenceAnswer(req.method!, new URL(req.url!, 'http://x').pathname);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      } catch (err) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ statusCode: 500, errorCode: 'no_sample', message: (err as Error).message }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe("the gateway sends each current request in the reference's shape and reads the reference's answer forms", () => {
  let upstream: Awaited<ReturnType<typeof recordingUpstream>>;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  let secret: Client;
  let platform: Client;
  beforeAll(async () => {
    upstream = await recordingUpstream();
    gw = await startGateway({
      upstreams: { sandbox: { current: upstream.url } },
      routes: { '*': 'current' },
      serviceKey: KEYS.operator,
    });
    secret = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    platform = client(gw.url, { 'Limepay-Token': KEYS.marketplace });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });
  /** The one current call a legacy call made (the last, after any preflight read). */
  const sent = async (call: () => Promise<{ status: number; body: any }>) => {
    const before = upstream.seen.length;
    const answer = await call();
    const calls = upstream.seen.slice(before);
    return { answer, calls, last: calls.at(-1)! };
  };

  it('L4, the second call of a 3DS challenge: Confirm3DSComplete with threeDSResponse, read back from PayOrderComplete', async () => {
    const { answer, last } = await sent(() =>
      secret.post('/orders/ordr_ref1/pay', {
        paymentToken: 'ptkn_ref1',
        authoriseOnly: false,
        paymentActionRequired: { threeDSAuthorisationId: '3ds_ref1', redirectURL: 'https://issuer.example/3ds' },
      }),
    );
    expect(last).toMatchObject({ method: 'POST', url: '/orders/ordr_ref1/pay' });
    expect(last.body).toEqual({
      Confirm3DSComplete: {
        paymentTokenId: 'ptkn_ref1',
        threeDSResponse: { threeDSAuthorisationId: '3ds_ref1' },
        authoriseOnly: false,
      },
    });
    expect(answer).toMatchObject({
      status: 200,
      body: { transactionId: 'tran_ref1', transactionStatus: 'paid', amount: 2500, currency: 'AUD', type: 'paycard' },
    });
  });

  it('L11 and L12: UpdateReferenceOrderId and DELETE /orders/{id}, both read from the bare order', async () => {
    const update = await sent(() => secret.put('/orders/ordr_ref1/internalOrderId', { internalOrderId: 'ref-2' }));
    expect([update.last.method, update.last.url, update.last.body]).toEqual([
      'PATCH',
      '/orders/ordr_ref1',
      { UpdateReferenceOrderId: { referenceOrderId: 'ref-2' } },
    ]);
    expect(update.answer.body).toMatchObject({ merchantOrderId: 'ordr_ref1', amount: 2500, currency: 'AUD' });
    const cancel = await sent(() => secret.delete('/orders/ordr_ref1'));
    expect([cancel.last.method, cancel.last.url, cancel.last.body]).toEqual(['DELETE', '/orders/ordr_ref1', undefined]);
    expect(cancel.answer.body).toMatchObject({ merchantOrderId: 'ordr_ref1', status: 'cancelled' });
  });

  it("L29 signs in at POST /auth/signin; L13 upserts with the reference's names and no address; L14 queries by emailAddress and merchantId", async () => {
    const signin = await sent(() =>
      secret.post('/authn/tenants/accounts:signinCustomerWithCustomerId', { customerId: 'cust_alice' }),
    );
    expect([signin.last.method, signin.last.url, signin.last.body]).toEqual([
      'POST',
      '/auth/signin',
      { SignInConsumer: { customerId: 'cust_alice' } },
    ]);
    expect(signin.answer.body).toMatchObject({ customToken: 'chk_reference_token' });
    const upsert = await sent(() =>
      secret.post('/customers/consumer', {
        internalCustomerId: 'crm-9',
        email: 'ref@example.com',
        phoneno: '+61400000003',
        firstName: 'Re',
        lastName: 'F',
        address: { line1: '1 Main St' },
      }),
    );
    expect(upsert.last.body).toEqual({
      UpsertConsumerCustomer: {
        referenceCustomerId: 'crm-9',
        emailAddress: 'ref@example.com',
        phoneNumber: '+61400000003',
        givenName: 'Re',
        familyName: 'F',
      },
    });
    expect(upsert.answer.body).toBe('cust_ref1');
    const query = await sent(() => secret.get('/merchants/mcht_solo/customers?email=ref@example.com'));
    const url = new URL(query.last.url, 'http://x');
    expect([url.pathname, url.searchParams.get('emailAddress'), url.searchParams.get('merchantId')]).toEqual([
      '/customers',
      'ref@example.com',
      'mcht_solo',
    ]);
    // Query Customers takes no merchant secret key: the operator's key, scoped to the merchant the caller's key belongs to
    expect([query.last.headers.authorization, query.last.headers['merchant-id']]).toEqual([
      `Bearer ${KEYS.operator}`,
      'mcht_solo',
    ]);
    expect(query.answer.body.customers).toHaveLength(1);
  });

  it('L20 asks POST /payplans/max with the currency and a lower-case variant, and reads `amount`', async () => {
    const max = await sent(() =>
      client(gw.url, { 'Limepay-PublicKey': KEYS.soloPk }).post('/payments/plan/eligibility-max', {
        customerId: 'cust_alice',
        payPlanVariant: 'PayPlan_4_Weekly_Payments',
      }),
    );
    expect(max.last.body).toEqual({ currency: 'AUD', payPlanVariant: 'payplan_4_weekly_payments' });
    expect(max.last.headers['customer-id']).toBe('cust_alice');
    expect(max.answer.body).toMatchObject({ maxLoanAmount: 150_000, currency: 'AUD' });
  });

  it('L21 CreateServiceProviderSubmerchant; L24 AddMerchantBankAccount with the tagged identifier, answered with the account new in the answer', async () => {
    const created = await sent(() =>
      platform.post('/marketplaces/onboarding', {
        slug: 'ref-shop',
        businessName: 'Ref',
        contactEmail: 'ref@example.com',
        taxCountry: 'AU',
      }),
    );
    expect(created.last.body).toEqual({
      CreateServiceProviderSubmerchant: {
        slug: 'ref-shop',
        businessProfile: { businessName: 'Ref' },
        contactEmailAddress: 'ref@example.com',
        taxCountry: 'AU',
      },
    });
    expect(created.answer.body).toEqual({ merchantId: 'mcht_ref1' });
    const account = await sent(() =>
      platform.post('/marketplaces/merchants/mcht_ref1/accounts', {
        accountName: 'Ops',
        accountNumber: '123456',
        country: 'AU',
        currency: 'AUD',
        routingNumber: '032-000',
        bankName: 'Westpac',
      }),
    );
    expect(account.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /merchants/mcht_ref1',
      'PATCH /merchants/mcht_ref1',
    ]);
    expect(account.last.body).toEqual({
      AddMerchantBankAccount: {
        accountName: 'Ops',
        bankName: 'Westpac',
        identifier: { AuBankAccountIdentifier: { bsb: '032-000', accountNumber: '123456' } },
        currency: 'AUD',
        setAsPrimary: true,
      },
    });
    expect(account.answer.body).toEqual({ accountId: 'bank_new1' });
  });
});

// ---- the legacy reference's answer shapes, through the gateway to the sandbox ----

/** The legacy reference's answers (legacy-api-changes.md, section 4 rows). */
const LEGACY_REF: Record<string, Sample> = {
  L16: {
    cardPaymentSourceId: 'string',
    customerId: 'any',
    customerDelegateUserId: 'any',
    brand: 'any',
    funding: 'any',
    last4: 'any',
    cardBin: 'any',
    expMonth: 'any',
    expYear: 'any',
    country: 'any',
    isDeleted: 'boolean',
    createdAt: 'any',
    updatedAt: 'any',
  },
  L19: { paymentTokenId: 'string', payCardId: 'string' },
  L20: { maxLoanAmount: 'int', currency: 'string', summary: 'any' },
  L21: { merchantId: 'string' },
  L24: { accountId: 'string' },
  L26: {
    transactionTransferId: 'any',
    transactionId: 'string',
    transactionMerchant: 'string',
    transactionAmount: 'int',
    currency: 'string',
    totalTransferred: 'int',
    totalSurcharged: 'int',
    totalLevied: 'int',
    transfers: [
      {
        transferredToMerchantId: 'string',
        idempotencyKey: 'any',
        createdAt: 'string',
        transferred: 'int',
        surcharged: 'int',
        levy: 'int',
        metadata: 'any',
      },
    ],
  },
  L31: { order: { merchantOrderId: 'string' }, token: 'string', magicLink: 'string' },
  L32: { personId: 'string' },
  error: {
    statusCode: 'int',
    errorCode: 'string',
    message: 'string',
    tracer: 'string',
    detail: 'string',
    errorTypeDescription: 'string',
  },
};

describe("each legacy route the legacy reference shows answers its shape (gateway over the sandbox's current face)", () => {
  let sb: TestSandbox;
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    sb = await startSandbox();
    gw = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl } },
      routes: { '*': 'current' },
      serviceKey: KEYS.operator,
    });
  });
  afterAll(async () => {
    await gw.close();
    await sb.close();
  });

  it('L16, L19, L20, L31 and a legacy error', async () => {
    const secret = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    const source = (
      await sb
        .current(KEYS.soloSk)
        .post('/sandbox/card-sources', { cardNumber: CARDS.ok }, { 'Customer-Id': 'cust_alice' })
    ).body.paymentSourceId;
    const token = await secret.post('/payments/saved-card', {
      cardPaymentSourceId: source,
      paymentAmount: { amount: 2500, currency: 'AUD' },
      customerId: 'cust_alice',
    });
    expect(token.status).toBe(201);
    expectShape(token.body, LEGACY_REF.L19!, 'L19');
    const removed = await secret.delete(`/merchants/mcht_solo/payments/sources/card/cust_alice/${source}`);
    expect(removed.status).toBe(200);
    expectShape(removed.body, LEGACY_REF.L16!, 'L16');
    expect(removed.body.isDeleted).toBe(true);
    expectShape(
      (
        await client(gw.url, { 'Limepay-PublicKey': KEYS.soloPk }).post('/payments/plan/eligibility-max', {
          customerId: 'cust_alice',
        })
      ).body,
      LEGACY_REF.L20!,
      'L20',
    );
    expectShape(
      (await secret.post('/orders/invoices', { orderRequest: legacyOrder(), sendEmail: false })).body,
      LEGACY_REF.L31!,
      'L31',
    );
    const missing = await secret.get('/orders/ordr_nosuchorder');
    expect(missing.status).toBe(404);
    expectShape(missing.body, LEGACY_REF.error!, 'error');
  });

  it('L21, L24, L26, L27 and L32 (the platform routes under /marketplaces)', async () => {
    const platform = client(gw.url, { 'Limepay-Token': KEYS.marketplace });
    const onboarded = await platform.post('/marketplaces/onboarding', {
      slug: 'legacy-ref',
      businessName: 'Legacy Ref',
      contactEmail: 'lr@example.com',
      taxCountry: 'AU',
    });
    expectShape(onboarded.body, LEGACY_REF.L21!, 'L21');
    const account = await platform.post(`/marketplaces/merchants/${onboarded.body.merchantId}/accounts`, {
      accountName: 'Ops',
      accountNumber: '123456',
      country: 'AU',
      currency: 'AUD',
      routingNumber: '032000',
    });
    expectShape(account.body, LEGACY_REF.L24!, 'L24');
    const tx = await paidCardTransaction(sb.current(KEYS.alphaSk));
    const transfer = {
      fromMerchant: 'mcht_alpha',
      toMerchant: 'mcht_beta',
      transferAmount: { amount: 1000, currency: 'AUD' },
      surcharge: false,
    };
    const moved = await platform.post(`/transactions/${tx}/transfers`, transfer);
    expectShape(moved.body, LEGACY_REF.L26!, 'L26');
    const reversed = await platform.post(`/transactions/${tx}/transfers:reverse`, {
      fromMerchant: 'mcht_beta',
      toMerchant: 'mcht_alpha',
      reverseAmount: { amount: 1000, currency: 'AUD' },
      reverseLevy: false,
    });
    expectShape(reversed.body, LEGACY_REF.L26!, 'L27 (answered as L26)');
    const person = (
      await sb.current(KEYS.marketplace, { 'Merchant-Id': 'mcht_beta' }).post('/beneficialowners', {
        CreateBeneficialOwner: {
          givenName: 'P',
          familyName: 'Q',
          dateOfBirth: '1980-01-01',
          ownershipPercentage: 10,
        },
      })
    ).body.beneficialOwnerId;
    const updated = await platform.post(`/marketplaces/merchants/mcht_beta/person/${person}`, {
      title: 'Dr',
      roles: ['Director'],
      firstName: 'Pat',
      lastName: 'Quinn',
      dob: '1980-01-01',
      address: { line1: '1 King St', country: 'AU' },
      email: 'pat@beta.example',
      phone: '+61400000004',
      verificationDocs: [],
    });
    expectShape(updated.body, LEGACY_REF.L32!, 'L32');
  });
});
