/**
 * For every legacy route of the route table: the same legacy call sent (a) to the sandbox's legacy face and (b)
 * through the translator to its current face, over one store, gets equal legacy answers, ids and
 * timestamps aside.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import { parityClients, normalize, type Answer, type LegacyCall } from '../helpers/parity.js';
import { CARDS, jwt, KEYS, legacyOrder, startSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { TEST_CVC } from '../helpers/secrets.js';

let sb: TestSandbox;
let clients: ReturnType<typeof parityClients>;
const covered = new Set<string>();

const SOLO = { 'Limepay-SecretKey': KEYS.soloSk };
const PLATFORM = { 'Limepay-Token': KEYS.marketplace };
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

beforeAll(async () => {
  sb = await startSandbox();
  clients = parityClients(sb, {
    currentUrl: sb.currentUrl,
    merchantTokens: { mtok_alpha_merchant_token: 'mcht_alpha' },
    serviceKey: KEYS.operator,
  });
});
afterAll(() => sb.close());

/** Legacy face setup calls (plain HTTP), failing loudly. */
async function setup(call: LegacyCall): Promise<any> {
  const res = await clients.legacy(call);
  if (res.status >= 300)
    throw new Error(`setup ${call.method} ${call.path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function soloOrder(headers: Record<string, string> = SOLO, path = '/orders') {
  return (await setup({ method: 'POST', path, headers, body: legacyOrder({ internalOrderId: 'parity-order' }) }))
    .merchantOrderId as string;
}
async function cardToken(headers: Record<string, string>, cardNumber: string = CARDS.ok) {
  return (await setup({ method: 'POST', path: '/sandbox/card-tokens', headers, body: { cardNumber } }))
    .paymentTokenId as string;
}
async function soloTransaction(pay: Record<string, unknown> = {}) {
  const order = await soloOrder();
  const paid = await setup({
    method: 'POST',
    path: `/orders/${order}/pay`,
    headers: SOLO,
    body: { paymentToken: await cardToken(SOLO), ...pay },
  });
  return paid.transactionId as string;
}
async function alphaTransaction() {
  const order = await soloOrder(PLATFORM, '/platforms/mktp_demo/merchants/mcht_alpha/orders');
  const token = await cardToken({ 'Limepay-PublicKey': KEYS.alphaPk });
  const paid = await setup({
    method: 'POST',
    path: `/platforms/mktp_demo/merchants/mcht_alpha/orders/${order}/pay`,
    headers: PLATFORM,
    body: { paymentToken: token },
  });
  return paid.transactionId as string;
}
async function onboarded() {
  const slug = unique('shop');
  return (
    await setup({
      method: 'POST',
      path: '/marketplaces/onboarding',
      headers: PLATFORM,
      body: { slug, businessName: 'Shop', contactEmail: 'ops@shop.example', taxCountry: 'AU', tradingCountry: 'AU' },
    })
  ).merchantId as string;
}

/**
 * Runs one scenario on both sides: `prepare` builds the call (once per side for writes, so each side
 * acts on its own equal resources) and the answers must match after normalisation.
 */
async function same(
  route: string,
  prepare: () => Promise<LegacyCall>,
  expectStatus: number,
): Promise<[Answer, Answer]> {
  covered.add(route);
  const legacy = await clients.legacy(await prepare());
  const translated = await clients.translated(await prepare());
  expect(legacy.status, JSON.stringify(legacy.body)).toBe(expectStatus);
  expect(translated.status, JSON.stringify(translated.body)).toBe(legacy.status);
  expect(normalize(translated.body)).toEqual(normalize(legacy.body));
  return [legacy, translated];
}

describe('every legacy route answers alike on the legacy face and through the translator', () => {
  it('L1 create order (a deployed plugin body)', async () => {
    const [legacy] = await same(
      'L1',
      async () => ({ method: 'POST', path: '/orders', headers: SOLO, body: legacyOrder() }),
      200,
    );
    expect(legacy.body).toMatchObject({ internalOrderId: 'legacy-ref-1', discount: { amount: 0 } });
  });

  it('L1 create order with a merchant token, resolved to the merchant public key', async () => {
    const [legacy] = await same(
      'L1',
      async () => ({
        method: 'POST',
        path: '/orders',
        headers: { 'Limepay-MerchantToken': 'mtok_alpha_merchant_token' },
        body: legacyOrder(),
      }),
      200,
    );
    expect(legacy.body).toMatchObject({ merchantId: 'mcht_alpha' });
  });

  it('L2 create order for a sub-merchant', async () => {
    await same(
      'L2',
      async () => ({
        method: 'POST',
        path: '/platforms/mktp_demo/merchants/mcht_alpha/orders',
        headers: PLATFORM,
        body: legacyOrder({ description: '' }),
      }),
      200,
    );
  });

  it('L3 read an order', async () => {
    const order = await soloOrder();
    await same('L3', async () => ({ method: 'GET', path: `/orders/${order}`, headers: SOLO }), 200);
  });

  it('L4 pay, decline, and the 3DS loop', async () => {
    // a pay of a new order of solo's with a fresh card token, the rest of the body as given
    const pay = (card: string, rest: Record<string, unknown>) => async (): Promise<LegacyCall> => ({
      method: 'POST',
      path: `/orders/${await soloOrder()}/pay`,
      headers: SOLO,
      body: { paymentToken: await cardToken(SOLO, card), ...rest },
    });
    await same('L4', pay(CARDS.ok, { request3DS: false }), 200);
    await same('L4', pay(CARDS.ok, { authoriseOnly: true }), 200);
    await same('L4', pay(CARDS.decline, {}), 400);

    // 3DS: each side runs its own two-call loop
    const loop = async (send: (c: LegacyCall) => Promise<Answer>) => {
      const order = await soloOrder();
      const token = await cardToken(SOLO, CARDS.threeDS);
      const first = await send({
        method: 'POST',
        path: `/orders/${order}/pay`,
        headers: SOLO,
        body: { paymentToken: token, request3DS: true },
      });
      const action = (first.body as { paymentActionRequired: unknown }).paymentActionRequired;
      const second = await send({
        method: 'POST',
        path: `/orders/${order}/pay`,
        headers: SOLO,
        body: { paymentToken: token, paymentActionRequired: action },
      });
      return [first, second];
    };
    const [l1, l2] = await loop(clients.legacy);
    const [t1, t2] = await loop(clients.translated);
    expect([l1!.status, l2!.status]).toEqual([403, 200]);
    expect([t1!.status, t2!.status]).toEqual([403, 200]);
    expect(normalize(t1!.body)).toEqual(normalize(l1!.body));
    expect(normalize(t2!.body)).toEqual(normalize(l2!.body));
  });

  it('L5 pay a sub-merchant order', async () => {
    await same(
      'L5',
      async () => {
        const order = await soloOrder(PLATFORM, '/platforms/mktp_demo/merchants/mcht_alpha/orders');
        return {
          method: 'POST',
          path: `/platforms/mktp_demo/merchants/mcht_alpha/orders/${order}/pay`,
          headers: PLATFORM,
          body: { paymentToken: await cardToken({ 'Limepay-PublicKey': KEYS.alphaPk }) },
        };
      },
      200,
    );
  });

  it('L6 read a transaction with refunds', async () => {
    const tx = await soloTransaction();
    await setup({
      method: 'POST',
      path: '/refunds',
      headers: SOLO,
      body: { transactionId: tx, refundAmount: { amount: 1_000, currency: 'AUD' } },
    });
    const [legacy] = await same('L6', async () => ({ method: 'GET', path: `/transactions/${tx}`, headers: SOLO }), 200);
    expect((legacy.body as { refunds: unknown[] }).refunds).toHaveLength(1);
    // given the order id instead (the .NET SDK's tests): that order's transaction; an unpaid order: 404
    const order = (legacy.body as { merchantOrderId: string }).merchantOrderId;
    const [byOrder] = await same(
      'L6',
      async () => ({ method: 'GET', path: `/transactions/${order}`, headers: SOLO }),
      200,
    );
    expect((byOrder.body as { _id: string })._id).toBe(tx);
    await same('L6', async () => ({ method: 'GET', path: `/transactions/${await soloOrder()}`, headers: SOLO }), 404);
  });

  it('L7 refund answered {refundId}, and a refund in another currency refused', async () => {
    const [legacy] = await same(
      'L7',
      async () => ({
        method: 'POST',
        path: '/refunds',
        headers: SOLO,
        body: { transactionId: await soloTransaction(), refundAmount: { amount: 2_500, currency: 'AUD' } },
      }),
      200,
    );
    expect(Object.keys(legacy.body as object)).toEqual(['refundId']);
    await same(
      'L7',
      async () => ({
        method: 'POST',
        path: '/refunds',
        headers: SOLO,
        body: { transactionId: await soloTransaction(), refundAmount: { amount: 2_500, currency: 'NZD' } },
      }),
      400,
    );
    await same(
      'L7',
      async () => ({
        method: 'POST',
        path: '/refunds',
        headers: SOLO,
        body: { transactionId: await soloTransaction(), refundAmount: { amount: 20_000, currency: 'AUD' } },
      }),
      400,
    );
  });

  it('L8 refund a sub-merchant transaction', async () => {
    await same(
      'L8',
      async () => ({
        method: 'POST',
        path: '/platforms/mktp_demo/refunds',
        headers: PLATFORM,
        body: { transactionId: await alphaTransaction(), refundAmount: { amount: 10_000, currency: 'AUD' } },
      }),
      200,
    );
  });

  it('L9 capture and L10 cancel an authorisation', async () => {
    await same(
      'L9',
      async () => ({
        method: 'POST',
        path: `/transactions/${await soloTransaction({ authoriseOnly: true })}/authorisation:capture`,
        headers: SOLO,
        body: { captureAmount: { amount: 6_000, currency: 'AUD' } },
      }),
      200,
    );
    // the .NET SDK sends an integer in minor units
    await same(
      'L9',
      async () => ({
        method: 'POST',
        path: `/transactions/${await soloTransaction({ authoriseOnly: true })}/authorisation:capture`,
        headers: SOLO,
        body: { captureAmount: 6_000 },
      }),
      200,
    );
    await same(
      'L9',
      async () => ({
        method: 'POST',
        path: `/transactions/${await soloTransaction({ authoriseOnly: true })}/authorisation:capture`,
        headers: SOLO,
        body: { captureAmount: { amount: 6_000, currency: 'NZD' } },
      }),
      400,
    );
    await same(
      'L10',
      async () => ({
        method: 'DELETE',
        path: `/transactions/${await soloTransaction({ authoriseOnly: true })}/authorisation`,
        headers: SOLO,
      }),
      200,
    );
    await same(
      'L10',
      async () => ({ method: 'DELETE', path: `/transactions/${await soloTransaction()}/authorisation`, headers: SOLO }),
      409,
    );
  });

  it('L11 change internalOrderId and L12 cancel an order', async () => {
    await same(
      'L11',
      async () => ({
        method: 'PUT',
        path: `/orders/${await soloOrder()}/internalOrderId`,
        headers: SOLO,
        body: { internalOrderId: 'renamed' },
      }),
      200,
    );
    await same('L12', async () => ({ method: 'DELETE', path: `/orders/${await soloOrder()}`, headers: SOLO }), 200);
  });

  it('L13 and L18 upsert customers answered with a bare string; L14 finds them (one consumer per e-mail on the current API)', async () => {
    const [legacy] = await same(
      'L13',
      async () => ({
        method: 'POST',
        path: '/customers/consumer',
        headers: SOLO,
        body: {
          internalCustomerId: unique('crm'),
          email: 'same@example.com',
          phoneno: '+61400000009',
          firstName: 'Sam',
          middleName: 'J',
          lastName: 'Ng',
          address: { line1: '2 High St', country: 'AU' },
        },
      }),
      200,
    );
    expect(typeof legacy.body).toBe('string');
    await same(
      'L18',
      async () => ({
        method: 'POST',
        path: '/customers/organisation',
        headers: SOLO,
        body: {
          internalCustomerId: unique('org'),
          businessName: 'Acme',
          email: 'acme@example.com',
          abn: '12345678901',
        },
      }),
      200,
    );
    const [found] = await same(
      'L14',
      async () => ({ method: 'GET', path: '/merchants/mcht_solo/customers?email=same@example.com', headers: SOLO }),
      200,
    );
    // the legacy face keys a consumer by internalCustomerId (two customers); the current API by e-mail
    // address and merchant (reference: UpsertCustomer), so the translated upsert updated the same one
    expect((found.body as { customers: unknown[] }).customers).toHaveLength(1);
  });

  it('L15 list, L19 tokenise and L16 delete saved cards', async () => {
    const source = async () =>
      (
        await setup({
          method: 'POST',
          path: '/sandbox/card-sources',
          headers: SOLO,
          body: { customerId: 'cust_alice', cardNumber: CARDS.ok },
        })
      ).paymentSourceId as string;
    const kept = await source();
    await same(
      'L15',
      async () => ({
        method: 'GET',
        path: '/merchants/mcht_solo/customers/cust_alice/payments/sources',
        headers: SOLO,
      }),
      200,
    );
    await same(
      'L19',
      async () => ({
        method: 'POST',
        path: '/payments/saved-card',
        headers: SOLO,
        body: { cardPaymentSourceId: kept, paymentAmount: { amount: 10_000, currency: 'AUD' }, cardCvc: TEST_CVC },
      }),
      201,
    );
    await same(
      'L16',
      async () => ({
        method: 'DELETE',
        path: `/merchants/mcht_solo/payments/sources/card/cust_alice/${await source()}`,
        headers: SOLO,
      }),
      200,
    );
  });

  it('L28 plugin customer answered {customerId}; L29 signs it in with a working checkout token', async () => {
    const ref = unique('shop-user');
    const [legacy] = await same(
      'L28',
      async () => ({
        method: 'POST',
        path: '/customers/plugin',
        headers: SOLO,
        body: { internalCustomerId: ref, emailAddress: 'plugin@example.com', givenName: 'Pat', familyName: '' },
      }),
      200,
    );
    const customerId = (legacy.body as { customerId: string }).customerId;
    const [signedIn] = await same(
      'L29',
      async () => ({
        method: 'POST',
        path: '/authn/tenants/accounts:signinCustomerWithCustomerId',
        headers: SOLO,
        body: { customerId },
      }),
      200,
    );
    const customToken = (signedIn.body as { customToken: string }).customToken;
    // the token is that customer's credential: it lists the customer's saved sources, and nobody else's
    const mine = await clients.legacy({
      method: 'GET',
      path: `/merchants/mcht_solo/customers/${customerId}/payments/sources`,
      headers: { 'Limepay-CheckoutToken': customToken },
    });
    expect(mine.status).toBe(200);
    const theirs = await clients.legacy({
      method: 'GET',
      path: '/merchants/mcht_solo/customers/cust_alice/payments/sources',
      headers: { 'Limepay-CheckoutToken': customToken },
    });
    expect(theirs.body).toEqual({ paymentSources: [] });
    await same(
      'L29',
      async () => ({
        method: 'POST',
        path: '/authn/tenants/accounts:signinCustomerWithCustomerId',
        headers: { 'Limepay-PublicKey': KEYS.soloPk },
        body: { customerId },
      }),
      403,
    );
  });

  it('L30 change internalOrderId with PATCH; L31 creates a pay-by-link order', async () => {
    await same(
      'L30',
      async () => ({
        method: 'PATCH',
        path: `/orders/${await soloOrder()}`,
        headers: SOLO,
        body: { internalOrderId: 'patched' },
      }),
      200,
    );
    const [invoice] = await same(
      'L31',
      async () => ({
        method: 'POST',
        path: '/orders/invoices',
        headers: SOLO,
        body: { orderRequest: legacyOrder({ orderType: 'online' }), sendSms: true, SendEmail: true },
      }),
      200,
    );
    expect((invoice.body as { order: { type: string } }).order.type).toBe('paybylink');
  });

  it('L17 list the transactions of an order', async () => {
    const tx = await soloTransaction();
    const order = (await setup({ method: 'GET', path: `/transactions/${tx}`, headers: SOLO })).merchantOrderId;
    await same(
      'L17',
      async () => ({ method: 'GET', path: `/transactions?merchantOrderId=${order}`, headers: SOLO }),
      200,
    );
  });

  it("L20 pay plan maximum with a public key; a variant the service does not know is its answer, not the translator's", async () => {
    await same(
      'L20',
      async () => ({
        method: 'POST',
        path: '/payments/plan/eligibility-max',
        headers: { 'Limepay-PublicKey': KEYS.soloPk },
        body: { customerId: 'cust_alice', payPlanVariant: 'PayPlan_12_Monthly_Payments' },
      }),
      200,
    );
    await same(
      'L20',
      async () => ({
        method: 'POST',
        path: '/payments/plan/eligibility-max',
        headers: { 'Limepay-PublicKey': KEYS.soloPk },
        body: { customerId: 'cust_alice', payPlanVariant: { PayPlan_4_Weekly_Payments: {} } },
      }),
      200,
    );
    await same(
      'L20',
      async () => ({
        method: 'POST',
        path: '/payments/plan/eligibility-max',
        headers: { 'Limepay-PublicKey': KEYS.soloPk },
        body: { customerId: 'cust_alice' },
      }),
      200,
    );
    await same(
      'L20',
      async () => ({
        method: 'POST',
        path: '/payments/plan/eligibility-max',
        headers: { 'Limepay-PublicKey': KEYS.soloPk },
        body: { customerId: 'cust_alice', payPlanVariant: 'Weekly52' },
      }),
      400,
    );
  });

  it('L21-L25 onboard and manage a sub-merchant (the legacy reference bodies)', async () => {
    const onboard = (extra: object = {}) => ({
      slug: unique('slug'),
      businessName: 'Gamma',
      contactEmail: 'g@example.com',
      taxCountry: 'AU',
      ...extra,
    });
    await same(
      'L21',
      async () => ({
        method: 'POST',
        path: '/marketplaces/onboarding',
        headers: PLATFORM,
        body: onboard({ tradingCountry: 'AU', dashboardReferrer: 'Platform' }),
      }),
      200,
    );
    await same(
      'L21',
      async () => ({
        method: 'POST',
        path: '/marketplaces/onboarding',
        headers: PLATFORM,
        body: onboard({ taxCountry: 'US' }),
      }),
      400,
    );
    await same(
      'L22',
      async () => ({ method: 'GET', path: '/platforms/mktp_demo/merchants/mcht_beta', headers: PLATFORM }),
      200,
    );
    const profile = {
      timeZone: 'Australia/Perth',
      businessName: 'Renamed',
      businessType: 'company',
      companyType: 'Public',
      website: 'https://renamed.example',
      supportSite: 'https://renamed.example/help',
      industry: 'Retail',
    };
    await same(
      'L23',
      async () => ({
        method: 'PUT',
        path: `/platforms/mktp_demo/merchants/${await onboarded()}/businessProfile`,
        headers: PLATFORM,
        body: profile,
      }),
      200,
    );
    await same(
      'L23',
      async () => ({
        method: 'POST',
        path: `/marketplaces/merchants/${await onboarded()}`,
        headers: PLATFORM,
        body: profile,
      }),
      200,
    );
    await same(
      'L23',
      async () => ({
        method: 'PUT',
        path: `/marketplaces/merchants/${await onboarded()}`,
        headers: PLATFORM,
        body: { ...profile, companyType: undefined },
      }),
      400,
    );
    const account = {
      accountName: 'Ops',
      accountNumber: '12345678',
      country: 'AU',
      currency: 'AUD',
      routingNumber: '062-000',
      referenceAccountId: 'acct-1',
    };
    const accounts = (merchant: string) => `/marketplaces/merchants/${merchant}/accounts`;
    await same(
      'L24',
      async () => ({ method: 'POST', path: accounts(await onboarded()), headers: PLATFORM, body: account }),
      200,
    );
    await same(
      'L24',
      async () => ({
        method: 'POST',
        path: accounts(await onboarded()),
        headers: PLATFORM,
        body: { ...account, bankName: 'Westpac', setAsPrimary: false },
      }),
      200,
    );
    await same(
      'L24',
      async () => ({
        method: 'POST',
        path: accounts(await onboarded()),
        headers: PLATFORM,
        body: { ...account, country: 'NZ' },
      }),
      400,
    );
    await same(
      'L25',
      async () => {
        const merchant = await onboarded();
        await setup({ method: 'POST', path: accounts(merchant), headers: PLATFORM, body: account });
        const second = await setup({
          method: 'POST',
          path: accounts(merchant),
          headers: PLATFORM,
          body: { ...account, accountNumber: '87654321', setAsPrimary: false },
        });
        return {
          method: 'PUT',
          path: `/platforms/mktp_demo/merchants/${merchant}/bankAccounts/${second.accountId}/primary`,
          headers: PLATFORM,
        };
      },
      200,
    );
  });

  it('L26 transfer and L27 reverse a transfer', async () => {
    const transfer = (amount: number, currency = 'AUD') => ({
      fromMerchant: 'mcht_alpha',
      toMerchant: 'mcht_beta',
      transferAmount: { amount, currency },
      surcharge: false,
      metadata: { note: 'x' },
    });
    const reverse = (amount: number) => ({
      fromMerchant: 'mcht_beta',
      toMerchant: 'mcht_alpha',
      reverseAmount: { amount, currency: 'AUD' },
      reverseLevy: false,
    });
    const transferCall = async (body: object) => ({
      method: 'POST',
      path: `/transactions/${await alphaTransaction()}/transfers`,
      headers: PLATFORM,
      body,
    });
    await same('L26', () => transferCall(transfer(4_000)), 200);
    await same('L26', () => transferCall(transfer(4_000, 'USD')), 400);
    await same('L26', () => transferCall({ ...transfer(4_000), fromMerchant: 'mcht_beta' }), 400);
    // the surcharge and the levy have their places in TransferFunds (the transaction-transfers guide): translated, not refused
    await same('L26', () => transferCall({ ...transfer(4_000), surcharge: true, levy: 100 }), 200);
    await same('L26', () => transferCall({ ...transfer(4_000), levy: 5_000 }), 400);
    const reverseCall = (amount: number) => async () => {
      const tx = await alphaTransaction();
      await setup({ method: 'POST', path: `/transactions/${tx}/transfers`, headers: PLATFORM, body: transfer(4_000) });
      await setup({ method: 'POST', path: `/transactions/${tx}/transfers`, headers: PLATFORM, body: transfer(1_000) });
      return {
        method: 'POST',
        path: `/transactions/${tx}/transfers:reverse`,
        headers: PLATFORM,
        body: reverse(amount),
      };
    };
    await same('L27', reverseCall(4_000), 200);
    await same('L27', reverseCall(2_000), 400);
  });

  it('L32 update a sub-merchant person: renamed fields, the share kept, a person of another merchant not found', async () => {
    const person = {
      title: 'Ms',
      roles: ['Owner', 'Director'],
      firstName: 'Ana',
      lastName: 'Lee',
      dob: '1980-02-03',
      address: { line1: '1 King St', city: 'Sydney', country: 'AU' },
      email: 'ana@beta.example',
      phone: '+61400000000',
      verificationDocs: [{ type: 'passport', fileId: 'file_x1' }],
    };
    const owner = async (merchantId: string) => {
      const created = await sb.current(KEYS.marketplace, { 'Merchant-Id': merchantId }).post('/beneficialowners', {
        CreateBeneficialOwner: {
          givenName: 'Old',
          familyName: 'Name',
          dateOfBirth: '1970-01-01',
          ownershipPercentage: 5,
        },
      });
      return created.body.beneficialOwnerId as string;
    };
    const [legacy] = await same(
      'L32',
      async () => ({
        method: 'POST',
        path: `/marketplaces/merchants/mcht_beta/person/${await owner('mcht_beta')}`,
        headers: PLATFORM,
        body: person,
      }),
      200,
    );
    const replaced = (
      await sb.current(KEYS.betaSk).get(`/beneficialowners/${(legacy.body as { personId: string }).personId}`)
    ).body;
    expect(replaced).toMatchObject({
      givenName: 'Ana',
      familyName: 'Lee',
      dateOfBirth: '1980-02-03',
      emailAddress: 'ana@beta.example',
      phoneNumber: '+61400000000',
      ownershipPercentage: 5,
      roles: ['Owner', 'Director'],
    });
    await same(
      'L32',
      async () => ({
        method: 'POST',
        path: `/marketplaces/merchants/mcht_beta/person/${await owner('mcht_beta')}`,
        headers: PLATFORM,
        body: { ...person, phone: '0400 000 000' },
      }),
      400,
    );
    await same(
      'L32',
      async () => ({
        method: 'POST',
        path: `/marketplaces/merchants/mcht_beta/person/${await owner('mcht_beta')}`,
        headers: PLATFORM,
        body: { ...person, roles: [] },
      }),
      400,
    );
    await same(
      'L32',
      async () => ({
        method: 'POST',
        path: `/marketplaces/merchants/mcht_alpha/person/${await owner('mcht_beta')}`,
        headers: PLATFORM,
        body: person,
      }),
      404,
    );
  });

  it('covers every route of the legacy table', () => {
    expect([...covered].sort()).toEqual(LEGACY_ROUTES.map((r) => r.id).sort());
  });
});

describe('failures answer alike on both sides', () => {
  const cases: [string, () => Promise<LegacyCall>, number][] = [
    ['unknown route', async () => ({ method: 'POST', path: '/v1/charges', headers: SOLO, body: {} }), 404],
    ['no credential', async () => ({ method: 'GET', path: '/orders/ordr_x', headers: {} }), 401],
    [
      'two credentials',
      async () => ({ method: 'GET', path: '/orders/ordr_x', headers: { ...SOLO, 'Limepay-PublicKey': KEYS.soloPk } }),
      400,
    ],
    [
      'legacy header with Bearer',
      async () => ({
        method: 'GET',
        path: '/orders/ordr_x',
        headers: { ...SOLO, authorization: `Bearer ${KEYS.soloSk}` },
      }),
      400,
    ],
    [
      'a secret key in the public key header',
      async () => ({ method: 'GET', path: '/orders/ordr_x', headers: { 'Limepay-PublicKey': KEYS.soloSk } }),
      401,
    ],
    [
      'a smuggled context header',
      async () => ({ method: 'GET', path: '/orders/ordr_x', headers: { ...SOLO, 'Merchant-Id': 'mcht_other' } }),
      400,
    ],
    ['an id without its prefix', async () => ({ method: 'GET', path: '/transactions/12345', headers: SOLO }), 400],
    ['an encoded slash in an id', async () => ({ method: 'GET', path: '/orders/ordr_a%2F..', headers: SOLO }), 400],
    [
      'a missing required field',
      async () => ({ method: 'POST', path: '/orders', headers: SOLO, body: legacyOrder({ paymentAmount: undefined }) }),
      400,
    ],
    [
      'a fractional amount',
      async () => ({
        method: 'POST',
        path: '/refunds',
        headers: SOLO,
        body: { transactionId: 'tran_x', refundAmount: { amount: 1.5, currency: 'AUD' } },
      }),
      400,
    ],
    [
      "another merchant's order",
      async () => ({
        method: 'GET',
        path: `/orders/${await soloOrder()}`,
        headers: { 'Limepay-SecretKey': KEYS.otherSk },
      }),
      404,
    ],
    [
      'an unknown key',
      async () => ({
        method: 'GET',
        path: '/orders/ordr_x',
        headers: { 'Limepay-SecretKey': 'sandbox_sk_nobody_at_all' },
      }),
      401,
    ],
    [
      'a live key',
      async () => ({
        method: 'GET',
        path: '/orders/ordr_x',
        headers: { 'Limepay-SecretKey': 'live_sk_solo_secret_key' },
      }),
      401,
    ],
    [
      'pay with a public key',
      async () => ({
        method: 'POST',
        path: `/orders/${await soloOrder()}/pay`,
        headers: { 'Limepay-PublicKey': KEYS.soloPk },
        body: { paymentToken: 'ptkn_x' },
      }),
      403,
    ],
    [
      'refund with a merchant JWT',
      async () => ({
        method: 'POST',
        path: '/refunds',
        headers: { 'Limepay-MerchantJwt': jwt('merchant', 'mcht_solo') },
        body: { transactionId: await soloTransaction(), refundAmount: { amount: 1, currency: 'AUD' } },
      }),
      403,
    ],
    [
      'a platform acting for a merchant outside it',
      async () => ({
        method: 'POST',
        path: '/platforms/mktp_demo/merchants/mcht_solo/orders',
        headers: PLATFORM,
        body: legacyOrder(),
      }),
      403,
    ],
    [
      'an order paid twice',
      async () => {
        const tx = await soloTransaction();
        const order = (await setup({ method: 'GET', path: `/transactions/${tx}`, headers: SOLO })).merchantOrderId;
        return {
          method: 'POST',
          path: `/orders/${order}/pay`,
          headers: SOLO,
          body: { paymentToken: await cardToken(SOLO) },
        };
      },
      409,
    ],
  ];
  for (const [name, prepare, status] of cases)
    it(name, async () => {
      const [legacy] = await same('errors', prepare, status);
      expect(Object.keys(legacy.body as object).sort()).toEqual([
        'detail',
        'errorCode',
        'errorTypeDescription',
        'message',
        'statusCode',
        'tracer',
      ]);
    });
});
