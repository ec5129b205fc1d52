import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signJwt } from '../../src/contract/jwt.js';
import { DEFAULT_FIXTURES } from '../../src/sandbox/fixtures.js';
import {
  CARDS,
  currentOrder,
  jwt,
  KEYS,
  legacyOrder,
  paidCardTransaction,
  startSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

let sb: TestSandbox;
let soloOrder: string;
let soloTx: string;
let alphaOrder: string;
beforeAll(async () => {
  sb = await startSandbox();
  soloTx = await paidCardTransaction(sb.current(KEYS.soloSk));
  soloOrder = (await sb.current(KEYS.soloSk).get(`/transactions/${soloTx}`)).body.purchaseDetails.orderId;
  alphaOrder = (await sb.current(KEYS.alphaSk).post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
});
afterAll(() => sb.close());

const merchantJwt = () => jwt('merchant', 'mcht_solo');
const customerJwt = () => jwt('customer', 'cust_alice');
const marketplaceJwt = () => jwt('marketplace', 'mktp_demo');

describe('current face authorisation', () => {
  it('accepts every credential type through the one Authorization header', async () => {
    for (const credential of [KEYS.soloSk, merchantJwt()]) {
      expect((await sb.current(credential).get(`/orders/${soloOrder}`)).status).toBe(200);
    }
    for (const credential of [KEYS.marketplace, marketplaceJwt()]) {
      expect((await sb.current(credential).get(`/orders/${alphaOrder}`)).status).toBe(200);
    }
    for (const credential of [KEYS.soloPk, customerJwt(), KEYS.checkout, KEYS.soloSk, merchantJwt()]) {
      const res = await sb.current(credential).post('/sandbox/card-tokens', { cardNumber: CARDS.ok });
      expect(res.status, credential).toBe(200);
    }
  });

  it('lets only a secret key or a marketplace API key pay', async () => {
    for (const credential of [KEYS.soloPk, merchantJwt(), customerJwt(), KEYS.checkout]) {
      const res = await sb
        .current(credential)
        .post(`/orders/${soloOrder}/pay`, { PayByCard: { paymentTokenId: 'ptkn_x' } });
      expect(res.status, credential).toBe(403);
      expect(res.body.errorCode).toBe('forbidden');
    }
    const order = (await sb.current(KEYS.alphaSk).post('/orders', currentOrder())).body.OnlineOrder.order.orderId;
    const token = (await sb.current(KEYS.alphaPk).post('/sandbox/card-tokens', { cardNumber: CARDS.ok })).body
      .paymentTokenId;
    const byMarketplace = await sb
      .current(KEYS.marketplace)
      .post(`/orders/${order}/pay`, { PayByCard: { paymentTokenId: token } });
    expect(byMarketplace.status).toBe(200);
  });

  it('lets only a merchant secret key or a marketplace API key refund', async () => {
    for (const credential of [KEYS.soloPk, merchantJwt(), customerJwt()]) {
      const res = await sb.current(credential).patch(`/transactions/${soloTx}`, { CreateRefund: { refundAmount: 1 } });
      expect(res.status, credential).toBe(403);
    }
    expect(
      (await sb.current(KEYS.soloSk).patch(`/transactions/${soloTx}`, { CreateRefund: { refundAmount: 1 } })).status,
    ).toBe(200);
  });

  it('lets a public key run the PayTo flow (create, poll, tokenise), create card tokens and orders, and nothing else (docs/decisions.md D-AUTH-1)', async () => {
    const pk = sb.current(KEYS.soloPk);
    expect((await pk.post('/orders', currentOrder())).status).toBe(200);
    const agreement = await pk.post('/payto/agreement', {
      customerName: 'Jo',
      customerAccIdentifier: { Bban: { value: '062-000-1234567' } },
      terms: { AgreementRequestTermsOpen: {} },
      purpose: 'x',
    });
    expect(agreement.status).toBe(200);
    const token = await pk.post('/tokens', {
      CreatePayToToken: { amount: { minorCurrencyUnits: 100, currency: 'AUD' }, agreementToken: agreement.body.token },
    });
    expect(token.status).toBe(200);
    expect((await pk.get(`/payto/agreement?token=${agreement.body.token}`)).status).toBe(200);
    for (const [method, path] of [
      ['GET', `/orders/${soloOrder}`],
      ['GET', `/transactions/${soloTx}`],
      ['GET', '/customers'],
      ['GET', '/sources'],
      ['GET', '/merchants/mcht_solo'],
      ['GET', '/payouts/summaries'],
      ['GET', '/beneficialowners'],
    ] as const) {
      const res = await pk.raw(method, path, {});
      expect(res.status, path).toBe(403);
    }
  });

  it('lets a marketplace act only for its own sub-merchants, naming one where no resource does', async () => {
    const mk = sb.current(KEYS.marketplace);
    const noMerchant = await mk.post('/orders', currentOrder());
    expect(noMerchant.status).toBe(400);
    expect(noMerchant.body.detail).toMatch(/^Merchant-Id/);
    expect((await mk.post('/orders', currentOrder(), { 'Merchant-Id': 'mcht_alpha' })).status).toBe(200);
    expect((await mk.post('/orders', currentOrder(), { 'Merchant-Id': 'mcht_solo' })).status).toBe(403);
    expect((await mk.get(`/orders/${soloOrder}`)).status).toBe(404);
    expect((await mk.get(`/orders/${alphaOrder}`, { 'Merchant-Id': 'mcht_beta' })).status).toBe(404);
    expect((await mk.get('/merchants/mcht_solo')).status).toBe(404);
    expect((await mk.get('/merchants/mcht_beta')).body.ServiceProviderMerchant.publicKey).toBe(
      'sandbox_pk_beta_public_key',
    );
  });

  it('answers 403 to a context header naming an entity the caller may not act for', async () => {
    const cases: [string, Record<string, string>][] = [
      [KEYS.soloSk, { 'Merchant-Id': 'mcht_other' }],
      [KEYS.soloSk, { 'Merchant-Id': 'mcht_doesnotexist' }],
      [KEYS.soloSk, { 'Customer-Id': 'cust_olga' }],
      [KEYS.soloSk, { 'Marketplace-Id': 'mktp_demo' }],
      [KEYS.marketplace, { 'Marketplace-Id': 'mktp_elsewhere' }],
      [customerJwt(), { 'Customer-Id': 'cust_amy' }],
    ];
    for (const [credential, headers] of cases) {
      const res = await sb.current(credential, headers).post('/sandbox/card-tokens', { cardNumber: CARDS.ok });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.errorCode).toBe('forbidden');
    }
  });

  it("answers 404 for another merchant's resources", async () => {
    const other = sb.current(KEYS.otherSk);
    expect((await other.get(`/orders/${soloOrder}`)).status).toBe(404);
    expect((await other.get(`/transactions/${soloTx}`)).status).toBe(404);
    expect((await other.patch(`/transactions/${soloTx}`, { CreateRefund: { refundAmount: 1 } })).status).toBe(404);
    expect((await other.get(`/transactions?orderId=${soloOrder}`)).body).toEqual([]);
  });

  it('refuses live_, unknown, forged and missing credentials with 401', async () => {
    const forged = jwt('merchant', 'mcht_solo', 'another-secret-of-enough-length');
    for (const credential of ['live_sk_solo_secret_key', 'sandbox_sk_nobody', forged, 'not-a-credential']) {
      const res = await sb.current(credential).get(`/orders/${soloOrder}`);
      expect(res.status, credential).toBe(401);
      expect(res.body.errorCode).toBe('unauthenticated');
    }
    const none = await fetch(`${sb.currentUrl}/orders/${soloOrder}`);
    expect(none.status).toBe(401);
  });

  it('verifies JWTs with jose: an expired token, alg none, or a kind the sandbox does not know is refused (D-AUTH-2)', async () => {
    const secret = DEFAULT_FIXTURES.jwtSecret;
    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt({ sub: 'mcht_solo', kind: 'merchant', exp: now - 60 }, secret);
    const fresh = signJwt({ sub: 'mcht_solo', kind: 'merchant', exp: now + 600 }, secret);
    const body = Buffer.from(JSON.stringify({ sub: 'mcht_solo', kind: 'merchant' })).toString('base64url');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${body}.`;
    const admin = signJwt({ sub: 'mcht_solo', kind: 'admin' as 'merchant' }, secret);
    expect((await sb.current(fresh).get(`/orders/${soloOrder}`)).status).toBe(200);
    for (const token of [expired, none, `${none}x`, admin])
      expect((await sb.current(token).get(`/orders/${soloOrder}`)).status, token.slice(0, 20)).toBe(401);
  });
});

describe('legacy face authorisation', () => {
  const payBody = { paymentToken: 'ptkn_abc' };

  it('lets only Limepay-SecretKey or Limepay-Token pay and refund', async () => {
    for (const [header, credential] of [
      ['Limepay-PublicKey', KEYS.soloPk],
      ['Limepay-MerchantJwt', merchantJwt()],
      ['Limepay-CustomerJwt', customerJwt()],
      ['Limepay-MerchantToken', KEYS.soloMerchantToken],
      ['Limepay-CheckoutToken', KEYS.checkout],
    ] as const) {
      const api = sb.legacy(header, credential);
      expect((await api.post(`/orders/${soloOrder}/pay`, payBody)).status, header).toBe(403);
      const refund = await api.post('/refunds', {
        transactionId: soloTx,
        refundAmount: { amount: 1, currency: 'AUD' },
      });
      expect(refund.status, header).toBe(403);
    }
  });

  it('resolves a merchant token to its merchant acting as the public key', async () => {
    const api = sb.legacy('Limepay-MerchantToken', KEYS.soloMerchantToken);
    const order = await api.post('/orders', legacyOrder());
    expect(order.body.merchantId).toBe('mcht_solo');
    expect((await api.get(`/orders/${order.body.merchantOrderId}`)).status).toBe(403);
    expect((await sb.legacy('Limepay-MerchantToken', 'mtok_unknown_token').post('/orders', legacyOrder())).status).toBe(
      401,
    );
  });

  it('lets a platform act only for its own sub-merchants through the path', async () => {
    const platform = sb.legacy('Limepay-Token', KEYS.marketplace);
    expect((await platform.post('/platforms/mktp_demo/merchants/mcht_alpha/orders', legacyOrder())).status).toBe(200);
    expect((await platform.post('/platforms/mktp_demo/merchants/mcht_solo/orders', legacyOrder())).status).toBe(403);
    expect((await platform.post('/platforms/mktp_other/merchants/mcht_alpha/orders', legacyOrder())).status).toBe(403);
    expect((await platform.post('/orders', legacyOrder())).status).toBe(400);
    expect((await platform.get(`/orders/${soloOrder}`)).status).toBe(404);
    expect((await sb.legacy('Limepay-SecretKey', KEYS.otherSk).get(`/transactions/${soloTx}`)).status).toBe(404);
  });

  it('requires exactly one legacy credential header and refuses context headers', async () => {
    const none = await fetch(`${sb.legacyUrl}/orders/${soloOrder}`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as Record<string, unknown>).errorCode).toBe('missing_credentials');
    const two = await fetch(`${sb.legacyUrl}/orders/${soloOrder}`, {
      headers: { 'Limepay-SecretKey': KEYS.soloSk, 'Limepay-PublicKey': KEYS.soloPk },
    });
    expect(two.status).toBe(400);
    expect(((await two.json()) as Record<string, unknown>).errorCode).toBe('invalid_credentials');
    const withBearer = await fetch(`${sb.legacyUrl}/orders/${soloOrder}`, {
      headers: { 'Limepay-SecretKey': KEYS.soloSk, authorization: `Bearer ${KEYS.soloSk}` },
    });
    expect(((await withBearer.json()) as Record<string, unknown>).errorCode).toBe('invalid_credentials');
    const smuggled = await fetch(`${sb.legacyUrl}/orders/${alphaOrder}`, {
      headers: { 'Limepay-SecretKey': KEYS.soloSk, 'Merchant-Id': 'mcht_alpha' },
    });
    expect(smuggled.status).toBe(400);
    expect(((await smuggled.json()) as Record<string, unknown>).detail).toMatch(/^Merchant-Id/);
  });

  it('refuses live_, unknown and mismatched credentials with 401', async () => {
    for (const [header, value] of [
      ['Limepay-SecretKey', 'live_sk_solo_secret_key'],
      ['Limepay-SecretKey', 'sandbox_sk_nobody'],
      ['Limepay-SecretKey', KEYS.soloPk],
      ['Limepay-CustomerJwt', merchantJwt()],
    ] as const) {
      const res = await sb.legacy(header, value).get(`/orders/${soloOrder}`);
      expect(res.status, `${header}: ${value}`).toBe(401);
      expect(res.body.errorCode).toBe('unauthenticated');
    }
  });
});
