import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PaybridgeError } from '../../src/errors.js';
import {
  createTranslator,
  MAX_DROPPED_PATHS,
  type CurrentRequest,
  type CurrentResponse,
} from '../../src/translate/index.js';
import { jwt, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

const translator = createTranslator();
const SK = { 'limepay-secretkey': KEYS.soloSk };

async function failure(promise: Promise<unknown>): Promise<PaybridgeError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PaybridgeError);
  return err as PaybridgeError;
}

describe('credentials', () => {
  const cases: [string, string][] = [
    ['limepay-publickey', KEYS.soloPk],
    ['limepay-secretkey', KEYS.soloSk],
    ['limepay-token', KEYS.marketplace],
    ['limepay-customerjwt', jwt('customer', 'cust_alice')],
    ['limepay-merchantjwt', jwt('merchant', 'mcht_solo')],
    ['limepay-platformjwt', jwt('marketplace', 'mktp_demo')],
    ['limepay-checkouttoken', KEYS.checkout],
  ];
  it.each(cases)('%s becomes Authorization: Bearer', async (header, value) => {
    const current = await translator.toCurrent({ method: 'GET', path: '/orders/ordr_1', headers: { [header]: value } });
    expect(current.headers.authorization).toBe(`Bearer ${value}`);
    expect(Object.keys(current.headers).filter((h) => h.startsWith('limepay'))).toEqual([]);
  });

  it('refuses none (401), two, a repeated one or one beside Bearer (400), and a value of the wrong form (401)', async () => {
    expect((await failure(translator.toCurrent({ method: 'GET', path: '/orders/ordr_1', headers: {} }))).code).toBe(
      'missing_credentials',
    );
    const two = await failure(
      translator.toCurrent({
        method: 'GET',
        path: '/orders/ordr_1',
        headers: { ...SK, 'limepay-publickey': KEYS.soloPk },
      }),
    );
    expect(two.code).toBe('invalid_credentials');
    expect(two.detail).toBe('Limepay-PublicKey, Limepay-SecretKey: exactly one credential header is allowed, got 2');
    const repeated = await failure(
      translator.toCurrent({
        method: 'GET',
        path: '/orders/ordr_1',
        headers: { 'limepay-secretkey': [KEYS.soloSk, KEYS.betaSk] },
      }),
    );
    expect(repeated.code).toBe('invalid_credentials');
    const bearer = await failure(
      translator.toCurrent({
        method: 'GET',
        path: '/orders/ordr_1',
        headers: { ...SK, authorization: `Bearer ${KEYS.soloSk}` },
      }),
    );
    expect(bearer.code).toBe('invalid_credentials');
    const wrongForm = await failure(
      translator.toCurrent({ method: 'GET', path: '/orders/ordr_1', headers: { 'limepay-secretkey': KEYS.soloPk } }),
    );
    expect([wrongForm.code, wrongForm.detail]).toEqual([
      'unauthenticated',
      'Limepay-SecretKey: the value is not a secret key',
    ]);
    const context = await failure(
      translator.toCurrent({ method: 'GET', path: '/orders/ordr_1', headers: { ...SK, 'customer-id': 'cust_alice' } }),
    );
    expect([context.code, context.status]).toEqual(['invalid_request', 400]);
  });

  it('refuses path ids without their prefix before anything is sent', async () => {
    const err = await failure(
      translator.toCurrent({
        method: 'POST',
        path: '/orders/order-7/pay',
        headers: SK,
        body: { paymentToken: 'ptkn_1' },
      }),
    );
    expect([err.status, err.code, err.detail]).toEqual([
      400,
      'invalid_request',
      'merchantOrderId: expected an id with prefix ordr_',
    ]);
    const platform = await failure(
      translator.toCurrent({
        method: 'POST',
        path: '/platforms/demo/refunds',
        headers: { 'limepay-token': KEYS.marketplace },
        body: {},
      }),
    );
    expect(platform.detail).toBe('platformId: expected an id with prefix mktp_');
  });

  it('answers an unknown legacy path with route_not_mapped naming method and path', async () => {
    const err = await failure(translator.toCurrent({ method: 'GET', path: '/v3/things?x=1', headers: SK }));
    expect([err.status, err.code, err.detail]).toEqual([
      404,
      'route_not_mapped',
      'GET /v3/things is not a legacy route',
    ]);
  });
});

