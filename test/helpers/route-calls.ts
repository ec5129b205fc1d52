/**
 * One valid legacy call for every route L1-L32, each on resources of its own made first on the
 * sandbox (its legacy face, straight, never through a gateway): the tests that must reach every route
 * (a fault planted on every write, shadow mode's compared side counted for every mapping) send these.
 */
import type { StoreStats } from '../../src/sandbox/model.js';
import { client } from './http.js';
import type { LegacyCall } from './parity.js';
import { CARDS, KEYS, legacyOrder, type TestSandbox } from './sandbox.js';

const SOLO = { 'Limepay-SecretKey': KEYS.soloSk };
const PLATFORM = { 'Limepay-Token': KEYS.marketplace };
const ALPHA_ORDERS = '/platforms/mktp_demo/merchants/mcht_alpha/orders';
const TRANSFER = {
  fromMerchant: 'mcht_alpha',
  toMerchant: 'mcht_beta',
  transferAmount: { amount: 4_000, currency: 'AUD' },
  surcharge: false,
};
const ACCOUNT = {
  accountName: 'Ops',
  accountNumber: '12345678',
  country: 'AU',
  currency: 'AUD',
  routingNumber: '062-000',
};
const PROFILE = {
  timeZone: 'Australia/Perth',
  businessName: 'Renamed',
  businessType: 'company',
  companyType: 'Public',
  website: 'https://renamed.example',
  supportSite: 'https://renamed.example/help',
  industry: 'Retail',
};
const PERSON = {
  title: 'Ms',
  roles: ['Owner'],
  firstName: 'Ana',
  lastName: 'Lee',
  dob: '1980-02-03',
  address: { line1: '1 King St', city: 'Sydney', country: 'AU' },
  email: 'ana@beta.example',
  phone: '+61400000000',
  verificationDocs: [],
};

/**
 * The non-idempotent routes: every legacy route but a GET (legacy-api.md section 3), except L20, which
 * asks for a pay-plan maximum and changes nothing.
 */
export const WRITES = [
  'L1',
  'L2',
  'L4',
  'L5',
  'L7',
  'L8',
  'L9',
  'L10',
  'L11',
  'L12',
  'L13',
  'L16',
  'L18',
  'L19',
  'L21',
  'L23',
  'L24',
  'L25',
  'L26',
  'L27',
  'L28',
  'L29',
  'L30',
  'L31',
  'L32',
];

/** What each write does to the store, once (StoreStats); the routes not named change no counter. */
const EFFECT: Partial<Record<keyof StoreStats, string[]>> = {
  ordersCreated: ['L1', 'L2', 'L31'],
  transactionsCreated: ['L4', 'L5'],
  refundsCreated: ['L7', 'L8'],
  captures: ['L9'],
  authorisationsCancelled: ['L10'],
  customersCreated: ['L13', 'L18', 'L28'],
  sourcesDeleted: ['L16'],
  tokensCreated: ['L19'],
  merchantsCreated: ['L21'],
  transfersCreated: ['L26'],
  transfersReversed: ['L27'],
};

/** The counters that moved other than once per write of EFFECT between two snapshots of the store's stats: [] when each write moved once. */
export function effectsOnce(before: StoreStats, after: StoreStats): string[] {
  return (Object.entries(EFFECT) as [keyof StoreStats, string[]][])
    .filter(([stat, routes]) => after[stat] - before[stat] !== routes.length)
    .map(([stat, routes]) => `${stat}: ${after[stat] - before[stat]} for ${routes.join(', ')}`);
}

