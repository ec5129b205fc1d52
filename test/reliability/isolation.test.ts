/**
 * Isolation: another merchant's key reaches none of a merchant's orders, transactions, sources or
 * customers through any legacy route of the route table, smuggled context headers included, on the gateway as on
 * the sandbox's legacy face; and nothing changes in the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';
import { startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { writeSummary } from '../helpers/logs.js';
import { CARDS, KEYS, legacyOrder, paidCardTransaction, startSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let gw: Awaited<ReturnType<typeof startGateway>>;
const ids = {} as Record<
  | 'soloTx'
  | 'soloOrder'
  | 'soloAuth'
  | 'soloUnpaid'
  | 'soloSource'
  | 'alphaTx'
  | 'alphaOrder'
  | 'transfer'
  | 'otherToken'
  | 'betaPerson',
  string
>;

beforeAll(async () => {
  sb = await startSandbox();
  // L14 and L16's read take no merchant key on the current API: the operator's marketplace key, as npm start configures it
  gw = await startGateway({
    upstreams: { sandbox: { current: sb.currentUrl, legacy: sb.legacyUrl } },
    serviceKey: KEYS.operator,
  });
  const solo = sb.current(KEYS.soloSk);
  ids.soloTx = await paidCardTransaction(solo);
  ids.soloOrder = (await solo.get(`/transactions/${ids.soloTx}`)).body.purchaseDetails.orderId;
  ids.soloAuth = await paidCardTransaction(solo, { authoriseOnly: true });
  ids.soloUnpaid = (
    await solo.post('/orders', {
      CreateOnlineOrder: { referenceOrderId: 'unpaid', amount: { minorCurrencyUnits: 500, currency: 'AUD' } },
    })
  ).body.OnlineOrder.order.orderId;
  ids.soloSource = (
    await solo.post('/sandbox/card-sources', { cardNumber: CARDS.ok }, { 'Customer-Id': 'cust_alice' })
  ).body.paymentSourceId;
  const alpha = sb.current(KEYS.alphaSk);
  ids.alphaTx = await paidCardTransaction(alpha);
  ids.alphaOrder = (
    await alpha.post('/orders', {
      CreateOnlineOrder: { referenceOrderId: 'a', amount: { minorCurrencyUnits: 500, currency: 'AUD' } },
    })
  ).body.OnlineOrder.order.orderId;
  ids.transfer = (
    await sb.current(KEYS.marketplace).patch(`/transactions/${ids.alphaTx}`, {
      TransferFunds: { transferAmount: 100, destinationMerchantId: 'mcht_beta' },
    })
  ).body.transfers[0].transferId;
  ids.betaPerson = (
    await sb.current(KEYS.marketplace, { 'Merchant-Id': 'mcht_beta' }).post('/beneficialowners', {
      CreateBeneficialOwner: {
        givenName: 'Bo',
        familyName: 'Beta',
        dateOfBirth: '1970-01-01',
        ownershipPercentage: 50,
      },
    })
  ).body.beneficialOwnerId;
  ids.otherToken = (
    await sb.current(KEYS.otherSk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })
  ).body.paymentTokenId;
});
afterAll(async () => {
  await gw.close();
  await sb.close();
});

const OTHER = { 'Limepay-SecretKey': KEYS.otherSk };
const OTHER_PK = { 'Limepay-PublicKey': 'sandbox_pk_other_public_key' };
const PLATFORM = { 'Limepay-Token': KEYS.marketplace };

interface Attempt {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  /** Allowed answers: refusals, or an empty list that leaks nothing. */
  expect: number[];
  empty?: string;
}

