/**
 * The sandbox's current face as current-api-decisions.md has it since the official client and the
 * reference were read (current-api-changes.md rows 37-45): the reference's paths (KYC, payouts and
 * settlement under /transactions, the earlier paths kept as aliases), Query Transactions' filters,
 * decimal quantities, the official plugin's customer and saved-source token, PayByPaymentToken; and
 * the legacy order carrying every field of the legacy reference's GetOrder sample, on the legacy face
 * and through the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  kycResponse,
  payoutSummary,
  payoutSummaryList,
  settlementEntryList,
  settlementReport,
  transactionList,
} from '../../src/contract/current-responses.js';
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

let sb: TestSandbox;
let solo: Client;
beforeAll(async () => {
  sb = await startSandbox();
  solo = sb.current(KEYS.soloSk);
});
afterAll(() => sb.close());

describe("the reference's paths", () => {
  it('KYC is POST /customers/kyc, the customer in the body or Customer-Id; PATCH /customers/{id} stays an alias', async () => {
    const kyc = { dateOfBirth: '1980-02-03', documentType: 'Passport', documentNumber: 'PA12345' };
    const byBody = await solo.post('/customers/kyc', { KycCustomer: { customerId: 'cust_alice', ...kyc } });
    expect(byBody.status, byBody.text).toBe(200);
    expect(kycResponse.parse(byBody.body)).toMatchObject({ customerId: 'cust_alice', kycStatus: 'Verified' });
    const byHeader = await sb
      .current(KEYS.soloSk, { 'Customer-Id': 'cust_alice' })
      .post('/customers/kyc', { KycCustomer: kyc });
    expect(byHeader.body).toMatchObject({ customerId: 'cust_alice', kycStatus: 'Verified' });
    const nobody = await solo.post('/customers/kyc', { KycCustomer: kyc });
    expect([nobody.status, nobody.body.detail]).toEqual([
      400,
      'KycCustomer.customerId: required (or the Customer-Id header)',
    ]);
    expect((await solo.patch('/customers/cust_alice', { KycCustomer: kyc })).body).toMatchObject({
      kycStatus: 'Verified',
    });
    // another merchant's customer is not found, whichever path
    expect((await solo.post('/customers/kyc', { KycCustomer: { customerId: 'cust_olga', ...kyc } })).status).toBe(404);
  });

  it('payouts and settlement under /transactions: a payout by id, its entries, the report; the earlier paths answer alike', async () => {
    await paidCardTransaction(solo);
    const payouts = payoutSummaryList.parse((await solo.get('/transactions/payouts')).body);
    expect(payouts.length).toBeGreaterThan(0);
    expect((await solo.get('/payouts/summaries')).body).toEqual(payouts);
    const one = await solo.get(`/transactions/payouts/${payouts[0]!.payoutId}`);
    expect(payoutSummary.parse(one.body)).toEqual(payouts[0]);
    expect((await solo.get('/transactions/payouts/pout_nosuchpayout')).status).toBe(404);
    expect((await solo.get('/transactions/payouts/tran_x')).status).toBe(400);
    // another merchant's payout is not found
    expect((await sb.current(KEYS.otherSk).get(`/transactions/payouts/${payouts[0]!.payoutId}`)).status).toBe(404);
    const entries = settlementEntryList.parse((await solo.get('/transactions/settlement?limit=500')).body);
    expect((await solo.get('/settlements/entries?limit=500')).body).toEqual(entries);
    const report = settlementReport.parse((await solo.get('/transactions/settlement/report')).body);
    for (const payout of report) expect(payout.entries.reduce((sum, e) => sum + e.amount, 0)).toBe(payout.netAmount);
  });

  it("Query Transactions takes the reference's filters: status, amount, when created, merchant", async () => {
    const authorised = await paidCardTransaction(solo, { authoriseOnly: true });
    const byStatus = transactionList.parse((await solo.get('/transactions?status=not_captured&limit=500')).body);
    expect(byStatus.map((t) => t.purchaseDetails.transactionId)).toContain(authorised);
    expect(byStatus.every((t) => t.purchaseDetails.status === 'not_captured')).toBe(true);
    const detail = (await solo.get(`/transactions/${authorised}`)).body.purchaseDetails;
    const around = `createdAfter=${new Date(Date.parse(detail.createdAt) - 1).toISOString()}&createdBefore=${new Date(Date.parse(detail.createdAt) + 1).toISOString()}`;
    expect(
      transactionList
        .parse((await solo.get(`/transactions?${around}&amount=10000`)).body)
        .map((t) => t.purchaseDetails.transactionId),
    ).toEqual([authorised]);
    expect((await solo.get('/transactions?amount=1')).body).toEqual([]);
    expect((await solo.get('/transactions?merchantId=mcht_solo&limit=1')).status).toBe(200);
    expect((await solo.get('/transactions?merchantId=mcht_other')).status).toBe(403);
    expect((await solo.get('/transactions?status=authorised')).status).toBe(400);
  });

  it('an item quantity may be a decimal (the reference: 1.5), read back on both faces', async () => {
    const items = [
      { amount: { minorCurrencyUnits: 10_000, currency: 'AUD' }, description: 'Cheese, by the kilo', quantity: 1.5 },
    ];
    const created = await solo.post('/orders', currentOrder({ items }));
    expect(created.status, created.text).toBe(200);
    const orderId = created.body.OnlineOrder.order.orderId;
    expect(created.body.OnlineOrder.order.items[0].quantity).toBe(1.5);
    expect((await sb.legacy('Limepay-SecretKey', KEYS.soloSk).get(`/orders/${orderId}`)).body.items[0].quantity).toBe(
      1.5,
    );
    expect((await solo.post('/orders', currentOrder({ items: [{ ...items[0], quantity: 0 }] }))).status).toBe(400);
  });
});

describe("the official plugin's calls", () => {
  it('RegisterPluginConsumerCustomer answers {customerId}: the same customer for the same reference', async () => {
    const body = {
      RegisterPluginConsumerCustomer: {
        referenceCustomerId: '77',
        givenName: '',
        familyName: 'Lee',
        emailAddress: 'lee@example.com',
      },
    };
    const first = await solo.post('/customers', body);
    expect(first.status, first.text).toBe(200);
    expect(Object.keys(first.body)).toEqual(['customerId']);
    expect((await solo.post('/customers', body)).body).toEqual(first.body);
  });

  it('CreateSavedPaymentSourceToken answers SavedPaymentSourceToken; PayByPaymentToken pays with it', async () => {
    const source = (
      await sb
        .current(KEYS.soloSk, { 'Customer-Id': 'cust_alice' })
        .post('/sandbox/card-sources', { cardNumber: CARDS.ok })
    ).body.paymentSourceId;
    const token = await solo.post('/tokens', {
      CreateSavedPaymentSourceToken: {
        paymentSourceId: source,
        amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
      },
    });
    expect(token.status, token.text).toBe(200);
    expect(Object.keys(token.body)).toEqual(['SavedPaymentSourceToken']);
    const order = (await solo.post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
    const paid = await solo.post(`/orders/${order}/pay`, {
      PayByPaymentToken: { paymentTokenId: token.body.SavedPaymentSourceToken.paymentTokenId },
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body.PayOrderComplete).toMatchObject({ transactionStatus: 'paid', amount: 10_000, type: 'payinfull' });
    // the earlier decision's action is no longer taken
    expect(
      (
        await solo.post('/tokens', {
          CardPaymentSourceId: { paymentSourceId: source, amount: { minorCurrencyUnits: 1, currency: 'AUD' } },
        })
      ).status,
    ).toBe(400);
  });
});

/** The keys of the legacy reference's GetOrder response sample (limepay.redoc.ly, GetOrder), read there. */
const GET_ORDER_SAMPLE_KEYS = [
  'merchantOrderId',
  'merchantId',
  'marketplaceId',
  'internalOrderId',
  'amount',
  'currency',
  'paymentTypeAmounts',
  'amountPaid',
  'customerEmail',
  'phoneNo',
  'type',
  'description',
  'items',
  'invoiceLineItems',
  'taxIncluded',
  'taxIncludedAmountOverride',
  'discount',
  'shipping',
  'billing',
  'metadata',
  'status',
  'request3DSOnPayment',
  'emailCustomerReceipt',
  'createdAt',
  'updatedAt',
];