/** The calls, by route id; `prepare(route)` makes what the call acts on and returns it. */
export function routeCalls(sb: TestSandbox) {
  let counter = 0;
  const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;
  /** A setup call on the legacy face; anything but a 2xx stops the test. */
  const made = async (headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<any> => {
    const res = await client(sb.legacyUrl, headers).raw(method, path, body === undefined ? {} : { body });
    if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  const order = async (headers: Record<string, string> = SOLO, path = '/orders') =>
    (await made(headers, 'POST', path, legacyOrder({ internalOrderId: unique('order') }))).merchantOrderId as string;
  const cardToken = async (headers: Record<string, string>) =>
    (await made(headers, 'POST', '/sandbox/card-tokens', { cardNumber: CARDS.ok })).paymentTokenId as string;
  const soloTransaction = async (pay: object = {}) =>
    (await made(SOLO, 'POST', `/orders/${await order()}/pay`, { paymentToken: await cardToken(SOLO), ...pay }))
      .transactionId as string;
  const alphaTransaction = async () =>
    (
      await made(PLATFORM, 'POST', `${ALPHA_ORDERS}/${await order(PLATFORM, ALPHA_ORDERS)}/pay`, {
        paymentToken: await cardToken({ 'Limepay-PublicKey': KEYS.alphaPk }),
      })
    ).transactionId as string;
  const merchant = async () =>
    (
      await made(PLATFORM, 'POST', '/marketplaces/onboarding', {
        slug: unique('shop'),
        businessName: 'Shop',
        contactEmail: 'ops@shop.example',
        taxCountry: 'AU',
      })
    ).merchantId as string;
  const cardSource = async () =>
    (await made(SOLO, 'POST', '/sandbox/card-sources', { customerId: 'cust_alice', cardNumber: CARDS.ok }))
      .paymentSourceId as string;
  const owner = async () =>
    (
      await client(sb.currentUrl, { authorization: `Bearer ${KEYS.marketplace}`, 'Merchant-Id': 'mcht_beta' }).post(
        '/beneficialowners',
        {
          CreateBeneficialOwner: {
            givenName: 'Old',
            familyName: 'Name',
            dateOfBirth: '1970-01-01',
            ownershipPercentage: 5,
          },
        },
      )
    ).body.beneficialOwnerId as string;

  const call = (headers: Record<string, string>, method: string, path: string, body?: unknown): LegacyCall => ({
    method,
    path,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const calls: Record<string, () => Promise<LegacyCall>> = {
    L1: async () => call(SOLO, 'POST', '/orders', legacyOrder({ internalOrderId: unique('L1') })),
    L2: async () => call(PLATFORM, 'POST', ALPHA_ORDERS, legacyOrder({ internalOrderId: unique('L2') })),
    L3: async () => call(SOLO, 'GET', `/orders/${await order()}`),
    L4: async () => call(SOLO, 'POST', `/orders/${await order()}/pay`, { paymentToken: await cardToken(SOLO) }),
    L5: async () =>
      call(PLATFORM, 'POST', `${ALPHA_ORDERS}/${await order(PLATFORM, ALPHA_ORDERS)}/pay`, {
        paymentToken: await cardToken({ 'Limepay-PublicKey': KEYS.alphaPk }),
      }),
    L6: async () => call(SOLO, 'GET', `/transactions/${await soloTransaction()}`),
    L7: async () =>
      call(SOLO, 'POST', '/refunds', {
        transactionId: await soloTransaction(),
        refundAmount: { amount: 2_500, currency: 'AUD' },
      }),
    L8: async () =>
      call(PLATFORM, 'POST', '/platforms/mktp_demo/refunds', {
        transactionId: await alphaTransaction(),
        refundAmount: { amount: 2_500, currency: 'AUD' },
      }),
    L9: async () =>
      call(SOLO, 'POST', `/transactions/${await soloTransaction({ authoriseOnly: true })}/authorisation:capture`, {
        captureAmount: { amount: 6_000, currency: 'AUD' },
      }),
    L10: async () =>
      call(SOLO, 'DELETE', `/transactions/${await soloTransaction({ authoriseOnly: true })}/authorisation`),
    L11: async () =>
      call(SOLO, 'PUT', `/orders/${await order()}/internalOrderId`, { internalOrderId: unique('renamed') }),
    L12: async () => call(SOLO, 'DELETE', `/orders/${await order()}`),
    L13: async () =>
      call(SOLO, 'POST', '/customers/consumer', {
        internalCustomerId: unique('crm'),
        email: `${unique('sam')}@shop.example`,
        phoneno: '+61400000009',
        firstName: 'Sam',
        lastName: 'Ng',
        address: { line1: '2 High St', country: 'AU' },
      }),
    L14: async () => call(SOLO, 'GET', '/merchants/mcht_solo/customers?email=alice@example.com'),
    L15: async () => call(SOLO, 'GET', '/merchants/mcht_solo/customers/cust_alice/payments/sources'),
    L16: async () =>
      call(SOLO, 'DELETE', `/merchants/mcht_solo/payments/sources/card/cust_alice/${await cardSource()}`),
    L17: async () =>
      call(
        SOLO,
        'GET',
        `/transactions?merchantOrderId=${(await made(SOLO, 'GET', `/transactions/${await soloTransaction()}`)).merchantOrderId}`,
      ),
    L18: async () =>
      call(SOLO, 'POST', '/customers/organisation', {
        internalCustomerId: unique('org'),
        businessName: 'Acme',
        email: `${unique('acme')}@shop.example`,
        abn: '12345678901',
      }),
    L19: async () =>
      call(SOLO, 'POST', '/payments/saved-card', {
        cardPaymentSourceId: await cardSource(),
        paymentAmount: { amount: 2_500, currency: 'AUD' },
        customerId: 'cust_alice',
      }),
    L20: async () =>
      call({ 'Limepay-PublicKey': KEYS.soloPk }, 'POST', '/payments/plan/eligibility-max', {
        customerId: 'cust_alice',
      }),
    L21: async () =>
      call(PLATFORM, 'POST', '/marketplaces/onboarding', {
        slug: unique('slug'),
        businessName: 'Gamma',
        contactEmail: 'g@example.com',
        taxCountry: 'AU',
      }),
    L22: async () => call(PLATFORM, 'GET', '/platforms/mktp_demo/merchants/mcht_beta'),
    L23: async () =>
      call(PLATFORM, 'PUT', `/platforms/mktp_demo/merchants/${await merchant()}/businessProfile`, PROFILE),
    L24: async () => call(PLATFORM, 'POST', `/marketplaces/merchants/${await merchant()}/accounts`, ACCOUNT),
    L25: async () => {
      const m = await merchant();
      await made(PLATFORM, 'POST', `/marketplaces/merchants/${m}/accounts`, ACCOUNT);
      const second = await made(PLATFORM, 'POST', `/marketplaces/merchants/${m}/accounts`, {
        ...ACCOUNT,
        accountNumber: '87654321',
        setAsPrimary: false,
      });
      return call(PLATFORM, 'PUT', `/platforms/mktp_demo/merchants/${m}/bankAccounts/${second.accountId}/primary`);
    },
    L26: async () => call(PLATFORM, 'POST', `/transactions/${await alphaTransaction()}/transfers`, TRANSFER),
    L27: async () => {
      const tx = await alphaTransaction();
      await made(PLATFORM, 'POST', `/transactions/${tx}/transfers`, TRANSFER);
      return call(PLATFORM, 'POST', `/transactions/${tx}/transfers:reverse`, {
        fromMerchant: 'mcht_beta',
        toMerchant: 'mcht_alpha',
        reverseAmount: TRANSFER.transferAmount,
        reverseLevy: false,
      });
    },
    L28: async () =>
      call(SOLO, 'POST', '/customers/plugin', {
        internalCustomerId: unique('plugin'),
        emailAddress: `${unique('pat')}@shop.example`,
        givenName: 'Pat',
        familyName: 'Lee',
      }),
    L29: async () =>
      call(SOLO, 'POST', '/authn/tenants/accounts:signinCustomerWithCustomerId', { customerId: 'cust_alice' }),
    L30: async () => call(SOLO, 'PATCH', `/orders/${await order()}`, { internalOrderId: unique('patched') }),
    L31: async () =>
      call(SOLO, 'POST', '/orders/invoices', {
        orderRequest: legacyOrder({ internalOrderId: unique('L31') }),
        sendEmail: false,
      }),
    L32: async () => call(PLATFORM, 'POST', `/marketplaces/merchants/mcht_beta/person/${await owner()}`, PERSON),
  };
  return {
    routes: Object.keys(calls),
    /** The call for `route`, its resources made first; a route with no call here stops the test, naming it. */
    prepare(route: string): Promise<LegacyCall> {
      const make = calls[route];
      if (!make) throw new Error(`test/helpers/route-calls.ts has no call for ${route}: add one`);
      return make();
    },
  };
}

/** Sends a legacy call to `base` (a gateway) with its own x-request-id; the answer's status and parsed body. */
export function sendCall(base: string, call: LegacyCall, requestId: string) {
  return client(base, { ...call.headers, 'x-request-id': requestId }).raw(
    call.method,
    call.path,
    call.body === undefined ? {} : { body: call.body },
  );
}