describe('requests real legacy clients send', () => {
  it('create order with every observed field becomes CreateOnlineOrder', async () => {
    const current = await translator.toCurrent({ method: 'POST', path: '/orders', headers: SK, body: legacyOrder() });
    expect(current).toMatchObject({ method: 'POST', path: '/orders' });
    expect(current.headers).toEqual({
      accept: 'application/json',
      authorization: `Bearer ${KEYS.soloSk}`,
      'content-type': 'application/json',
    });
    expect(current.body).toEqual({
      CreateOnlineOrder: {
        referenceOrderId: 'legacy-ref-1',
        amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
        description: 'Two books',
        customerEmailAddress: 'shopper@example.com',
        customerPhoneNumber: '+61400000001',
        items: [
          {
            description: 'Book',
            quantity: 2,
            amount: { minorCurrencyUnits: 5000, currency: 'AUD' },
            sku: 'BK-1',
            imageUrl: 'https://img.example/bk.png',
          },
        ],
        discountAmount: 0,
        shipping: {
          amount: 500,
          name: 'Jo Shopper',
          address: { line1: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
        },
        billing: {
          name: 'Jo Shopper',
          emailAddress: 'billing@example.com',
          phoneNumber: '+61400000002',
          address: { line1: '1 Main St', city: 'Sydney', country: 'AU' },
        },
        metadata: { cart: { id: 42 }, firstName: 'stays' },
      },
    });
  });

  it('pay with paymentToken and request3DS is PayByCard; the second 3DS call is Confirm3DSComplete', async () => {
    const first = await translator.toCurrent({
      method: 'POST',
      path: '/orders/ordr_1/pay',
      headers: SK,
      body: { paymentToken: 'ptkn_9', request3DS: true },
    });
    expect(first).toMatchObject({
      method: 'POST',
      path: '/orders/ordr_1/pay',
      body: { PayByCard: { paymentTokenId: 'ptkn_9', request3DS: true } },
    });
    const challenge = translator.toLegacy(
      {
        status: 200,
        body: { ThreeDSAuthorisationRequired: { threeDSAuthorisationId: '3ds_1', redirectUrl: 'https://x/3ds' } },
      },
      first.context,
    );
    expect(challenge).toEqual({
      status: 403,
      body: {
        paymentToken: 'ptkn_9',
        paymentActionRequired: { threeDSAuthorisationId: '3ds_1', redirectURL: 'https://x/3ds' },
      },
    });
    const second = await translator.toCurrent({
      method: 'POST',
      path: '/orders/ordr_1/pay',
      headers: SK,
      body: {
        paymentToken: 'ptkn_9',
        request3DS: true,
        paymentActionRequired:
          challenge.body && (challenge.body as { paymentActionRequired: object }).paymentActionRequired,
      },
    });
    // the reference's Confirm3DSComplete: the id under threeDSResponse
    expect(second.body).toEqual({
      Confirm3DSComplete: { paymentTokenId: 'ptkn_9', threeDSResponse: { threeDSAuthorisationId: '3ds_1' } },
    });
    const paid = translator.toLegacy(
      {
        status: 200,
        body: {
          transactionId: 'tran_1',
          transactionStatus: 'paid',
          amount: 100,
          currency: 'AUD',
          surchargeAmount: 0,
          payType: 'payinfull',
        },
      },
      second.context,
    );
    expect(paid).toEqual({
      status: 200,
      body: {
        transactionId: 'tran_1',
        transactionStatus: 'paid',
        amount: 100,
        currency: 'AUD',
        surchargeAmount: 0,
        type: 'paycard',
      },
    });
    // a figure no form carries is not guessed: the answer is incomplete (the translator reads the transaction), never a 5xx
    const partial = translator.toLegacy(
      {
        status: 200,
        body: {
          transactionId: 'tran_1',
          transactionStatus: 'paid',
          amount: 100,
          currency: 'AUD',
          payType: 'payinfull',
        },
      },
      second.context,
    );
    expect(partial).toMatchObject({
      status: 202,
      incomplete: 'surchargeAmount',
      body: { errorCode: 'answer_incomplete' },
    });
  });

  it('the confirm call repeats authoriseOnly; a confirm answered by another challenge is another 403 (the client loops)', async () => {
    const action = { threeDSAuthorisationId: '3ds_1', redirectURL: 'https://x/3ds' };
    const second = await translator.toCurrent({
      method: 'POST',
      path: '/orders/ordr_1/pay',
      headers: SK,
      body: { paymentToken: 'ptkn_9', authoriseOnly: true, request3DS: true, paymentActionRequired: action },
    });
    expect(second.body).toEqual({
      Confirm3DSComplete: {
        paymentTokenId: 'ptkn_9',
        threeDSResponse: { threeDSAuthorisationId: '3ds_1' },
        authoriseOnly: true,
      },
    });
    const again = translator.toLegacy(
      {
        status: 200,
        body: { ThreeDSAuthorisationRequired: { threeDSAuthorisationId: '3ds_2', redirectUrl: 'https://x/3ds2' } },
      },
      second.context,
    );
    expect(again).toEqual({
      status: 403,
      body: {
        paymentToken: 'ptkn_9',
        paymentActionRequired: { threeDSAuthorisationId: '3ds_2', redirectURL: 'https://x/3ds2' },
      },
    });
  });

  it("reads the card pay answer wrapped in PayOrderComplete (the reference's sample) as the flat one", async () => {
    const first = await translator.toCurrent({
      method: 'POST',
      path: '/orders/ordr_1/pay',
      headers: SK,
      body: { paymentToken: 'ptkn_9' },
    });
    const wrapped = {
      PayOrderComplete: {
        transactionId: 'tran_1',
        transactionStatus: 'accepted',
        transactionDetails: {
          purchaseDetails: {
            amount: { minorCurrencyUnits: 2500, currency: 'AUD' },
            surchargeAmount: 40,
            payType: 'PayPlan',
            availableOn: '2026-12-01',
          },
          paymentMethod: { paymentMethodType: 'Card', cardBrand: 'Visa', cardLast4: '4242' },
          customerDetails: { customerId: 'cust_1', customerEmailAddress: 'jo@example.com' },
        },
      },
    };
    expect(translator.toLegacy({ status: 200, body: wrapped }, first.context)).toEqual({
      status: 200,
      body: {
        transactionId: 'tran_1',
        transactionStatus: 'accepted',
        amount: 2500,
        currency: 'AUD',
        surchargeAmount: 40,
        type: 'payplan',
      },
    });
  });

  it('L12 is DELETE /orders/{orderId}; an order answer is read bare (the reference) or wrapped in OnlineOrder (the seed)', async () => {
    const sent = await translator.toCurrent({ method: 'DELETE', path: '/orders/ordr_1', headers: SK });
    expect(sent).toMatchObject({ method: 'DELETE', path: '/orders/ordr_1' });
    expect(sent.body).toBeUndefined();
    const order = {
      orderId: 'ordr_1',
      merchantId: 'mcht_1',
      referenceOrderId: 'ref-1',
      amount: { minorCurrencyUnits: 500, currency: 'AUD' },
      status: 'cancelled',
      createdAt: '2026-11-27T10:00:00.000Z',
      updatedAt: '2026-11-27T10:05:00.000Z',
    };
    const bare = translator.toLegacy({ status: 200, body: order }, sent.context);
    const wrapped = translator.toLegacy({ status: 200, body: { OnlineOrder: { order } } }, sent.context);
    expect(bare).toEqual(wrapped);
    expect(bare.body).toMatchObject({ merchantOrderId: 'ordr_1', internalOrderId: 'ref-1', status: 'cancelled' });
  });

  it("L13 and L18 take the legacy reference's names and the older ones, the reference's winning; what the current call lacks is dropped and reported", async () => {
    const consumer = await translator.toCurrent({
      method: 'POST',
      path: '/customers/consumer',
      headers: SK,
      body: {
        internalCustomerId: 'crm-1',
        emailAddress: 'new@example.com',
        email: 'old@example.com',
        phoneNumber: '+61400000001',
        givenName: 'Jo',
        familyName: 'Ng',
        address: { line1: '1 High St' },
        isVerified: true,
      },
    });
    expect(consumer.body).toEqual({
      UpsertConsumerCustomer: {
        referenceCustomerId: 'crm-1',
        emailAddress: 'new@example.com',
        phoneNumber: '+61400000001',
        givenName: 'Jo',
        familyName: 'Ng',
      },
    });
    expect([...consumer.context.droppedFields].sort()).toEqual(['address', 'isVerified']);
    const older = await translator.toCurrent({
      method: 'POST',
      path: '/customers/consumer',
      headers: SK,
      body: { email: 'old@example.com', firstName: 'Jo', lastName: 'Ng' },
    });
    expect(older.body).toEqual({
      UpsertConsumerCustomer: { emailAddress: 'old@example.com', givenName: 'Jo', familyName: 'Ng' },
    });
    await expect(
      translator.toCurrent({ method: 'POST', path: '/customers/consumer', headers: SK, body: { givenName: 'Jo' } }),
    ).rejects.toMatchObject({
      code: 'invalid_request',
      detail: expect.stringMatching(/^emailAddress: required \(or email\)/),
    });
    const organisation = await translator.toCurrent({
      method: 'POST',
      path: '/customers/organisation',
      headers: SK,
      body: {
        internalCustomerId: 'org-1',
        organisationName: 'Acme',
        businessName: 'Old Acme',
        taxId: '12345678901',
        emailAddress: 'acme@example.com',
        organisationKyced: true,
        organisationCreditChecked: false,
      },
    });
    expect(organisation.body).toEqual({
      UpsertOrganisationCustomer: {
        referenceCustomerId: 'org-1',
        businessName: 'Acme',
        abn: '12345678901',
        emailAddress: 'acme@example.com',
      },
    });
    expect([...organisation.context.droppedFields].sort()).toEqual(['organisationCreditChecked', 'organisationKyced']);
  });

  it("L31 takes the reference's sendEmail and the .NET SDK's SendEmail; sendEmail wins when both come", async () => {
    const orderRequest = {
      internalOrderId: 'inv-1',
      paymentAmount: { amount: 500, currency: 'AUD' },
      description: '',
      billing: { name: 'Jo', email: 'jo@example.com', phone: '' },
    };
    const send = async (flags: Record<string, boolean>) =>
      (
        (
          await translator.toCurrent({
            method: 'POST',
            path: '/orders/invoices',
            headers: SK,
            body: { orderRequest, sendSms: false, ...flags },
          })
        ).body as { CreatePayByLink: { sendEmail?: boolean } }
      ).CreatePayByLink.sendEmail;
    expect(await send({ sendEmail: true })).toBe(true);
    expect(await send({ SendEmail: true })).toBe(true);
    expect(await send({ SendEmail: true, sendEmail: false })).toBe(false);
    expect(await send({ sendEmail: false, SendEmail: true })).toBe(false);
  });

  it('L19 sends CreateSavedPaymentSourceToken as the official client does, customerId as Customer-Id, drops threeDsSessionId, and answers 201 {paymentTokenId, payCardId}', async () => {
    const sent = await translator.toCurrent({
      method: 'POST',
      path: '/payments/saved-card',
      headers: SK,
      body: {
        paymentAmount: { amount: 2500, currency: 'AUD' },
        cardPaymentSourceId: 'psrc_1',
        customerId: 'cust_7',
        threeDsSessionId: 'sess-1',
      },
    });
    expect(sent.body).toEqual({
      CreateSavedPaymentSourceToken: {
        paymentSourceId: 'psrc_1',
        amount: { minorCurrencyUnits: 2500, currency: 'AUD' },
      },
    });
    expect(sent.headers['customer-id']).toBe('cust_7');
    expect(sent.context.droppedFields).toEqual(['threeDsSessionId']);
    const answer = translator.toLegacy(
      { status: 200, body: { SavedPaymentSourceToken: { paymentTokenId: 'ptkn_ab12' } } },
      sent.context,
    );
    expect(answer).toEqual({ status: 201, body: { paymentTokenId: 'ptkn_ab12', payCardId: 'card_ab12' } });
  });

  it('POST /refunds checks the currency against the transaction before the refund is sent', async () => {
    const sent: CurrentRequest[] = [];
    const before = {
      purchaseDetails: { amount: { minorCurrencyUnits: 1000, currency: 'AUD' }, refundIds: ['rfnd_a'] },
    };
    const after = {
      purchaseDetails: { amount: { minorCurrencyUnits: 1000, currency: 'AUD' }, refundIds: ['rfnd_a', 'rfnd_b'] },
    };
    const send = async (current: CurrentRequest): Promise<CurrentResponse> => {
      sent.push(current);
      return { status: 200, body: current.method === 'GET' ? before : after };
    };
    const refused = await translator.execute(
      {
        method: 'POST',
        path: '/refunds',
        headers: SK,
        body: { transactionId: 'tran_7', refundAmount: { amount: 100, currency: 'NZD' } },
      },
      send,
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      errorCode: 'currency_mismatch',
      detail: 'refundAmount.currency: NZD differs from the transaction currency AUD',
    });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /transactions/tran_7']);

    sent.length = 0;
    const done = await translator.execute(
      {
        method: 'POST',
        path: '/refunds',
        headers: SK,
        body: { transactionId: 'tran_7', refundAmount: { amount: 100, currency: 'AUD' } },
      },
      send,
    );
    expect(done).toEqual({ status: 200, body: { refundId: 'rfnd_b' } });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /transactions/tran_7',
      'PATCH /transactions/tran_7',
    ]);
    expect(sent[1]!.body).toEqual({ CreateRefund: { refundAmount: 100 } });
  });

  it('never renames inside metadata, however legacy its keys look', async () => {
    const metadata = {
      email: 'a@b.c',
      firstName: 'F',
      phoneno: '1',
      nested: { internalOrderId: 'x', list: [{ lastName: 'L' }] },
    };
    const current = await translator.toCurrent({
      method: 'POST',
      path: '/orders',
      headers: SK,
      body: legacyOrder({ metadata }),
    });
    expect((current.body as { CreateOnlineOrder: { metadata: unknown } }).CreateOnlineOrder.metadata).toEqual(metadata);
  });
});

