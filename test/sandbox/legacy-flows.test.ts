import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  legacyCustomers,
  legacyMerchant,
  legacyOrder as legacyOrderShape,
  legacyPay,
  legacySavedCardToken,
  legacySources,
  legacyThreeDS,
  legacyTransaction,
} from '../helpers/legacy-shapes.js';
import { CARDS, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const solo = () => sb.legacy('Limepay-SecretKey', KEYS.soloSk);

async function cardToken(cardNumber: string = CARDS.ok) {
  return (await solo().post('/sandbox/card-tokens', { cardNumber })).body.paymentTokenId as string;
}

describe('legacy face: card flow in legacy shapes', () => {
  it('creates an order from a deployed plugin body, pays it, reads the transaction and refunds with POST /refunds', async () => {
    const api = solo();
    const created = await api.post('/orders', legacyOrder());
    expect(created.status).toBe(200);
    const order = legacyOrderShape.parse(created.body);
    expect(order).toMatchObject({
      internalOrderId: 'legacy-ref-1',
      amount: 10_000,
      currency: 'AUD',
      customerEmail: 'shopper@example.com',
      phoneNo: '+61400000001',
      type: 'online',
      status: 'created',
      discount: { amount: 0 },
      platformId: null,
      billing: { name: 'Jo Shopper', email: 'billing@example.com', phone: '+61400000002' },
      metadata: { cart: { id: 42 }, firstName: 'stays' },
    });
    expect(order.items).toEqual([
      {
        description: 'Book',
        quantity: 2,
        amount: 5000,
        currency: 'AUD',
        sku: 'BK-1',
        imageUrl: 'https://img.example/bk.png',
      },
    ]);

    const paid = await api.post(`/orders/${order.merchantOrderId}/pay`, { paymentToken: await cardToken() });
    expect(paid.status).toBe(200);
    expect(legacyPay.parse(paid.body)).toMatchObject({
      transactionStatus: 'paid',
      type: 'paycard',
      amount: 10_000,
      surchargeAmount: 0,
    });
    const txId = paid.body.transactionId;

    const refund1 = await api.post('/refunds', {
      transactionId: txId,
      refundAmount: { amount: 4_000, currency: 'AUD' },
    });
    expect(refund1.status).toBe(200);
    expect(Object.keys(refund1.body)).toEqual(['refundId']);
    expect(refund1.body.refundId).toMatch(/^rfnd_/);
    const partial = legacyTransaction.parse((await api.get(`/transactions/${txId}`)).body);
    expect(partial).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 4_000,
      transactionPayType: { payCardId: txId.replace(/^tran_/, 'card_') },
    });

    const refund2 = await api.post('/refunds', {
      transactionId: txId,
      refundAmount: { amount: 6_000, currency: 'AUD' },
    });
    const full = legacyTransaction.parse((await api.get(`/transactions/${txId}`)).body);
    expect(full.status).toBe('refunded');
    expect(full.refunds.map((r) => [r.refundId, r.amount])).toEqual([
      [refund1.body.refundId, 4_000],
      [refund2.body.refundId, 6_000],
    ]);
    expect(full.metadata).toEqual({ cart: { id: 42 }, firstName: 'stays' });

    const listed = await api.get(`/transactions?merchantOrderId=${order.merchantOrderId}`);
    expect(listed.body.transactions.map((t: { _id: string }) => t._id)).toEqual([txId]);
    expect(legacyOrderShape.parse((await api.get(`/orders/${order.merchantOrderId}`)).body).status).toBe('paid');
  });

  it('answers 3DS with a 403 paymentActionRequired and completes it on the second pay call', async () => {
    const api = solo();
    const order = (await api.post('/orders', legacyOrder())).body;
    const token = await cardToken(CARDS.threeDS);
    const challenge = await api.post(`/orders/${order.merchantOrderId}/pay`, { paymentToken: token, request3DS: true });
    expect(challenge.status).toBe(403);
    const action = legacyThreeDS.parse(challenge.body).paymentActionRequired;
    expect((await fetch(action.redirectURL)).status).toBe(200);
    expect((await api.get(`/orders/${order.merchantOrderId}`)).body.status).toBe('created');

    const done = await api.post(`/orders/${order.merchantOrderId}/pay`, {
      paymentToken: token,
      paymentActionRequired: action,
    });
    expect(done.status).toBe(200);
    expect(legacyPay.parse(done.body).transactionStatus).toBe('paid');
    const again = await api.post(`/orders/${order.merchantOrderId}/pay`, {
      paymentToken: token,
      paymentActionRequired: action,
    });
    // a second confirm of the completed challenge (D-PAY-3)
    expect(again.body.errorCode).toBe('threeds_not_pending');
  });

  it('declines a card with a legacy do_not_honor error and leaves the order unpaid with no transaction', async () => {
    const api = solo();
    const before = sb.sandbox.store.stats.transactionsCreated;
    const order = (await api.post('/orders', legacyOrder())).body;
    const declined = await api.post(`/orders/${order.merchantOrderId}/pay`, {
      paymentToken: await cardToken(CARDS.decline),
    });
    expect(declined.status).toBe(400);
    expect(declined.body).toMatchObject({ statusCode: 400, errorCode: 'do_not_honor' });
    expect(Object.keys(declined.body).sort()).toEqual([
      'detail',
      'errorCode',
      'errorTypeDescription',
      'message',
      'statusCode',
      'tracer',
    ]);
    expect((await api.get(`/orders/${order.merchantOrderId}`)).body.status).toBe('created');
    expect((await api.get(`/transactions?merchantOrderId=${order.merchantOrderId}`)).body.transactions).toEqual([]);
    expect(sb.sandbox.store.stats.transactionsCreated).toBe(before);
  });

  it('authorises, captures with captureAmount, and cancels an authorisation with DELETE', async () => {
    const api = solo();
    const order = (await api.post('/orders', legacyOrder())).body;
    const auth = await api.post(`/orders/${order.merchantOrderId}/pay`, {
      paymentToken: await cardToken(),
      authoriseOnly: true,
    });
    expect(auth.body.transactionStatus).toBe('not_captured');
    const wrongCurrency = await api.post(`/transactions/${auth.body.transactionId}/authorisation:capture`, {
      captureAmount: { amount: 100, currency: 'NZD' },
    });
    expect(wrongCurrency.body.errorCode).toBe('currency_mismatch');
    const captured = await api.post(`/transactions/${auth.body.transactionId}/authorisation:capture`, {
      captureAmount: { amount: 9_000, currency: 'AUD' },
    });
    expect(legacyTransaction.parse(captured.body)).toMatchObject({ status: 'paid', amount: 9_000 });

    const order2 = (await api.post('/orders', legacyOrder())).body;
    const auth2 = await api.post(`/orders/${order2.merchantOrderId}/pay`, {
      paymentToken: await cardToken(),
      authoriseOnly: true,
    });
    const cancelled = await api.delete(`/transactions/${auth2.body.transactionId}/authorisation`);
    expect(legacyTransaction.parse(cancelled.body).status).toBe('cancelled');
  });

  it('refuses a refund in another currency and refunds nothing', async () => {
    const api = solo();
    const order = (await api.post('/orders', legacyOrder())).body;
    const tx = (await api.post(`/orders/${order.merchantOrderId}/pay`, { paymentToken: await cardToken() })).body
      .transactionId;
    const refused = await api.post('/refunds', { transactionId: tx, refundAmount: { amount: 100, currency: 'USD' } });
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('currency_mismatch');
    expect((await api.get(`/transactions/${tx}`)).body.refundedAmount).toBe(0);
  });

  it('updates internalOrderId with PUT and cancels an order with DELETE', async () => {
    const api = solo();
    const order = (await api.post('/orders', legacyOrder())).body;
    const renamed = await api.put(`/orders/${order.merchantOrderId}/internalOrderId`, { internalOrderId: 'renamed' });
    expect(renamed.body.internalOrderId).toBe('renamed');
    const cancelled = await api.delete(`/orders/${order.merchantOrderId}`);
    expect(legacyOrderShape.parse(cancelled.body).status).toBe('cancelled');
  });
});

