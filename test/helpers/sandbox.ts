import { signJwt, type JwtKind } from '../../src/contract/jwt.js';
import { createSandbox, DEFAULT_FIXTURES, type SandboxOptions } from '../../src/sandbox/index.js';
import { client, type Client } from './http.js';

export const KEYS = {
  marketplace: 'sandbox_api_demo_marketplace_key',
  /** The gateway operator's marketplace key (acts for every merchant): the service key of gateways under test. */
  operator: 'sandbox_api_operator_service_key',
  alphaPk: 'sandbox_pk_alpha_public_key',
  alphaSk: 'sandbox_sk_alpha_secret_key',
  betaSk: 'sandbox_sk_beta_secret_key',
  soloPk: 'sandbox_pk_solo_public_key',
  soloSk: 'sandbox_sk_solo_secret_key',
  otherSk: 'sandbox_sk_other_secret_key',
  soloMerchantToken: 'mtok_solo_merchant_token',
  checkout: 'chk_solo_alice_checkout_token',
} as const;

export const jwt = (kind: JwtKind, sub: string, secret = DEFAULT_FIXTURES.jwtSecret) => signJwt({ sub, kind }, secret);

export const CARDS = { ok: '4242424242424242', decline: '4000000000000002', threeDS: '4000000000003220' } as const;

/** The sandbox on port 0 with agreements active at once, plus clients for both faces. */
export async function startSandbox(options: SandboxOptions = {}) {
  const sandbox = createSandbox({ agreementDelayMs: 0, ...options });
  const urls = await sandbox.listen({ port: 0, legacyPort: 0 });
  return {
    sandbox,
    ...urls,
    /** Current face with `Authorization: Bearer <credential>`. */
    current: (credential: string, headers: Record<string, string> = {}) =>
      client(urls.currentUrl, { authorization: `Bearer ${credential}`, ...headers }),
    /** Legacy face with one legacy credential header. */
    legacy: (header: string, credential: string) => client(urls.legacyUrl, { [header]: credential }),
    close: () => sandbox.close(),
  };
}

export type TestSandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Body of a current CreateOnlineOrder, with overrides. */
export function currentOrder(overrides: Record<string, unknown> = {}) {
  return {
    CreateOnlineOrder: {
      referenceOrderId: 'ref-1',
      amount: { minorCurrencyUnits: 10_000, currency: 'AUD' },
      customerEmailAddress: 'shopper@example.com',
      description: 'Two books',
      metadata: { cart: { id: 42, tags: ['gift'] }, email: 'not-renamed@example.com' },
      ...overrides,
    },
  };
}

/** A legacy create-order body as a deployed plugin sends it. */
export function legacyOrder(overrides: Record<string, unknown> = {}) {
  return {
    internalOrderId: 'legacy-ref-1',
    paymentAmount: { amount: 10_000, currency: 'AUD' },
    description: 'Two books',
    customerEmail: 'shopper@example.com',
    phoneNo: '+61400000001',
    items: [
      {
        description: 'Book',
        quantity: 2,
        amount: 5000,
        currency: 'AUD',
        sku: 'BK-1',
        imageUrl: 'https://img.example/bk.png',
      },
    ],
    discount: { amount: 0 },
    shipping: {
      amount: 500,
      name: 'Jo Shopper',
      address: { line1: '1 Main St', city: 'Sydney', state: 'NSW', postalCode: '2000', country: 'AU' },
    },
    billing: {
      name: 'Jo Shopper',
      email: 'billing@example.com',
      phone: '+61400000002',
      address: { line1: '1 Main St', city: 'Sydney', country: 'AU' },
    },
    metadata: { cart: { id: 42 }, firstName: 'stays' },
    ...overrides,
  };
}

/** A paid (or authorised) card transaction of 100.00 AUD for the client's merchant. */
export async function paidCardTransaction(api: Client, pay: Record<string, unknown> = {}): Promise<string> {
  const token = await api.post('/sandbox/card-tokens', { cardNumber: CARDS.ok });
  const order = (await api.post('/orders', currentOrder())).body.OnlineOrder.order;
  const paid = await api.post(`/orders/${order.orderId}/pay`, {
    PayByCard: { paymentTokenId: token.body.paymentTokenId, ...pay },
  });
  if (paid.status !== 200) throw new Error(`pay failed: ${paid.text}`);
  return paid.body.PayOrderComplete.transactionId;
}