describe('unknown legacy fields', () => {
  it('are dropped, logged at warn with their path and counted per route; metadata keys are not unknown', async () => {
    const warnings: object[] = [];
    const t = createTranslator({ logger: { warn: (obj) => warnings.push(obj) } });
    const body = legacyOrder({
      loyalty: { points: 3 },
      items: [{ description: 'x', quantity: 1, amount: 1, currency: 'AUD', colour: 'red' }],
      metadata: { anything: 1 },
    });
    const current = await t.toCurrent({ method: 'POST', path: '/orders?utm=1', headers: SK, body });
    const order = (current.body as { CreateOnlineOrder: Record<string, unknown> }).CreateOnlineOrder;
    expect(order).not.toHaveProperty('loyalty');
    expect(order.items).toEqual([
      { description: 'x', quantity: 1, amount: { minorCurrencyUnits: 1, currency: 'AUD' } },
    ]);
    expect(warnings).toEqual([{ routeId: 'L1', droppedFields: ['query.utm', 'items[0].colour', 'loyalty'] }]);
    await t.toCurrent({ method: 'POST', path: '/orders', headers: SK, body });
    expect(t.droppedFields()).toEqual({ L1: { 'query.utm': 1, loyalty: 2, 'items[0].colour': 2 } });
  });

  it('are counted on at most MAX_DROPPED_PATHS paths a route, however many keys a client invents', async () => {
    const t = createTranslator();
    for (let request = 0; request < 3; request++) {
      const invented = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`x_${request}_${i}`, 1]));
      await t.toCurrent({
        method: 'POST',
        path: '/orders',
        headers: SK,
        body: legacyOrder({ loyalty: 1, ...invented }),
      });
    }
    const counts = t.droppedFields().L1!;
    expect(Object.keys(counts)).toHaveLength(MAX_DROPPED_PATHS + 1);
    // 453 dropped fields in all: a path seen before the limit keeps its own count (loyalty: 3, and
    // 199 invented keys once each), the rest are counted together
    expect(counts.loyalty).toBe(3);
    expect(counts['(other paths)']).toBe(453 - 3 - (MAX_DROPPED_PATHS - 1));
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(453);
  });
});