describe("the legacy order carries every field of the legacy reference's GetOrder sample", () => {
  let gw: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    gw = await startGateway({
      upstreams: { sandbox: { current: sb.currentUrl } },
      routes: { '*': 'current' },
      serviceKey: KEYS.operator,
    });
  });
  afterAll(() => gw.close());

  it('on the legacy face and through the gateway: null where the current order has nothing, amountPaid 0 until paid, then the amount', async () => {
    const legacy = sb.legacy('Limepay-SecretKey', KEYS.soloSk);
    const translated = client(gw.url, { 'Limepay-SecretKey': KEYS.soloSk });
    for (const side of [legacy, translated]) {
      const created = await side.post('/orders', legacyOrder());
      expect(Object.keys(created.body)).toEqual(expect.arrayContaining(GET_ORDER_SAMPLE_KEYS));
      expect(created.body).toMatchObject({
        amountPaid: 0,
        paymentTypeAmounts: null,
        invoiceLineItems: null,
        taxIncluded: null,
        taxIncludedAmountOverride: null,
        request3DSOnPayment: null,
        emailCustomerReceipt: null,
      });
      const token = (await sb.current(KEYS.soloPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body
        .paymentTokenId;
      expect((await side.post(`/orders/${created.body.merchantOrderId}/pay`, { paymentToken: token })).status).toBe(
        200,
      );
      const read = await side.get(`/orders/${created.body.merchantOrderId}`);
      expect(read.body).toMatchObject({ status: 'paid', amountPaid: 10_000 });
      expect(Object.keys(read.body)).toEqual(expect.arrayContaining(GET_ORDER_SAMPLE_KEYS));
    }
  });
});
