import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agreementStatusResponse,
  bareOrder,
  blockedCardList,
  cardPayResponse,
  customerCreated,
  customerList,
  merchantResponse,
  orderResponse,
  paymentSource,
  savedSource,
  payPlan,
  payPlanList,
  payPlanMaxResponse,
  payToPayResponse,
  payToTokenResponse,
  threeDSRequiredResponse,
  transactionDetail,
  transactionList,
} from '../../src/contract/current-responses.js';
import { CARDS, currentOrder, KEYS, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

describe('current face: online card flow', () => {
  it('pays an order by card, refunds part then the rest, with timelines, refundIds and metadata unchanged', async () => {
    const api = sb.current(KEYS.soloSk);
    const token = await api.post('/sandbox/card-tokens', { cardNumber: CARDS.ok });
    expect(token.status).toBe(200);

    const metadata = { cart: { id: 42, tags: ['gift'] }, email: 'not-renamed@example.com', firstName: 'x' };
    const created = await api.post('/orders', currentOrder({ metadata }));
    expect(created.status).toBe(200);
    const order = orderResponse.parse(created.body).OnlineOrder.order;
    expect(order).toMatchObject({ merchantId: 'mcht_solo', status: 'created', metadata, referenceOrderId: 'ref-1' });

    const paid = await api.post(`/orders/${order.orderId}/pay`, {
      PayByCard: { paymentTokenId: token.body.paymentTokenId },
    });
    expect(paid.status).toBe(200);
    // the official plugin takes a payment only wrapped in PayOrderComplete
    const payment = cardPayResponse.parse(paid.body).PayOrderComplete;
    expect(payment).toMatchObject({
      transactionStatus: 'paid',
      amount: 10_000,
      currency: 'AUD',
      payType: 'payinfull',
      type: 'payinfull',
    });

    const detail = transactionDetail.parse((await api.get(`/transactions/${payment.transactionId}`)).body);
    expect(detail.purchaseDetails).toMatchObject({
      status: 'paid',
      refundedAmount: 0,
      orderMetadata: metadata,
      refundIds: [],
    });
    expect(detail.timelines.map((t) => t.eventType)).toEqual(['PaymentSucceed']);
    expect(detail.timelines[0]).toMatchObject({ amount: 10_000, identifier: null });

    const partial = await api.patch(`/transactions/${payment.transactionId}`, {
      CreateRefund: { refundAmount: 2_500 },
    });
    expect(partial.status).toBe(200);
    const afterPartial = transactionDetail.parse(partial.body);
    expect(afterPartial.purchaseDetails).toMatchObject({ status: 'partially_refunded', refundedAmount: 2_500 });
    expect(afterPartial.purchaseDetails.refundIds).toHaveLength(1);

    const full = transactionDetail.parse(
      (await api.patch(`/transactions/${payment.transactionId}`, { CreateRefund: { refundAmount: 7_500 } })).body,
    );
    expect(full.purchaseDetails).toMatchObject({ status: 'refunded', refundedAmount: 10_000 });
    const [first, second] = full.purchaseDetails.refundIds;
    expect(full.timelines).toEqual([
      expect.objectContaining({ eventType: 'PaymentSucceed', amount: 10_000, identifier: null }),
      expect.objectContaining({ eventType: 'PaymentRefunded', amount: 2_500, identifier: first }),
      expect.objectContaining({ eventType: 'PaymentRefunded', amount: 7_500, identifier: second }),
    ]);
    const times = full.timelines.map((t) => t.eventTime);
    expect([...times].sort()).toEqual(times);
    expect(full.purchaseDetails.orderMetadata).toEqual(metadata);

    const order2 = orderResponse.parse((await api.get(`/orders/${order.orderId}`)).body).OnlineOrder.order;
    expect(order2.status).toBe('paid');
    const listed = transactionList.parse((await api.get(`/transactions?orderId=${order.orderId}`)).body);
    expect(listed.map((t) => t.purchaseDetails.transactionId)).toEqual([payment.transactionId]);
  });

  it('refuses a refund above the remaining amount and refunds nothing', async () => {
    const api = sb.current(KEYS.soloSk);
    const tx = await paidCardTransaction(api);
    const over = await api.patch(`/transactions/${tx}`, { CreateRefund: { refundAmount: 10_001 } });
    expect(over.status).toBe(400);
    expect(over.body.errorCode).toBe('refund_exceeds_amount');
    const detail = transactionDetail.parse((await api.get(`/transactions/${tx}`)).body);
    expect(detail.purchaseDetails).toMatchObject({ status: 'paid', refundedAmount: 0, refundIds: [] });
  });

  it('authorises only, then captures part; or cancels the authorisation and the order with it', async () => {
    const api = sb.current(KEYS.soloSk);
    const auth = await paidCardTransaction(api, { authoriseOnly: true });
    let detail = transactionDetail.parse((await api.get(`/transactions/${auth}`)).body);
    expect(detail.purchaseDetails.status).toBe('not_captured');
    expect(detail.paymentMethod.paymentStatus).toBe('Authorised');
    const captured = await api.patch(`/transactions/${auth}`, { CaptureFunds: { amount: 8_000 } });
    detail = transactionDetail.parse(captured.body);
    expect(detail.purchaseDetails).toMatchObject({
      status: 'paid',
      amount: { minorCurrencyUnits: 8_000, currency: 'AUD' },
    });
    expect((await api.patch(`/transactions/${auth}`, { CaptureFunds: { amount: 1 } })).body.errorCode).toBe(
      'transaction_not_capturable',
    );

    const other = await paidCardTransaction(api, { authoriseOnly: true });
    const cancelled = transactionDetail.parse(
      (await api.patch(`/transactions/${other}`, { CancelAuthorisation: {} })).body,
    );
    expect(cancelled.purchaseDetails.status).toBe('cancelled');
    const order = await api.get(`/orders/${cancelled.purchaseDetails.orderId}`);
    expect(order.body.OnlineOrder.order.status).toBe('cancelled');
  });

  it('cancels an unpaid order and refuses to cancel a paid one', async () => {
    const api = sb.current(KEYS.soloSk);
    const order = (await api.post('/orders', currentOrder())).body.OnlineOrder.order;
    // Cancel Order as the reference has it: DELETE, answered with the bare order
    const cancelled = await api.delete(`/orders/${order.orderId}`);
    expect(bareOrder.parse(cancelled.body).status).toBe('cancelled');
    expect((await api.patch(`/orders/${order.orderId}`, { CancelOrder: {} })).status).toBe(400);
    const tx = await paidCardTransaction(api);
    const paidOrder = (await api.get(`/transactions/${tx}`)).body.purchaseDetails.orderId;
    const refused = await api.delete(`/orders/${paidOrder}`);
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('order_not_cancellable');
    const renamed = await api.patch(`/orders/${paidOrder}`, { UpdateReferenceOrderId: { referenceOrderId: 'ref-2' } });
    expect(bareOrder.parse(renamed.body).referenceOrderId).toBe('ref-2');
  });
});

describe('current face: test instruments', () => {
  it('asks for 3DS with ThreeDSAuthorisationRequired and completes it with Confirm3DSComplete', async () => {
    const api = sb.current(KEYS.soloSk);
    const token = (await api.post('/sandbox/card-tokens', { cardNumber: CARDS.threeDS })).body.paymentTokenId;
    const order = (await api.post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
    const challenge = await api.post(`/orders/${order}/pay`, { PayByCard: { paymentTokenId: token } });
    expect(challenge.status).toBe(200);
    const required = threeDSRequiredResponse.parse(challenge.body).ThreeDSAuthorisationRequired;
    expect(required.redirectUrl).toBe(`${sb.currentUrl}/sandbox/3ds/${required.threeDSAuthorisationId}`);
    const wrongToken = (await api.post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body.paymentTokenId;
    const mismatch = await api.post(`/orders/${order}/pay`, {
      Confirm3DSComplete: {
        paymentTokenId: wrongToken,
        threeDSResponse: { threeDSAuthorisationId: required.threeDSAuthorisationId },
      },
    });
    expect(mismatch.body.errorCode).toBe('invalid_request');
    const done = await api.post(`/orders/${order}/pay`, {
      Confirm3DSComplete: {
        paymentTokenId: token,
        threeDSResponse: { threeDSAuthorisationId: required.threeDSAuthorisationId },
      },
    });
    expect(cardPayResponse.parse(done.body).PayOrderComplete.transactionStatus).toBe('paid');
  });

  it('blocks a card after three declines at one merchant until it is unblocked', async () => {
    const api = sb.current(KEYS.otherSk);
    const order = (await api.post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
    const pay = async (card: string) => {
      const token = (await api.post('/sandbox/card-tokens', { cardNumber: card })).body.paymentTokenId;
      return api.post(`/orders/${order}/pay`, { PayByCard: { paymentTokenId: token } });
    };
    for (let i = 0; i < 3; i++) expect((await pay(CARDS.decline)).body.errorCode).toBe('do_not_honor');
    expect((await pay(CARDS.decline)).body.errorCode).toBe('card_blocked');
    const blocked = blockedCardList.parse((await api.get('/sources/blockedcards')).body);
    expect(blocked).toEqual([
      expect.objectContaining({ cardHint: '****0002', status: 'blocked', merchantId: 'mcht_other' }),
    ]);
    expect((await sb.current(KEYS.soloSk).get('/sources/blockedcards')).body).toEqual([]);
    const unblocked = await api.patch(`/sources/blockedcards/${blocked[0]!.cardBlockId}`, { UnblockCard: {} });
    expect(unblocked.body.status).toBe('unblocked');
    expect((await pay(CARDS.decline)).body.errorCode).toBe('do_not_honor');
    expect((await pay(CARDS.ok)).status).toBe(200);
  });

  it('refuses a card number that fails the Luhn check', async () => {
    const res = await sb.current(KEYS.soloSk).post('/sandbox/card-tokens', { cardNumber: '4242424242424241' });
    expect(res.body).toMatchObject({ statusCode: 400, errorCode: 'invalid_request' });
    expect(res.body.detail).toMatch(/^cardNumber: /);
  });

  it('offers pay plans within the customer limit and lists them', async () => {
    const api = sb.current(KEYS.soloSk);
    // the reference's Calculate Pay Plan Max Loan: currency required, the answer's field is amount
    const max = await api.post(
      '/payplans/max',
      { currency: 'AUD', payPlanVariant: 'payplan_fortnight_25_25_25_25' },
      { 'Customer-Id': 'cust_alice' },
    );
    expect(payPlanMaxResponse.parse(max.body).amount.minorCurrencyUnits).toBe(200_000);
    expect(
      (
        await api.post(
          '/payplans/max',
          { payPlanVariant: 'payplan_fortnight_25_25_25_25' },
          { 'Customer-Id': 'cust_alice' },
        )
      ).body.detail,
    ).toMatch(/^currency: /);
    const offer = await api.post('/payplans/offer', {
      customerId: 'cust_alice',
      amount: { minorCurrencyUnits: 100_000, currency: 'AUD' },
      initialPayment: 20_000,
      payPlanVariant: 'payplan_fortnight_25_25_25_25',
    });
    const plan = payPlan.parse(offer.body);
    expect(plan.instalments.map((i) => i.amount)).toEqual([20_000, 20_000, 20_000, 20_000]);
    const after = await api.post('/payplans/max', { currency: 'AUD' }, { 'Customer-Id': 'cust_alice' });
    expect(after.body.amount.minorCurrencyUnits).toBe(120_000);
    const tooMuch = await api.post('/payplans/offer', {
      customerId: 'cust_alice',
      amount: { minorCurrencyUnits: 200_000, currency: 'AUD' },
      initialPayment: 0,
      payPlanVariant: 'payplan_12_monthly_payments',
    });
    expect(tooMuch.body.errorCode).toBe('pay_plan_limit_exceeded');
    expect(payPlanList.parse((await api.get('/payplans?merchantId=mcht_solo')).body)).toHaveLength(1);
    expect((await api.get('/payplans?merchantId=mcht_other')).status).toBe(403);
  });

  it('upserts customers by referenceCustomerId and queries them by email and merchant', async () => {
    const api = sb.current(KEYS.soloSk);
    const body = {
      UpsertConsumerCustomer: { referenceCustomerId: 'crm-1', emailAddress: 'max@example.com', givenName: 'Max' },
    };
    const first = customerCreated.parse((await api.post('/customers', body)).body);
    const second = await api.post('/customers', {
      UpsertConsumerCustomer: { ...body.UpsertConsumerCustomer, familyName: 'Mustermann' },
    });
    expect(second.body.customerId).toBe(first.customerId);
    // Query Customers takes no merchant secret key (reference security list): the operator's marketplace key reads them
    const refused = await api.get('/customers?emailAddress=max@example.com&merchantId=mcht_solo');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('Query Customers');
    const found = customerList.parse(
      (await sb.current(KEYS.operator).get('/customers?emailAddress=max@example.com&merchantId=mcht_solo')).body,
    );
    expect(found).toEqual([
      {
        customerId: first.customerId,
        referenceCustomerId: 'crm-1',
        emailAddress: 'max@example.com',
        phoneNumber: null,
        givenName: 'Max',
        familyName: 'Mustermann',
      },
    ]);
  });

  it('lets a marketplace onboard a service-provider sub-merchant whose fresh keys work, answered wrapped by kind (reference)', async () => {
    const mk = sb.current(KEYS.marketplace);
    const create = (slug: string) => ({
      CreateServiceProviderSubmerchant: {
        slug,
        businessProfile: { businessName: 'Delta', timeZone: 'Australia/Sydney' },
        contactEmailAddress: 'd@example.com',
        taxCountry: 'AU',
      },
    });
    const created = merchantResponse.parse((await mk.post('/merchants', create('delta'))).body).ServiceProviderMerchant;
    expect(created).toMatchObject({
      status: 'Pending',
      businessProfile: {
        businessName: 'Delta',
        timeZone: 'Australia/Sydney',
        tradingCountry: 'AU',
        contactEmailAddress: 'd@example.com',
      },
    });
    const merchant = merchantResponse.parse(
      (await mk.get(`/merchants/${created.merchantId}`)).body,
    ).ServiceProviderMerchant;
    expect(merchant.marketplaceId).toBe('mktp_demo');
    const token = await sb.current(merchant.publicKey).post('/sandbox/card-tokens', { cardNumber: CARDS.ok });
    expect(token.status).toBe(200);
    const account = (accountNumber: string, setAsPrimary?: boolean) => ({
      AddMerchantBankAccount: {
        accountName: 'Delta',
        identifier: { AuBankAccountIdentifier: { bsb: '062000', accountNumber } },
        currency: 'AUD',
        ...(setAsPrimary === undefined ? {} : { setAsPrimary }),
      },
    });
    const first = merchantResponse.parse(
      (await mk.patch(`/merchants/${created.merchantId}`, account('1234567'))).body,
    ).ServiceProviderMerchant;
    expect(first.bankAccounts[0]!.identifier.AuBankAccountIdentifier.bsb).toBe('062-000');
    expect([first.status, first.primaryBankAccountId]).toEqual(['Active', first.bankAccounts[0]!.bankAccountId]);
    const second = merchantResponse.parse(
      (await mk.patch(`/merchants/${created.merchantId}`, account('7654321'))).body,
    ).ServiceProviderMerchant;
    expect(second.primaryBankAccountId).toBe(first.bankAccounts[0]!.bankAccountId);
    const third = merchantResponse.parse(
      (await mk.patch(`/merchants/${created.merchantId}`, account('5555555', true))).body,
    ).ServiceProviderMerchant;
    expect(third.primaryBankAccountId).toBe(third.bankAccounts[2]!.bankAccountId);
    expect(
      (
        await mk.patch(`/merchants/${created.merchantId}`, {
          AddMerchantBankAccount: { bsb: '062000', accountNumber: '1', accountName: 'Old form' },
        })
      ).status,
    ).toBe(400);
    expect((await sb.current(KEYS.soloSk).post('/merchants', create('x1'))).status).toBe(403);
    expect(
      (
        await mk.post('/merchants', {
          CreateMerchant: {
            slug: 'x2',
            businessName: 'X',
            contactEmailAddress: 'x@example.com',
            taxCountry: 'AU',
            tradingCountry: 'AU',
          },
        })
      ).status,
    ).toBe(400);
  });
});

describe('current face: PayTo', () => {
  const agreement = (terms: object, value = '062-000-12345678') => ({
    customerName: 'Jo Citizen',
    customerAccIdentifier: { Bban: { value } },
    terms,
    purpose: 'Groceries',
  });

  it('runs the one-off flow: agreement, poll until Active, PayTo token, order, PayByPayTo', async () => {
    const api = sb.current(KEYS.soloSk);
    const created = await api.post(
      '/payto/agreement',
      agreement({ AgreementRequestTermsOneOff: { amount: { amount: 10_000, currency: 'AUD' } } }),
    );
    expect(created.status).toBe(200);
    const status = agreementStatusResponse.parse((await api.get(`/payto/agreement?token=${created.body.token}`)).body);
    expect(status.status).toBe('Active');

    const tokenRes = await api.post('/tokens', {
      CreatePayToToken: { amount: { minorCurrencyUnits: 10_000, currency: 'AUD' }, agreementToken: created.body.token },
    });
    const token = payToTokenResponse.parse(tokenRes.body).PayToToken;
    expect(token.surchargeAmount).toBe(0);
    expect(token.accountIdentifierHint).toBe('062000-1234****');

    const order = (await api.post('/orders', currentOrder())).body.OnlineOrder.order;
    const paid = await api.post(`/orders/${order.orderId}/pay`, {
      PayByPayTo: { paymentTokenId: token.paymentTokenId },
    });
    expect(paid.status).toBe(200);
    const complete = payToPayResponse.parse(paid.body).PayOrderComplete;
    expect(complete).toMatchObject({
      transactionStatus: 'paid',
      amount: 10_000,
      currency: 'AUD',
      surchargeAmount: 0,
      payType: 'payinfull',
    });
    expect(complete.transactionDetails.paymentMethod).toMatchObject({
      paymentMethodType: 'PayTo',
      paymentStatus: 'Settled',
      accountHint: '062000-1234****',
    });
    expect(complete.transactionDetails.timelines.map((t) => t.eventType)).toEqual(['PaymentSucceed']);

    // the one-off agreement has paid its single payment
    const again = await api.post('/tokens', {
      CreatePayToToken: { amount: { minorCurrencyUnits: 10_000, currency: 'AUD' }, agreementToken: created.body.token },
    });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('agreement_not_active');
  });

  it('saves an open agreement as a payment source for a customer', async () => {
    const api = sb.current(KEYS.soloSk, { 'Customer-Id': 'cust_alice' });
    const created = await api.post('/payto/agreement', {
      ...agreement({ AgreementRequestTermsOpen: {} }),
      customerAccIdentifier: { Alias: { aliasType: 'Phone', value: '+61412345678' } },
    });
    const saved = await api.post('/sources', {
      CreateSavedPaymentSource: {
        sourceMethod: { PayToMethod: { agreementToken: created.body.token } },
        usageScope: 'ScopeOrganisation',
      },
    });
    expect(saved.status).toBe(200);
    const source = paymentSource.parse(saved.body);
    expect(source).toMatchObject({
      customerId: 'cust_alice',
      merchantId: 'mcht_solo',
      usageScope: null,
      legacyResp: null,
    });
    expect(source.sourceMethod).toHaveProperty('PayToMethodResp.accountIdentifierHint');

    // read back as Get Payment Source answers (reference): customerDelegateId, no legacyResp
    // Get Payment Source takes a marketplace API key or the customer's own credential, no merchant key (reference)
    const { legacyResp: _created, ...fields } = source;
    expect((await api.get(`/sources/${source.paymentSourceId}`)).status).toBe(403);
    const operator = sb.current(KEYS.operator, { 'Merchant-Id': 'mcht_solo' });
    expect(savedSource.parse((await operator.get(`/sources/${source.paymentSourceId}`)).body)).toEqual({
      ...fields,
      customerDelegateId: null,
    });
    const listed = await sb.current(KEYS.soloSk).get('/sources?customerId=cust_alice');
    expect(listed.body.map((s: { paymentSourceId: string }) => s.paymentSourceId)).toContain(source.paymentSourceId);
    expect((await api.delete(`/sources/${source.paymentSourceId}`)).status).toBe(204);
    expect((await operator.get(`/sources/${source.paymentSourceId}`)).status).toBe(404);
  });

  it('keeps an agreement Pending for the configured delay, and the bank declines 000000 accounts', async () => {
    let now = 1_000_000;
    const slow = await startSandbox({ agreementDelayMs: 2_000, now: () => now });
    try {
      const api = slow.current(KEYS.soloSk);
      const created = await api.post('/payto/agreement', agreement({ AgreementRequestTermsOpen: {} }));
      expect((await api.get(`/payto/agreement?token=${created.body.token}`)).body.status).toBe('Pending');
      const early = await api.post('/tokens', {
        CreatePayToToken: { amount: { minorCurrencyUnits: 100, currency: 'AUD' }, agreementToken: created.body.token },
      });
      expect(early.body).toMatchObject({ statusCode: 409, errorCode: 'agreement_not_active' });
      now += 2_000;
      expect((await api.get(`/payto/agreement?token=${created.body.token}`)).body.status).toBe('Active');

      const declined = await api.post(
        '/payto/agreement',
        agreement({ AgreementRequestTermsOpen: {} }, '062-000-00000099'),
      );
      now += 2_000;
      expect((await api.get(`/payto/agreement?token=${declined.body.token}`)).body.status).toBe('Declined');
    } finally {
      await slow.close();
    }
  });
});