describe('answers from the current API', () => {
  it('maps an error object to the legacy error shape, and a 5xx or a non-error body to 502 upstream_error', async () => {
    const current = await translator.toCurrent({
      method: 'GET',
      path: '/orders/ordr_1',
      headers: SK,
      requestId: 'req-1',
    });
    const notFound = translator.toLegacy(
      {
        status: 404,
        body: {
          statusCode: 404,
          errorCode: 'not_found',
          message: 'm',
          detail: 'd',
          tracer: 't-1',
          errorTypeDescription: 'x',
        },
      },
      current.context,
    );
    expect(notFound).toEqual({
      status: 404,
      body: {
        statusCode: 404,
        errorCode: 'not_found',
        message: 'm',
        detail: 'd',
        tracer: 't-1',
        errorTypeDescription: 'x',
      },
    });
    expect(
      translator.toLegacy(
        { status: 409, body: { statusCode: 409, errorCode: 'order_already_paid', message: 'm' } },
        current.context,
      ).body,
    ).toMatchObject({ errorTypeDescription: expect.stringMatching(/conflicts/) });
    expect(
      translator.toLegacy({ status: 500, body: { errorCode: 'internal_error' } }, current.context).body,
    ).toMatchObject({ statusCode: 502, errorCode: 'upstream_error', tracer: 'req-1' });
    expect(translator.toLegacy({ status: 400, body: '<html>' }, current.context).body).toMatchObject({
      statusCode: 502,
      errorCode: 'upstream_error',
    });
    expect(translator.toLegacy({ status: 200, body: { unexpected: true } }, current.context).body).toMatchObject({
      statusCode: 502,
      errorCode: 'upstream_error',
    });
  });
});