const attempts = (): Attempt[] => [
  {
    route: 'L1',
    method: 'POST',
    path: '/orders',
    headers: { ...OTHER, 'Merchant-Id': 'mcht_solo' },
    body: legacyOrder(),
    expect: [400],
  },
  {
    route: 'L2',
    method: 'POST',
    path: '/platforms/mktp_demo/merchants/mcht_alpha/orders',
    headers: OTHER,
    body: legacyOrder(),
    expect: [403],
  },
  { route: 'L3', method: 'GET', path: `/orders/${ids.soloOrder}`, headers: OTHER, expect: [404] },
  { route: 'L3', method: 'GET', path: `/orders/${ids.soloOrder}`, headers: PLATFORM, expect: [404] },
  {
    route: 'L3',
    method: 'GET',
    path: `/orders/${ids.soloOrder}`,
    headers: { ...OTHER, 'Merchant-Id': 'mcht_solo' },
    expect: [400],
  },
  {
    route: 'L4',
    method: 'POST',
    path: `/orders/${ids.soloUnpaid}/pay`,
    headers: OTHER,
    body: { paymentToken: ids.otherToken },
    expect: [404],
  },
  {
    route: 'L5',
    method: 'POST',
    path: `/platforms/mktp_demo/merchants/mcht_alpha/orders/${ids.alphaOrder}/pay`,
    headers: OTHER,
    body: { paymentToken: ids.otherToken },
    expect: [403],
  },
  { route: 'L6', method: 'GET', path: `/transactions/${ids.soloTx}`, headers: OTHER, expect: [404] },
  {
    route: 'L6',
    method: 'GET',
    path: `/transactions/${ids.alphaTx}`,
    headers: { ...OTHER, 'Marketplace-Id': 'mktp_demo' },
    expect: [400],
  },
  {
    route: 'L7',
    method: 'POST',
    path: '/refunds',
    headers: OTHER,
    body: { transactionId: ids.soloTx, refundAmount: { amount: 100, currency: 'AUD' } },
    expect: [404],
  },
  {
    route: 'L8',
    method: 'POST',
    path: '/platforms/mktp_demo/refunds',
    headers: OTHER,
    body: { transactionId: ids.alphaTx, refundAmount: { amount: 100, currency: 'AUD' } },
    expect: [403],
  },
  {
    route: 'L8',
    method: 'POST',
    path: '/platforms/mktp_demo/refunds',
    headers: PLATFORM,
    body: { transactionId: ids.soloTx, refundAmount: { amount: 100, currency: 'AUD' } },
    expect: [404],
  },
  {
    route: 'L9',
    method: 'POST',
    path: `/transactions/${ids.soloAuth}/authorisation:capture`,
    headers: OTHER,
    body: { captureAmount: { amount: 100, currency: 'AUD' } },
    expect: [404],
  },
  {
    route: 'L10',
    method: 'DELETE',
    path: `/transactions/${ids.soloAuth}/authorisation`,
    headers: OTHER,
    expect: [404],
  },
  {
    route: 'L11',
    method: 'PUT',
    path: `/orders/${ids.soloOrder}/internalOrderId`,
    headers: OTHER,
    body: { internalOrderId: 'stolen' },
    expect: [404],
  },
  { route: 'L12', method: 'DELETE', path: `/orders/${ids.soloUnpaid}`, headers: OTHER, expect: [404] },
  {
    route: 'L13',
    method: 'POST',
    path: '/customers/consumer',
    headers: { ...OTHER, 'Customer-Id': 'cust_alice' },
    body: { email: 'alice@example.com' },
    expect: [400],
  },
  {
    route: 'L14',
    method: 'GET',
    path: '/merchants/mcht_solo/customers?email=alice@example.com',
    headers: OTHER,
    expect: [403],
  },
  {
    route: 'L15',
    method: 'GET',
    path: '/merchants/mcht_solo/customers/cust_alice/payments/sources',
    headers: OTHER,
    expect: [403],
  },
  {
    route: 'L15',
    method: 'GET',
    path: '/merchants/mcht_other/customers/cust_alice/payments/sources',
    headers: OTHER,
    expect: [200],
    empty: 'paymentSources',
  },
  {
    route: 'L16',
    method: 'DELETE',
    path: `/merchants/mcht_solo/payments/sources/card/cust_alice/${ids.soloSource}`,
    headers: OTHER,
    expect: [403],
  },
  {
    route: 'L16',
    method: 'DELETE',
    path: `/merchants/mcht_other/payments/sources/card/cust_alice/${ids.soloSource}`,
    headers: OTHER,
    expect: [403],
  },
  {
    route: 'L17',
    method: 'GET',
    path: `/transactions?merchantOrderId=${ids.soloOrder}`,
    headers: OTHER,
    expect: [200],
    empty: 'transactions',
  },
  {
    route: 'L18',
    method: 'POST',
    path: '/customers/organisation',
    headers: { ...OTHER, 'Merchant-Id': 'mcht_solo' },
    body: { businessName: 'X', email: 'x@example.com' },
    expect: [400],
  },
  {
    route: 'L19',
    method: 'POST',
    path: '/payments/saved-card',
    headers: OTHER,
    body: { cardPaymentSourceId: ids.soloSource, paymentAmount: { amount: 100, currency: 'AUD' } },
    expect: [404],
  },
  {
    route: 'L20',
    method: 'POST',
    path: '/payments/plan/eligibility-max',
    headers: OTHER_PK,
    body: { customerId: 'cust_alice', payPlanVariant: 'PayPlan_Fortnight_25_25_25_25' },
    expect: [403],
  },
  {
    route: 'L21',
    method: 'POST',
    path: '/marketplaces/onboarding',
    headers: OTHER,
    body: { slug: 'sneaky', businessName: 'S', contactEmail: 's@example.com', taxCountry: 'AU', tradingCountry: 'AU' },
    expect: [403],
  },
  { route: 'L22', method: 'GET', path: '/platforms/mktp_demo/merchants/mcht_alpha', headers: OTHER, expect: [403] },
  { route: 'L22', method: 'GET', path: '/platforms/mktp_demo/merchants/mcht_solo', headers: PLATFORM, expect: [404] },
  {
    route: 'L23',
    method: 'PUT',
    path: '/platforms/mktp_demo/merchants/mcht_alpha/businessProfile',
    headers: OTHER,
    body: {
      timeZone: 'Australia/Sydney',
      businessName: 'Stolen',
      businessType: 'individual',
      website: 'https://stolen.example',
      supportSite: 'https://stolen.example/help',
      industry: 'Retail',
    },
    expect: [403],
  },
  {
    route: 'L23',
    method: 'PUT',
    path: '/marketplaces/merchants/mcht_alpha',
    headers: OTHER,
    body: {
      timeZone: 'Australia/Sydney',
      businessName: 'Stolen',
      businessType: 'individual',
      website: 'https://stolen.example',
      supportSite: 'https://stolen.example/help',
      industry: 'Retail',
    },
    expect: [404],
  },
  {
    route: 'L24',
    method: 'POST',
    path: '/marketplaces/merchants/mcht_alpha/accounts',
    headers: OTHER,
    body: { accountName: 'Thief', accountNumber: '12345678', country: 'AU', currency: 'AUD', routingNumber: '062-000' },
    expect: [404],
  },
  {
    route: 'L25',
    method: 'PUT',
    path: '/platforms/mktp_demo/merchants/mcht_alpha/bankAccounts/bank_x/primary',
    headers: OTHER,
    expect: [403],
  },
  {
    route: 'L26',
    method: 'POST',
    path: `/transactions/${ids.alphaTx}/transfers`,
    headers: OTHER,
    body: {
      fromMerchant: 'mcht_alpha',
      toMerchant: 'mcht_other',
      transferAmount: { amount: 100, currency: 'AUD' },
      surcharge: false,
    },
    expect: [404],
  },
  {
    route: 'L27',
    method: 'POST',
    path: `/transactions/${ids.alphaTx}/transfers:reverse`,
    headers: OTHER,
    body: {
      fromMerchant: 'mcht_beta',
      toMerchant: 'mcht_alpha',
      reverseAmount: { amount: 100, currency: 'AUD' },
      reverseLevy: false,
    },
    expect: [404],
  },
  {
    route: 'L32',
    method: 'POST',
    path: `/marketplaces/merchants/mcht_beta/person/${ids.betaPerson}`,
    headers: OTHER,
    body: {
      title: 'Mr',
      roles: ['Owner'],
      firstName: 'Eve',
      lastName: 'Thief',
      dob: '1990-01-01',
      address: { country: 'AU' },
      email: 'eve@example.com',
      phone: '+61400000001',
      verificationDocs: [],
    },
    expect: [403, 404],
  },
  { route: 'L6', method: 'GET', path: `/transactions/${ids.soloOrder}`, headers: OTHER, expect: [404] },
  {
    route: 'L9',
    method: 'POST',
    path: `/transactions/${ids.soloAuth}/authorisation:capture`,
    headers: OTHER,
    body: { captureAmount: 100 },
    expect: [404],
  },
  {
    route: 'L28',
    method: 'POST',
    path: '/customers/plugin',
    headers: { ...OTHER, 'Customer-Id': 'cust_alice' },
    body: { emailAddress: 'alice@example.com' },
    expect: [400],
  },
  {
    route: 'L29',
    method: 'POST',
    path: '/authn/tenants/accounts:signinCustomerWithCustomerId',
    headers: OTHER,
    body: { customerId: 'cust_alice' },
    expect: [404],
  },
  {
    route: 'L30',
    method: 'PATCH',
    path: `/orders/${ids.soloOrder}`,
    headers: OTHER,
    body: { internalOrderId: 'stolen' },
    expect: [404],
  },
  {
    route: 'L31',
    method: 'POST',
    path: '/orders/invoices',
    headers: { ...OTHER, 'Merchant-Id': 'mcht_solo' },
    body: { orderRequest: legacyOrder() },
    expect: [400],
  },
];

