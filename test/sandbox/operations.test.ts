/**
 * The operations current-api.md names without a shape, over HTTP on the sandbox's current face: happy
 * path, authorisation and bad input for each (shapes and rules: docs/decisions.md), the settlement
 * consistency rule on a generated history, and the seed's three flows with every credential type the
 * seed allows for each step.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  beneficialOwnerList,
  beneficialOwnerResponse,
  industryList,
  kycResponse,
  merchantFileResponse,
  merchantList,
  payoutSummaryList,
  settlementEntryList,
  surchargeResponse,
} from '../../src/contract/current-responses.js';
import { client } from '../helpers/http.js';
import { CARDS, currentOrder, jwt, KEYS, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const owner = (share: number) => ({
  givenName: 'Ana',
  familyName: 'Owner',
  dateOfBirth: '1980-02-03',
  ownershipPercentage: share,
});

describe('merchants: query, files, industries (docs/decisions.md D-MER-1, D-MER-2, D-MER-3)', () => {
  it('lists the merchants a credential may see, filters by slug, and refuses another marketplace merchant', async () => {
    const mk = sb.current(KEYS.marketplace);
    const all = merchantList.parse((await mk.get('/merchants')).body);
    expect(all.map((m) => m.ServiceProviderMerchant.merchantId).sort()).toEqual(['mcht_alpha', 'mcht_beta']);
    expect(
      merchantList
        .parse((await sb.current(KEYS.soloSk).get('/merchants')).body)
        .map((m) => m.ServiceProviderMerchant.merchantId),
    ).toEqual(['mcht_solo']);
    expect((await mk.get('/merchants?merchantId=mcht_solo')).status).toBe(403);
    expect((await mk.get('/merchants?limit=0')).body).toMatchObject({
      errorCode: 'invalid_request',
      detail: expect.stringMatching(/^query\.limit/),
    });
  });

  it('uploads a merchant file (size and digest kept), only for a merchant the caller may act for', async () => {
    const content = Buffer.from('%PDF-1.4 registration certificate').toString('base64');
    const file = merchantFileResponse.parse(
      (
        await sb.current(KEYS.marketplace).post('/merchants/mcht_alpha/files', {
          UploadMerchantFile: {
            fileName: 'abn.pdf',
            contentType: 'application/pdf',
            purpose: 'BusinessRegistration',
            contentBase64: content,
          },
        })
      ).body,
    );
    expect(file).toMatchObject({ merchantId: 'mcht_alpha', sizeBytes: 33, purpose: 'BusinessRegistration' });
    expect(
      (
        await sb.current(KEYS.soloSk).post('/merchants/mcht_alpha/files', {
          UploadMerchantFile: {
            fileName: 'x.pdf',
            contentType: 'application/pdf',
            purpose: 'Other',
            contentBase64: content,
          },
        })
      ).status,
    ).toBe(404);
    const bad = await sb.current(KEYS.soloSk).post('/merchants/mcht_solo/files', {
      UploadMerchantFile: {
        fileName: 'x.exe',
        contentType: 'application/x-msdownload',
        purpose: 'Other',
        contentBase64: content,
      },
    });
    expect(bad.body).toMatchObject({
      statusCode: 400,
      detail: expect.stringMatching(/^UploadMerchantFile\.contentType/),
    });
    expect(
      (
        await sb.current(KEYS.soloPk).post('/merchants/mcht_solo/files', {
          UploadMerchantFile: {
            fileName: 'x.pdf',
            contentType: 'application/pdf',
            purpose: 'Other',
            contentBase64: content,
          },
        })
      ).status,
    ).toBe(403);
  });

  it('lists industries for any credential, and a merchant declares one of them', async () => {
    const list = industryList.parse((await sb.current(KEYS.soloPk).get('/industries')).body);
    expect(list.items).toContainEqual({ industryCode: 'G', name: 'Retail Trade' });
    const set = await sb
      .current(KEYS.soloSk)
      .patch('/merchants/mcht_solo', { SetMerchantIndustry: { industryCode: 'G' } });
    expect(set.body.ServiceProviderMerchant.industryCode).toBe('G');
    expect(
      (await sb.current(KEYS.soloSk).patch('/merchants/mcht_solo', { SetMerchantIndustry: { industryCode: 'Z' } }))
        .body,
    ).toMatchObject({ statusCode: 400, detail: expect.stringMatching(/industryCode/) });
    expect((await client(sb.currentUrl).get('/industries')).status).toBe(401);
  });
});

describe('beneficial owners (D-BO-1)', () => {
  it('creates, gets, lists, replaces and deletes, keeping the owners of a merchant at 100% or less', async () => {
    const mk = sb.current(KEYS.marketplace, { 'Merchant-Id': 'mcht_beta' });
    const created = beneficialOwnerResponse.parse(
      (await mk.post('/beneficialowners', { CreateBeneficialOwner: owner(60) })).body,
    );
    expect(created.merchantId).toBe('mcht_beta');
    expect((await mk.post('/beneficialowners', { CreateBeneficialOwner: owner(50) })).body).toMatchObject({
      statusCode: 400,
      detail: expect.stringMatching(/^ownershipPercentage: 50 would take mcht_beta's owners to 110%/),
    });
    const id = created.beneficialOwnerId;
    expect(
      beneficialOwnerResponse.parse((await sb.current(KEYS.betaSk).get(`/beneficialowners/${id}`)).body).givenName,
    ).toBe('Ana');
    expect(
      beneficialOwnerList.parse(
        (await sb.current(KEYS.marketplace).get('/beneficialowners?merchantId=mcht_beta')).body,
      ),
    ).toHaveLength(1);
    const replaced = beneficialOwnerResponse.parse(
      (await mk.patch(`/beneficialowners/${id}`, { ReplaceBeneficialOwner: { ...owner(100), givenName: 'Bea' } })).body,
    );
    expect(replaced).toMatchObject({ beneficialOwnerId: id, givenName: 'Bea', ownershipPercentage: 100 });
    expect((await sb.current(KEYS.alphaSk).get(`/beneficialowners/${id}`)).status).toBe(404);
    expect((await sb.current(KEYS.soloPk).get('/beneficialowners')).status).toBe(403);
    expect(
      (await mk.post('/beneficialowners', { CreateBeneficialOwner: { ...owner(10), dateOfBirth: '3 Feb 1980' } })).body,
    ).toMatchObject({ detail: expect.stringMatching(/^CreateBeneficialOwner\.dateOfBirth/) });
    expect((await mk.delete(`/beneficialowners/${id}`)).status).toBe(204);
    expect((await mk.get(`/beneficialowners/${id}`)).status).toBe(404);
  });
});

describe('KYC Customer (D-CUS-3)', () => {
  it('verifies a document, rejects a failing one, and needs a server credential of the customer merchant', async () => {
    const sk = sb.current(KEYS.soloSk);
    const ok = kycResponse.parse(
      (
        await sk.patch('/customers/cust_alice', {
          KycCustomer: { dateOfBirth: '1990-05-06', documentType: 'Passport', documentNumber: 'PA1234567' },
        })
      ).body,
    );
    expect(ok.kycStatus).toBe('Verified');
    const rejected = kycResponse.parse(
      (
        await sk.patch('/customers/cust_alice', {
          KycCustomer: { dateOfBirth: '1990-05-06', documentType: 'DriversLicence', documentNumber: 'DL000000' },
        })
      ).body,
    );
    expect(rejected.kycStatus).toBe('Rejected');
    expect(
      (
        await sk.patch('/customers/cust_alice', {
          KycCustomer: { dateOfBirth: '2020-01-01', documentType: 'Passport', documentNumber: 'PA1234567' },
        })
      ).body,
    ).toMatchObject({ statusCode: 400, detail: 'KycCustomer.dateOfBirth: the customer must be 18 or older' });
    expect(
      (
        await sb.current(KEYS.soloPk).patch('/customers/cust_alice', {
          KycCustomer: { dateOfBirth: '1990-05-06', documentType: 'Passport', documentNumber: 'PA1234567' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await sb.current(KEYS.otherSk).patch('/customers/cust_alice', {
          KycCustomer: { dateOfBirth: '1990-05-06', documentType: 'Passport', documentNumber: 'PA1234567' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('surcharge and the public card capture (D-PAY-5, D-AUTH-1)', () => {
  it("tells a card payment's surcharge beforehand, and the payment carries it; PayTo carries none", async () => {
    const other = sb.current(KEYS.otherSk);
    expect(
      surchargeResponse.parse(
        (
          await sb.current('sandbox_pk_other_public_key').post('/surcharges', {
            CalculateSurcharge: {
              amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
              paymentMethodType: 'Card',
            },
          })
        ).body,
      ),
    ).toEqual({
      amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
      surchargeAmount: 150,
      totalAmount: { minorCurrencyUnits: 10_150, currency: 'AUD' },
      surchargeRateBps: 150,
    });
    expect(
      (
        await other.post('/surcharges', {
          CalculateSurcharge: { amount: { minorCurrencyUnits: 10_000, currency: 'AUD' }, paymentMethodType: 'PayTo' },
        })
      ).body.surchargeAmount,
    ).toBe(0);
    expect(
      (
        await sb.current(KEYS.soloSk).post('/surcharges', {
          CalculateSurcharge: { amount: { minorCurrencyUnits: 10_000, currency: 'AUD' }, paymentMethodType: 'Card' },
        })
      ).body.surchargeAmount,
    ).toBe(0);
    // raw card capture with the public key, then a pay carrying the surcharge
    const captured = await sb
      .current('sandbox_pk_other_public_key')
      .post('/tokens', { CreateCardToken: { cardNumber: CARDS.ok, expiryMonth: 12, expiryYear: 2099, cvc: '123' } });
    expect(captured.status).toBe(200);
    const order = (await other.post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
    const paid = await other.post(`/orders/${order}/pay`, {
      PayByCard: { paymentTokenId: captured.body.CardToken.paymentTokenId },
    });
    expect(paid.body.PayOrderComplete).toMatchObject({
      transactionStatus: 'paid',
      amount: 10_000,
      surchargeAmount: 150,
    });
    expect(
      (
        await sb
          .current('sandbox_pk_other_public_key')
          .post('/tokens', { CreateCardToken: { cardNumber: CARDS.ok, expiryMonth: 1, expiryYear: 2001, cvc: '123' } })
      ).body,
    ).toMatchObject({ statusCode: 400, detail: 'CreateCardToken.expiryYear: the card has expired' });
    expect((await client(sb.currentUrl).post('/surcharges', { CalculateSurcharge: {} })).status).toBe(401);
    expect(
      (
        await other.post('/surcharges', {
          CalculateSurcharge: { amount: { minorCurrencyUnits: 10_000, currency: 'AUD' } },
        })
      ).body,
    ).toMatchObject({ statusCode: 400, detail: expect.stringMatching(/^CalculateSurcharge\.paymentMethodType/) });
  });

  it('offers a pay plan to a checkout holding only the public key (D-PP-2)', async () => {
    const offer = await sb.current(KEYS.soloPk).post('/payplans/offer', {
      customerId: 'cust_alice',
      amount: { minorCurrencyUnits: 40_000, currency: 'AUD' },
      initialPayment: 10_000,
      payPlanVariant: 'payplan_fortnight_25_25_25_25',
    });
    expect(offer.status, JSON.stringify(offer.body)).toBe(200);
    expect(
      (
        await sb.current(KEYS.soloPk).post('/payplans/offer', {
          customerId: 'cust_olga',
          amount: { minorCurrencyUnits: 40_000, currency: 'AUD' },
          initialPayment: 0,
          payPlanVariant: 'payplan_fortnight_25_25_25_25',
        })
      ).status,
    ).toBe(404);
    expect((await sb.current(KEYS.soloPk).get('/payplans')).status).toBe(403);
  });
});

describe('PayTo: alias values, agreement controls, the sandbox clock (D-PT-1, D-PT-2, D-CLK-1, D-CUS-2)', () => {
  const agreement = (identifier: object) => ({
    customerName: 'Pat',
    customerAccIdentifier: identifier,
    terms: { AgreementRequestTermsOneOff: { amount: { amount: 500, currency: 'AUD' } } },
    purpose: 'test',
  });

  it('checks an alias value against its type', async () => {
    const pk = sb.current(KEYS.soloPk);
    for (const [aliasType, value] of [
      ['Phone', 'not-a-phone'],
      ['Phone', '0412345678'],
      ['Email', 'nope'],
      ['ABN', 'abc'],
      ['ACN', '12345'],
    ]) {
      const res = await pk.post('/payto/agreement', agreement({ Alias: { aliasType, value } }));
      expect(res.body, `${aliasType} ${value}`).toMatchObject({
        statusCode: 400,
        detail: expect.stringMatching(
          new RegExp(`^customerAccIdentifier\\.Alias\\.value: expected .* for aliasType ${aliasType}$`),
        ),
      });
    }
    for (const [aliasType, value] of [
      ['Phone', '+61412345678'],
      ['Email', 'pat@example.com'],
      ['ABN', '12345678901'],
      ['ACN', '123456789'],
      ['OrgId', 'org-42'],
    ])
      expect(
        (await pk.post('/payto/agreement', agreement({ Alias: { aliasType, value } }))).status,
        `${aliasType} ${value}`,
      ).toBe(200);
  });

  it('declines or activates an agreement on demand, and moves the clock on (a checkout token expires after an hour)', async () => {
    const slow = await startSandbox({ agreementDelayMs: 60_000 });
    try {
      const pk = slow.current(KEYS.soloPk);
      const a = (await pk.post('/payto/agreement', agreement({ Bban: { value: '062-000-12345678' } }))).body.token;
      expect((await pk.get(`/payto/agreement?token=${a}`)).body.status).toBe('Pending');
      expect((await client(slow.currentUrl).post(`/sandbox/agreements/${a}/decline`)).body).toEqual({
        token: a,
        status: 'Declined',
      });
      expect((await pk.get(`/payto/agreement?token=${a}`)).body.status).toBe('Declined');
      const b = (await pk.post('/payto/agreement', agreement({ Bban: { value: '062-000-12345678' } }))).body.token;
      await client(slow.currentUrl).post('/sandbox/time', { advanceMs: 61_000 });
      expect((await pk.get(`/payto/agreement?token=${b}`)).body.status).toBe('Active');

      const customer = (
        await slow
          .current(KEYS.soloSk)
          .post('/customers', { UpsertConsumerCustomer: { emailAddress: 'clock@example.com' } })
      ).body.customerId;
      const token = (await slow.current(KEYS.soloSk).post('/auth/signin', { SignInConsumer: { customerId: customer } }))
        .body.customToken;
      expect((await slow.current(token).get('/sources')).status).toBe(200);
      expect((await client(slow.currentUrl).post('/sandbox/time', { advanceMs: 3_600_000 })).status).toBe(200);
      expect((await slow.current(token).get('/sources')).body).toMatchObject({
        statusCode: 401,
        detail: 'the checkout token has expired',
      });
      expect((await client(slow.currentUrl).post('/sandbox/time', { advanceMs: -1 })).status).toBe(400);
    } finally {
      await slow.close();
    }
  });
});

describe('settlement adds up (D-SET-1, D-ID-2)', () => {
  it('payout summaries add up to the settlement entries, which add up to the transactions, over a generated history', async () => {
    const history = fc.array(
      fc.record({
        amount: fc.integer({ min: 100, max: 50_000 }),
        refund: fc.integer({ min: 0, max: 100 }),
        transfer: fc.integer({ min: 0, max: 100 }),
        reverse: fc.boolean(),
      }),
      { minLength: 3, maxLength: 12 },
    );
    await fc.assert(
      fc.asyncProperty(history, async (steps) => {
        const local = await startSandbox();
        try {
          const mk = local.current(KEYS.marketplace, { 'Merchant-Id': 'mcht_alpha' });
          const api = local.current(KEYS.marketplace);
          for (const step of steps) {
            const token = (await local.current(KEYS.alphaPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok }))
              .body.paymentTokenId;
            const order = (
              await mk.post('/orders', currentOrder({ amount: { minorCurrencyUnits: step.amount, currency: 'AUD' } }))
            ).body.OnlineOrder.order.orderId;
            const tx = (await mk.post(`/orders/${order}/pay`, { PayByCard: { paymentTokenId: token } })).body
              .PayOrderComplete.transactionId;
            const transfer = Math.floor((step.amount * step.transfer) / 200);
            if (transfer > 0) {
              const moved = await api.patch(`/transactions/${tx}`, {
                TransferFunds: { transferAmount: transfer, destinationMerchantId: 'mcht_beta' },
              });
              if (step.reverse)
                await api.patch(`/transactions/${tx}`, {
                  ReverseFundsTransfer: { transferId: moved.body.transfers[0].transferId },
                });
            }
            const refund = Math.floor(((step.amount - (step.reverse ? 0 : transfer)) * step.refund) / 100);
            if (refund > 0)
              expect((await api.patch(`/transactions/${tx}`, { CreateRefund: { refundAmount: refund } })).status).toBe(
                200,
              );
          }
          const entries = settlementEntryList.parse((await api.get('/settlements/entries?limit=100')).body);
          const payouts = payoutSummaryList.parse((await api.get('/payouts/summaries?limit=100')).body);
          // a payout is the sum of its entries
          for (const p of payouts) {
            const mine = entries.filter(
              (e) => e.merchantId === p.merchantId && e.payoutDate === p.payoutDate && e.currency === p.currency,
            );
            expect(p.netAmount).toBe(mine.reduce((s, e) => s + e.amount, 0));
            expect(p.entryCount).toBe(mine.length);
          }
          // the entries are the transactions: payments, fees and refunds per transaction; transfers net to zero across merchants
          for (const tx of local.sandbox.store.transactions.values()) {
            const of = (type: string) =>
              entries
                .filter((e) => e.transactionId === tx.transactionId && e.type === type)
                .reduce((s, e) => s + e.amount, 0);
            expect(of('payment')).toBe(tx.amount);
            expect(of('fee')).toBe(-tx.serviceFees.totalAmount);
            expect(of('refund') + tx.refundedAmount).toBe(0);
          }
          const total = payouts.reduce((s, p) => s + p.netAmount, 0);
          const expected = [...local.sandbox.store.transactions.values()].reduce(
            (s, t) => s + t.amount + t.surchargeAmount - t.serviceFees.totalAmount - t.refundedAmount,
            0,
          );
          expect(total).toBe(expected);
        } finally {
          await local.close();
        }
      }),
      { numRuns: 15 },
    );
  }, 60_000);
});

describe("the seed's three flows, with every credential type the seed allows for each step (D-AUTH-1)", () => {
  const money = { minorCurrencyUnits: 2_000, currency: 'AUD' };
  const agreementBody = (terms: object) => ({
    customerName: 'Jo',
    customerAccIdentifier: { Bban: { value: '062-000-12345678' } },
    terms,
    purpose: 'x',
  });
  // who may do a step of a solo merchant's flow (docs/decisions.md, the capability matrix)
  const CREATORS = () =>
    [
      ['public key', sb.current(KEYS.soloPk)],
      ['secret key', sb.current(KEYS.soloSk)],
      ['merchant JWT', sb.current(jwt('merchant', 'mcht_solo'))],
      ['customer JWT', sb.current(jwt('customer', 'cust_alice'))],
      ['checkout token', sb.current(KEYS.checkout)],
    ] as const;
  const PAYERS = () => [['secret key', sb.current(KEYS.soloSk)]] as const;

  it('online card flow: a token and an order by each creator, paid and refunded by each payer', async () => {
    for (const [who, creator] of CREATORS()) {
      const token = (await creator.post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body.paymentTokenId;
      const order = await creator.post('/orders', currentOrder());
      expect(order.status, who).toBe(200);
      for (const [payer, api] of PAYERS()) {
        const paid = await api.post(`/orders/${order.body.OnlineOrder.order.orderId}/pay`, {
          PayByCard: { paymentTokenId: token },
        });
        expect(paid.status, `${who} / ${payer}`).toBe(200);
        expect(
          (
            await api.patch(`/transactions/${paid.body.PayOrderComplete.transactionId}`, {
              CreateRefund: { refundAmount: 10_000 },
            })
          ).status,
          `${who} / ${payer}`,
        ).toBe(200);
      }
    }
    // and for a sub-merchant: the marketplace key creates, pays and refunds with Merchant-Id
    const mk = sb.current(KEYS.marketplace, { 'Merchant-Id': 'mcht_alpha' });
    const token = (await sb.current(KEYS.alphaPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body
      .paymentTokenId;
    const order = (await mk.post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
    const paid = await mk.post(`/orders/${order}/pay`, { PayByCard: { paymentTokenId: token } });
    expect(
      (
        await mk.patch(`/transactions/${paid.body.PayOrderComplete.transactionId}`, {
          CreateRefund: { refundAmount: 10_000 },
        })
      ).status,
    ).toBe(200);
  });

  it('PayTo one-off flow: agreement, poll and token by each creator (the public key alone included), paid by a payer', async () => {
    for (const [who, creator] of CREATORS()) {
      const agreement = (
        await creator.post(
          '/payto/agreement',
          agreementBody({ AgreementRequestTermsOneOff: { amount: { amount: 2_000, currency: 'AUD' } } }),
        )
      ).body.token;
      expect((await creator.get(`/payto/agreement?token=${agreement}`)).body.status, who).toBe('Active');
      const token = await creator.post('/tokens', { CreatePayToToken: { amount: money, agreementToken: agreement } });
      expect(token.status, who).toBe(200);
      const order = (await creator.post('/orders', currentOrder({ amount: money }))).body.OnlineOrder.order.orderId;
      expect(
        (
          await sb
            .current(KEYS.soloSk)
            .post(`/orders/${order}/pay`, { PayByPayTo: { paymentTokenId: token.body.PayToToken.paymentTokenId } })
        ).status,
        who,
      ).toBe(200);
    }
  });

  it('PayTo open agreement saved as a source by each credential that manages sources', async () => {
    for (const [who, api] of [
      ['secret key', sb.current(KEYS.soloSk, { 'Customer-Id': 'cust_alice' })],
      ['merchant JWT', sb.current(jwt('merchant', 'mcht_solo'), { 'Customer-Id': 'cust_alice' })],
      ['customer JWT', sb.current(jwt('customer', 'cust_alice'))],
      ['checkout token', sb.current(KEYS.checkout)],
    ] as const) {
      const agreement = (await api.post('/payto/agreement', agreementBody({ AgreementRequestTermsOpen: {} }))).body
        .token;
      expect((await api.get(`/payto/agreement?token=${agreement}`)).body.status, who).toBe('Active');
      const saved = await api.post('/sources', {
        CreateSavedPaymentSource: {
          sourceMethod: { PayToMethod: { agreementToken: agreement } },
          usageScope: 'ScopeOrganisation',
        },
      });
      expect(saved.status, `${who}: ${JSON.stringify(saved.body)}`).toBe(200);
    }
    expect(
      (
        await sb
          .current(KEYS.soloPk, { 'Customer-Id': 'cust_alice' })
          .post('/sources', { CreateSavedPaymentSource: { sourceMethod: { PayToMethod: { agreementToken: 'x' } } } })
      ).status,
    ).toBe(403);
  });
});
