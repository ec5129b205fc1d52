/**
 * The sandbox's money rules in one place: refunds and transfers share one ceiling per payment (a
 * payment never pays out twice), a repeated filter value counts once, and masked account numbers
 * never show more than the first digits current-api.md's `<bsb>-<first digits>****` shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { CARDS, currentOrder, KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

/** A 10,000 card payment of mcht_alpha (a marketplace sub-merchant), made with the marketplace key. */
async function alphaPayment(): Promise<string> {
  const api = sb.current(KEYS.marketplace, { 'Merchant-Id': 'mcht_alpha' });
  const token = (await sb.current(KEYS.alphaPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body
    .paymentTokenId;
  const order = (await api.post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
  return (await api.post(`/orders/${order}/pay`, { PayByCard: { paymentTokenId: token } })).body.PayOrderComplete
    .transactionId;
}

describe('refunds and transfers share one ceiling (docs/decisions.md D-TX-2)', () => {
  it('refuses a refund of money already transferred, and a transfer of money already refunded', async () => {
    const api = sb.current(KEYS.marketplace);
    const tx = await alphaPayment();
    const moved = await api.patch(`/transactions/${tx}`, {
      TransferFunds: { transferAmount: 10_000, destinationMerchantId: 'mcht_beta' },
    });
    expect(moved.status).toBe(200);
    const refund = await api.patch(`/transactions/${tx}`, { CreateRefund: { refundAmount: 10_000 } });
    expect(refund.status).toBe(400);
    expect(refund.body).toMatchObject({
      errorCode: 'refund_exceeds_amount',
      detail: expect.stringMatching(/^refundAmount: 10000 exceeds the refundable 0 AUD/),
    });

    const tx2 = await alphaPayment();
    expect((await api.patch(`/transactions/${tx2}`, { CreateRefund: { refundAmount: 6_000 } })).status).toBe(200);
    expect(
      (
        await api.patch(`/transactions/${tx2}`, {
          TransferFunds: { transferAmount: 5_000, destinationMerchantId: 'mcht_beta' },
        })
      ).body.errorCode,
    ).toBe('transfer_exceeds_amount');
    expect(
      (
        await api.patch(`/transactions/${tx2}`, {
          TransferFunds: { transferAmount: 4_000, destinationMerchantId: 'mcht_beta' },
        })
      ).status,
    ).toBe(200);
    expect((await api.patch(`/transactions/${tx2}`, { CreateRefund: { refundAmount: 1 } })).body.errorCode).toBe(
      'refund_exceeds_amount',
    );
    // a reversed transfer gives the money back to refund
    const detail = (await api.get(`/transactions/${tx2}`)).body;
    const transferId = detail.transfers[0].transferId;
    expect((await api.patch(`/transactions/${tx2}`, { ReverseFundsTransfer: { transferId } })).status).toBe(200);
    expect((await api.patch(`/transactions/${tx2}`, { CreateRefund: { refundAmount: 4_000 } })).status).toBe(200);
    expect(sb.sandbox.store.transactions.get(tx2)!.status).toBe('refunded');
  });
});

describe('filters and masks (D-LIM-1, D-PT-3)', () => {
  it('counts a repeated filter value once', async () => {
    await sb
      .current(KEYS.soloSk, { 'Customer-Id': 'cust_alice' })
      .post('/sandbox/card-sources', { cardNumber: CARDS.ok });
    const api = sb.current(KEYS.soloSk);
    const once = (await api.get('/sources?customerId=cust_alice')).body;
    const twice = (await api.get('/sources?customerId=cust_alice&customerId=cust_alice')).body;
    expect(once.length).toBeGreaterThan(0);
    expect(twice).toEqual(once);
  });

  it('shows at most the first digits of an account number, never a short one whole', async () => {
    const api = sb.current(KEYS.soloPk);
    const hintOf = async (value: string) => {
      const token = (
        await api.post('/payto/agreement', {
          customerName: 'Pat',
          customerAccIdentifier: { Bban: { value } },
          terms: { AgreementRequestTermsOneOff: { amount: { amount: 100, currency: 'AUD' } } },
          purpose: 'test',
        })
      ).body.token;
      const payto = await client(sb.currentUrl, { authorization: `Bearer ${KEYS.soloPk}` }).post('/tokens', {
        CreatePayToToken: { amount: { minorCurrencyUnits: 100, currency: 'AUD' }, agreementToken: token },
      });
      return payto.body.PayToToken.accountIdentifierHint as string;
    };
    expect(await hintOf('062-000-12345678')).toBe('062000-1234****');
    expect(await hintOf('062-000-1234')).toBe('062000-12****');
    expect(await hintOf('062-000-987654')).toBe('062000-987****');
  });
});

describe('currencies, PayTo and list pages as docs/decisions.md states them', () => {
  it('takes ISO 4217 currencies only, on both faces (D-CUR-1)', async () => {
    const xyz = await sb
      .current(KEYS.soloSk)
      .post('/orders', currentOrder({ amount: { minorCurrencyUnits: 100, currency: 'XYZ' } }));
    expect(xyz.body).toMatchObject({
      statusCode: 400,
      errorCode: 'invalid_request',
      detail: 'CreateOnlineOrder.amount.currency: expected an ISO 4217 currency code',
    });
    const legacy = await client(sb.legacyUrl, { 'Limepay-SecretKey': KEYS.soloSk }).post('/orders', {
      internalOrderId: 'xyz-1',
      paymentAmount: { amount: 100, currency: 'XYZ' },
      description: 'x',
      billing: { name: 'Jo' },
    });
    expect(legacy.body).toMatchObject({
      statusCode: 400,
      errorCode: 'invalid_request',
      detail: 'paymentAmount.currency: expected an ISO 4217 currency code',
    });
    for (const currency of ['AUD', 'NZD', 'USD', 'ZAR'])
      expect(
        (await sb.current(KEYS.soloSk).post('/orders', currentOrder({ amount: { minorCurrencyUnits: 100, currency } })))
          .status,
        currency,
      ).toBe(200);
  });

  it('runs PayTo in Australian dollars only, and takes an NPP PayID phone alias with its dash (D-PT-1)', async () => {
    const pk = sb.current(KEYS.soloPk);
    const agreement = (alias: string, currency = 'AUD') =>
      pk.post('/payto/agreement', {
        customerName: 'Jo',
        customerAccIdentifier: { Alias: { aliasType: 'Phone', value: alias } },
        terms: { AgreementRequestTermsOneOff: { amount: { amount: 2_500, currency } } },
        purpose: 'groceries',
      });
    const usd = await agreement('+61412345678', 'USD');
    expect(usd.body).toMatchObject({
      statusCode: 400,
      errorCode: 'invalid_request',
      detail: expect.stringMatching(/^terms\.AgreementRequestTermsOneOff\.amount\.currency: expected AUD/),
    });
    const payId = await agreement('+61-412345678');
    expect(payId.status, JSON.stringify(payId.body)).toBe(200);
    expect((await agreement('+61412345678')).status).toBe(200);
    expect((await agreement('+61--412345678')).body.errorCode).toBe('invalid_request');
    const open = await pk.post('/payto/agreement', {
      customerName: 'Jo',
      customerAccIdentifier: { Bban: { value: '062-000-1234567' } },
      terms: { AgreementRequestTermsOpen: {} },
      purpose: 'x',
    });
    const usdToken = await pk.post('/tokens', {
      CreatePayToToken: { amount: { minorCurrencyUnits: 100, currency: 'USD' }, agreementToken: open.body.token },
    });
    expect(usdToken.body).toMatchObject({
      statusCode: 400,
      errorCode: 'invalid_request',
      detail: expect.stringMatching(/currency: expected AUD/),
    });
  });

  it('answers 20 items when a list names no limit (D-LIM-1)', async () => {
    const api = sb.current(KEYS.soloSk);
    for (let i = 0; i < 22; i++)
      expect(
        (
          await api.post('/customers', {
            UpsertConsumerCustomer: { emailAddress: `page${i}@example.com`, givenName: 'Page', familyName: `N${i}` },
          })
        ).status,
      ).toBe(200);
    // Query Customers takes no merchant secret key (reference): the operator's marketplace key lists them
    const reader = sb.current(KEYS.operator);
    const first = await reader.get('/customers?merchantId=mcht_solo');
    // a bare array (reference), 20 without a limit
    expect(first.body).toHaveLength(20);
    const all = (await reader.get('/customers?merchantId=mcht_solo&limit=500')).body as {
      emailAddress: string;
      familyName: string;
    }[];
    expect(all.length).toBeGreaterThanOrEqual(22);
    // page from 1, limit per page; sort by fields, - for descending
    const second = (await reader.get('/customers?merchantId=mcht_solo&limit=20&page=2')).body as unknown[];
    expect(second).toEqual(all.slice(20, 40));
    const byName = (await reader.get('/customers?merchantId=mcht_solo&limit=500&sort=-familyName,emailAddress'))
      .body as { familyName: string | null }[];
    // descending, and a customer without the field last (as an unset value sorts)
    const names = byName.map((c) => c.familyName).filter((n): n is string => n !== null);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(byName.findIndex((c) => c.familyName === null)).not.toBeLessThan(names.length);
    expect((await reader.get('/customers?merchantId=mcht_solo&cursor=20')).body).toMatchObject({
      statusCode: 400,
      errorCode: 'invalid_request',
    });
    expect((await reader.get('/customers?merchantId=mcht_solo&limit=501')).body).toMatchObject({
      statusCode: 400,
      detail: expect.stringMatching(/^query.limit: /),
    });
  });
});