/** What an attacker could change or learn: the store's counts and the victims' records. */
function snapshot() {
  const store = sb.sandbox.store;
  return JSON.stringify({
    stats: store.stats,
    orders: [ids.soloOrder, ids.soloUnpaid, ids.alphaOrder].map((id) => store.orders.get(id)),
    transactions: [ids.soloTx, ids.soloAuth, ids.alphaTx].map((id) => store.transactions.get(id)),
    sources: store.sources.get(ids.soloSource),
    alpha: store.merchants.get('mcht_alpha'),
    person: store.beneficialOwners.get(ids.betaPerson),
  });
}

describe('isolation between merchants', () => {
  it("refuses another merchant's key on every legacy route, smuggled context headers included, on the gateway and the sandbox", async () => {
    const before = snapshot();
    const list = attempts();
    expect(new Set(list.map((a) => a.route))).toEqual(new Set(LEGACY_ROUTES.map((r) => r.id)));
    const outcomes: string[] = [];
    for (const target of [
      { name: 'gateway', url: gw.url },
      { name: 'sandbox legacy face', url: sb.legacyUrl },
    ]) {
      for (const a of list) {
        const res = await client(target.url, a.headers).raw(
          a.method,
          a.path,
          a.body === undefined ? {} : { body: a.body },
        );
        const label = `${target.name} ${a.route} ${a.method} ${a.path}`;
        expect(a.expect, `${label} -> ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
        if (a.empty) expect(res.body[a.empty], label).toEqual([]);
        else expect(res.body, label).toMatchObject({ statusCode: res.status, errorCode: expect.any(String) });
        outcomes.push(`${target.name}:${res.status}`);
      }
    }
    expect(snapshot()).toBe(before);
    const refused = outcomes.filter((o) => !o.endsWith(':200')).length;
    writeSummary(
      '5-isolation',
      `isolation: ${outcomes.length} cross-merchant attempts over all ${LEGACY_ROUTES.length} routes (gateway and sandbox): ${refused} refused (400/403/404), ${outcomes.length - refused} empty lists; nothing changed in the store`,
    );
  });
});