describe('legacy face: customers, sources, pay plans, marketplace', () => {
  it('upserts a consumer customer answering a bare JSON string, and finds it by email', async () => {
    const api = solo();
    const body = {
      internalCustomerId: 'crm-7',
      email: 'kim@example.com',
      phoneno: '+61400000007',
      firstName: 'Kim',
      lastName: 'Lee',
    };
    const created = await api.post('/customers/consumer', body);
    expect(created.status).toBe(200);
    expect(created.text).toMatch(/^"cust_[A-Za-z0-9_-]+"$/);
    const again = await api.post('/customers/consumer', { ...body, firstName: 'Kimberly' });
    expect(again.body).toBe(created.body);
    const found = legacyCustomers.parse((await api.get('/merchants/mcht_solo/customers?email=kim@example.com')).body);
    expect(found.customers).toEqual([
      {
        customerId: created.body,
        internalCustomerId: 'crm-7',
        email: 'kim@example.com',
        phoneno: '+61400000007',
        firstName: 'Kimberly',
        lastName: 'Lee',
      },
    ]);
    const org = await api.post('/customers/organisation', {
      businessName: 'Acme Pty Ltd',
      email: 'ap@acme.example',
      abn: '12345678901',
    });
    expect(org.text).toMatch(/^"cust_/);
  });

  it('lists, tokenises and deletes saved card sources', async () => {
    const api = solo();
    const source = (await api.post('/sandbox/card-sources', { customerId: 'cust_alice', cardNumber: CARDS.ok })).body;
    const listed = legacySources.parse(
      (await api.get('/merchants/mcht_solo/customers/cust_alice/payments/sources')).body,
    );
    expect(listed.paymentSources).toContainEqual(
      expect.objectContaining({ paymentSourceId: source.paymentSourceId, type: 'card', accountHint: '****4242' }),
    );

    const token = await api.post('/payments/saved-card', {
      cardPaymentSourceId: source.paymentSourceId,
      paymentAmount: { amount: 10_000, currency: 'AUD' },
    });
    expect(token.status).toBe(201);
    const tokenBody = legacySavedCardToken.parse(token.body);
    expect(tokenBody.payCardId).toBe(tokenBody.paymentTokenId.replace(/^ptkn_/, 'card_'));
    const order = (await api.post('/orders', legacyOrder())).body;
    const paid = await api.post(`/orders/${order.merchantOrderId}/pay`, { paymentToken: token.body.paymentTokenId });
    expect(paid.body.transactionStatus).toBe('paid');
    expect((await api.get(`/transactions/${paid.body.transactionId}`)).body.customerId).toBe('cust_alice');

    const removed = await api.delete(`/merchants/mcht_solo/payments/sources/card/cust_alice/${source.paymentSourceId}`);
    // the legacy reference: 200 with the removed card
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      cardPaymentSourceId: source.paymentSourceId,
      customerId: 'cust_alice',
      customerDelegateUserId: null,
      brand: null,
      funding: null,
      last4: '4242',
      cardBin: null,
      expMonth: null,
      expYear: null,
      country: null,
      isDeleted: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const after = (await api.get('/merchants/mcht_solo/customers/cust_alice/payments/sources')).body.paymentSources;
    expect(after.map((s: { paymentSourceId: string }) => s.paymentSourceId)).not.toContain(source.paymentSourceId);
  });

  it('answers the pay plan maximum for a customer with a public key', async () => {
    const api = sb.legacy('Limepay-PublicKey', KEYS.soloPk);
    const res = await api.post('/payments/plan/eligibility-max', {
      customerId: 'cust_alice',
      payPlanVariant: 'PayPlan_Fortnight_25_25_25_25',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      maxLoanAmount: 200_000,
      currency: 'AUD',
      summary: { payPlanVariant: 'payplan_fortnight_25_25_25_25', instalments: 4, intervalDays: 14 },
    });
    // the reference's forms: the variant as an object naming it, or none (the default)
    const weekly = await api.post('/payments/plan/eligibility-max', {
      customerId: 'cust_alice',
      payPlanVariant: { PayPlan_4_Weekly_Payments: {} },
    });
    expect(weekly.body.summary).toEqual({
      payPlanVariant: 'payplan_4_weekly_payments',
      instalments: 4,
      intervalDays: 7,
    });
    expect(
      (await api.post('/payments/plan/eligibility-max', { customerId: 'cust_alice' })).body.summary.payPlanVariant,
    ).toBe('payplan_fortnight_25_25_25_25');
  });

  it('onboards a sub-merchant, manages its profile and bank accounts, and transfers funds between sub-merchants', async () => {
    const platform = sb.legacy('Limepay-Token', KEYS.marketplace);
    const onboarded = await platform.post('/marketplaces/onboarding', {
      slug: 'gamma-games',
      businessName: 'Gamma Games',
      contactEmail: 'ops@gamma.example',
      taxCountry: 'AU',
      tradingCountry: 'AU',
    });
    expect(onboarded.body.merchantId).toMatch(/^mcht_/);
    const base = `/platforms/mktp_demo/merchants/${onboarded.body.merchantId}`;
    expect(legacyMerchant.parse((await platform.get(base)).body)).toMatchObject({
      businessName: 'Gamma Games',
      platformId: 'mktp_demo',
    });
    const profile = {
      timeZone: 'Australia/Sydney',
      businessName: 'Gamma Games Pty',
      businessType: 'company',
      companyType: 'Private',
      website: 'https://gamma.example',
      supportSite: 'https://gamma.example/help',
      industry: 'Games',
    };
    expect(legacyMerchant.parse((await platform.put(`${base}/businessProfile`, profile)).body)).toMatchObject({
      businessName: 'Gamma Games Pty',
      companyType: 'Private',
      status: 'Pending',
    });
    const noCompanyType = await platform.put(`${base}/businessProfile`, { ...profile, companyType: undefined });
    expect([noCompanyType.status, noCompanyType.body.detail]).toEqual([400, expect.stringMatching(/^companyType/)]);
    // the reference's sibling form of the path
    expect(
      (await platform.put(`/marketplaces/merchants/${onboarded.body.merchantId}`, { ...profile, industry: 'Toys' }))
        .body.industry,
    ).toBe('Toys');
    const accounts = `/marketplaces/merchants/${onboarded.body.merchantId}/accounts`;
    const account = {
      accountName: 'Gamma',
      accountNumber: '12345678',
      country: 'AU',
      currency: 'AUD',
      routingNumber: '062000',
      bankName: 'CBA',
    };
    const first = (await platform.post(accounts, account)).body.accountId;
    const second = (await platform.post(accounts, { ...account, accountNumber: '87654321', setAsPrimary: false })).body
      .accountId;
    const merchant = legacyMerchant.parse((await platform.get(base)).body);
    expect(merchant).toMatchObject({ status: 'Active', primaryBankAccountId: first });
    expect(merchant.bankAccounts.map((a) => [a.bankAccountId, a.routingNumber, a.bankName])).toEqual([
      [first, '062-000', 'CBA'],
      [second, '062-000', 'CBA'],
    ]);
    const nz = await platform.post(accounts, { ...account, country: 'NZ', routingNumber: '' });
    expect([nz.status, nz.body.detail]).toEqual([400, expect.stringMatching(/^(country|routingNumber)/)]);
    const primary = await platform.put(`${base}/bankAccounts/${second}/primary`);
    expect(primary.body.primaryBankAccountId).toBe(second);

    const order = (await platform.post('/platforms/mktp_demo/merchants/mcht_alpha/orders', legacyOrder())).body;
    expect(order).toMatchObject({ merchantId: 'mcht_alpha', platformId: 'mktp_demo' });
    const token = (
      await sb.legacy('Limepay-PublicKey', KEYS.alphaPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })
    ).body.paymentTokenId;
    const paid = await platform.post(`/platforms/mktp_demo/merchants/mcht_alpha/orders/${order.merchantOrderId}/pay`, {
      paymentToken: token,
    });
    expect(paid.status).toBe(200);
    const tx = paid.body.transactionId;
    const transfer = (amount: number) => ({
      fromMerchant: 'mcht_alpha',
      toMerchant: 'mcht_beta',
      transferAmount: { amount, currency: 'AUD' },
      surcharge: false,
    });
    await platform.post(`/transactions/${tx}/transfers`, transfer(1_000));
    const moved = await platform.post(`/transactions/${tx}/transfers`, transfer(3_000));
    expect(moved.body).toMatchObject({
      transactionId: tx,
      transactionMerchant: 'mcht_alpha',
      transactionAmount: 10_000,
      currency: 'AUD',
      totalTransferred: 4_000,
    });
    expect(moved.body.transfers).toEqual([
      expect.objectContaining({ transferredToMerchantId: 'mcht_beta', transferred: 1_000, surcharged: 0, levy: 0 }),
      expect.objectContaining({ transferredToMerchantId: 'mcht_beta', transferred: 3_000 }),
    ]);
    const reverse = (amount: number) => ({
      fromMerchant: 'mcht_beta',
      toMerchant: 'mcht_alpha',
      reverseAmount: { amount, currency: 'AUD' },
      reverseLevy: false,
    });
    // the platform fee and a levy have their places in the current transfer (the transaction-transfers guide): taken, the levy reported
    const surcharged = await platform.post(`/transactions/${tx}/transfers`, {
      ...transfer(1_000),
      surcharge: true,
      levy: 100,
    });
    expect(surcharged.body).toMatchObject({ totalTransferred: 5_000, totalLevied: 100 });
    expect(surcharged.body.transfers.at(-1)).toMatchObject({ transferred: 1_000, levy: 100 });
    expect((await platform.post(`/transactions/${tx}/transfers:reverse`, reverse(1_000))).body).toMatchObject({
      totalTransferred: 4_000,
      totalLevied: 0,
    });
    const partial = await platform.post(`/transactions/${tx}/transfers:reverse`, reverse(500));
    expect([partial.status, partial.body.errorCode]).toEqual([400, 'invalid_request']);
    const reversed = await platform.post(`/transactions/${tx}/transfers:reverse`, reverse(3_000));
    expect(reversed.body).toMatchObject({
      totalTransferred: 1_000,
      transfers: [expect.objectContaining({ transferred: 1_000 })],
    });
    // 1 000 is still with mcht_beta: 9 000 is what is left to refund
    const refund = await platform.post('/platforms/mktp_demo/refunds', {
      transactionId: tx,
      refundAmount: { amount: 9_000, currency: 'AUD' },
    });
    expect(refund.body.refundId).toMatch(/^rfnd_/);
  });
});