describe('merchant tokens', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it("resolve to the merchant's public key through Get Merchant with the service key, once, then from the cache", async () => {
    const t = createTranslator({
      merchantTokens: { mtok_alpha_merchant_token: 'mcht_alpha' },
      currentUrl: sb.currentUrl,
      serviceKey: KEYS.marketplace,
    });
    const request = {
      method: 'POST',
      path: '/orders',
      headers: { 'limepay-merchanttoken': 'mtok_alpha_merchant_token' },
      body: legacyOrder(),
    };
    const all = await Promise.all(Array.from({ length: 10 }, () => t.toCurrent(request)));
    for (const current of all) expect(current.headers.authorization).toBe(`Bearer ${KEYS.alphaPk}`);
    await t.toCurrent(request);
    expect(t.merchantKeys!.lookups).toBe(1);
    const unknown = await failure(
      t.toCurrent({ ...request, headers: { 'limepay-merchanttoken': 'mtok_nobody_knows_it' } }),
    );
    expect([unknown.status, unknown.detail]).toEqual([401, 'Limepay-MerchantToken: the merchant token is not known']);
  });

  it('look the key up again once the cache entry expires, and refuse a merchant the service key cannot read', async () => {
    const translator = (ttlMs: number) => {
      let calls = 0;
      return createTranslator({
        merchantTokens: { mtok_solo_merchant_token: 'mcht_solo', mtok_alpha_merchant_token: 'mcht_alpha' },
        lookupMerchantKey: async () => `sandbox_pk_looked_up_${++calls}`,
        merchantKeyCache: { ttlMs },
      });
    };
    const request = {
      method: 'GET',
      path: '/orders/ordr_1',
      headers: { 'limepay-merchanttoken': 'mtok_solo_merchant_token' },
    };
    const bearer = async (t: ReturnType<typeof translator>) => (await t.toCurrent(request)).headers.authorization;
    // within a lifetime no machine outlasts, the key is read once
    const kept = translator(600_000);
    expect([await bearer(kept), await bearer(kept)]).toEqual([
      'Bearer sandbox_pk_looked_up_1',
      'Bearer sandbox_pk_looked_up_1',
    ]);
    // with a lifetime of 1 ms, read again once it is over: the event waited for, not a time guessed
    const brief = translator(1);
    expect(await bearer(brief)).toBe('Bearer sandbox_pk_looked_up_1');
    await vi.waitFor(async () => expect(await bearer(brief)).toBe('Bearer sandbox_pk_looked_up_2'), {
      timeout: 5_000,
      interval: 5,
    });

    const real = createTranslator({
      merchantTokens: { mtok_solo_merchant_token: 'mcht_solo' },
      currentUrl: sb.currentUrl,
      serviceKey: KEYS.marketplace,
    });
    const outside = await failure(real.toCurrent(request));
    expect([outside.status, outside.code]).toEqual([401, 'unauthenticated']);
  });
});

describe('library mode', () => {
  it('takes header names in any case, as the CLI and the interceptor do', async () => {
    const translator = createTranslator();
    for (const headers of [
      { 'Limepay-SecretKey': KEYS.soloSk },
      { 'LIMEPAY-SECRETKEY': KEYS.soloSk },
      { 'limepay-secretkey': KEYS.soloSk },
    ]) {
      const current = await translator.toCurrent({ method: 'GET', path: '/transactions/tran_1', headers });
      expect(current.headers.authorization).toBe(`Bearer ${KEYS.soloSk}`);
    }
    // two spellings of one header are two credentials
    await expect(
      translator.toCurrent({
        method: 'GET',
        path: '/transactions/tran_1',
        headers: { 'Limepay-SecretKey': KEYS.soloSk, 'limepay-secretkey': KEYS.soloSk },
      }),
    ).rejects.toMatchObject({ code: 'invalid_credentials' });
  });
});
