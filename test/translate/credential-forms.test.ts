/**
 * Each legacy credential header takes exactly its own form (legacy-api.md section 1): keys of their
 * kind and environment with nothing before or after, JWTs of the header's kind, checkout and merchant
 * tokens as opaque tokens that are not keys. Written against the mutants that survived the in-process
 * suite (form checks replaced by `true`, key patterns unanchored, the refused headers listed in
 * table order instead of sorted) and a Get Merchant that gives no public key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaybridgeError } from '../../src/errors.js';
import { foreignScheme, legacyCredential, MerchantKeyResolver } from '../../src/translate/credentials.js';
import { createTranslator } from '../../src/translate/index.js';
import { merchantKeyLookup } from '../../src/translate/merchant-lookup.js';
import { jwt, KEYS } from '../helpers/sandbox.js';

const refusal = (headers: Record<string, string | string[]>): [string, string] | 'accepted' => {
  try {
    legacyCredential(headers);
    return 'accepted';
  } catch (err) {
    expect(err).toBeInstanceOf(PaybridgeError);
    return [(err as PaybridgeError).code, (err as PaybridgeError).detail];
  }
};

describe('a credential value of the wrong form is a 401 naming the header', () => {
  const WRONG: [string, string, string][] = [
    // keys with something before or after them, or of another kind
    ['limepay-secretkey', `x${KEYS.soloSk}`, 'Limepay-SecretKey: the value is not a secret key'],
    ['limepay-secretkey', `${KEYS.soloSk}!`, 'Limepay-SecretKey: the value is not a secret key'],
    ['limepay-secretkey', `${KEYS.soloSk}.extra`, 'Limepay-SecretKey: the value is not a secret key'],
    ['limepay-publickey', `prefix-${KEYS.soloPk}`, 'Limepay-PublicKey: the value is not a public key'],
    ['limepay-publickey', `${KEYS.soloPk}/`, 'Limepay-PublicKey: the value is not a public key'],
    ['limepay-token', `${KEYS.marketplace}#`, 'Limepay-Token: the value is not a platform API key'],
    ['limepay-token', ` ${KEYS.soloSk}`, 'Limepay-Token: the value is not a platform API key'],
    ['limepay-token', `x${KEYS.marketplace}`, 'Limepay-Token: the value is not a platform API key'],
    ['limepay-token', `${KEYS.marketplace} `.repeat(2).trim(), 'Limepay-Token: the value is not a platform API key'],
    ['limepay-secretkey', 'test_sk_not_an_environment', 'Limepay-SecretKey: the value is not a secret key'],
    // a JWT of another kind
    ['limepay-customerjwt', jwt('merchant', 'mcht_solo'), 'Limepay-CustomerJwt: the value is not a customer JWT'],
    ['limepay-merchantjwt', jwt('marketplace', 'mktp_demo'), 'Limepay-MerchantJwt: the value is not a merchant JWT'],
    ['limepay-platformjwt', jwt('customer', 'cust_alice'), 'Limepay-PlatformJwt: the value is not a platform JWT'],
    ['limepay-customerjwt', 'not.a.jwt-at-all', 'Limepay-CustomerJwt: the value is not a customer JWT'],
    // malformed checkout and merchant tokens: too short, other characters, a key in their place
    ['limepay-checkouttoken', 'short', 'Limepay-CheckoutToken: the value is not a checkout token'],
    ['limepay-checkouttoken', 'chk_has spaces inside', 'Limepay-CheckoutToken: the value is not a checkout token'],
    ['limepay-checkouttoken', KEYS.soloSk, 'Limepay-CheckoutToken: the value is not a checkout token'],
    ['limepay-merchanttoken', 'mtok/../x', 'Limepay-MerchantToken: the value is not a merchant token'],
    ['limepay-merchanttoken', KEYS.soloPk, 'Limepay-MerchantToken: the value is not a merchant token'],
    ['limepay-merchanttoken', 'x'.repeat(257), 'Limepay-MerchantToken: the value is not a merchant token'],
  ];
  it.each(WRONG)('%s: %s', (header, value, detail) => {
    expect(refusal({ [header]: value })).toEqual(['unauthenticated', detail]);
  });

  it('an opaque token may hold an environment word inside it; only one that starts like a key is refused', () => {
    expect(refusal({ 'limepay-checkouttoken': 'chk_for_sandbox_demo' })).toBe('accepted');
    expect(refusal({ 'limepay-merchanttoken': 'mtok_live_shop_token' })).toBe('accepted');
    expect(refusal({ 'limepay-checkouttoken': 'live_chk_token_value' })).toEqual([
      'unauthenticated',
      'Limepay-CheckoutToken: the value is not a checkout token',
    ]);
  });

  it('the right forms are taken (the cases above are refused for their form, not for their header)', () => {
    for (const [header, value] of [
      ['limepay-secretkey', KEYS.soloSk],
      ['limepay-publickey', KEYS.soloPk],
      ['limepay-token', KEYS.marketplace],
      ['limepay-customerjwt', jwt('customer', 'cust_alice')],
      ['limepay-merchantjwt', jwt('merchant', 'mcht_solo')],
      ['limepay-platformjwt', jwt('marketplace', 'mktp_demo')],
      ['limepay-checkouttoken', KEYS.checkout],
      ['limepay-merchanttoken', 'mtok_solo_merchant_token'],
    ] as const)
      expect(refusal({ [header]: value }), header).toBe('accepted');
  });
});

describe('which headers are credentials', () => {
  it('a Limepay- header outside the table, or a table header with no value, is not a credential', () => {
    expect(refusal({ 'limepay-version': '2', 'limepay-secretkey': KEYS.soloSk })).toBe('accepted');
    expect(refusal({ 'limepay-version': '2' })).toEqual([
      'missing_credentials',
      'one Limepay-* credential header is required',
    ]);
    expect(refusal({ 'x-limepay-secretkey': KEYS.soloSk })).toEqual([
      'missing_credentials',
      'one Limepay-* credential header is required',
    ]);
    // a header given as an empty list (no line) is none; the one with a value is taken
    expect(refusal({ 'limepay-publickey': [], 'limepay-secretkey': KEYS.soloSk })).toBe('accepted');
    expect(legacyCredential({ 'limepay-publickey': [], 'limepay-secretkey': [KEYS.soloSk] }).value).toBe(KEYS.soloSk);
    expect(legacyCredential({ 'limepay-secretkey': `  ${KEYS.soloSk}\t` }).value).toBe(KEYS.soloSk);
  });

  it('context headers are refused on a legacy call, each named', () => {
    for (const [name, spelled] of [
      ['marketplace-id', 'Marketplace-Id'],
      ['merchant-id', 'Merchant-Id'],
      ['customer-id', 'Customer-Id'],
    ] as const)
      expect(refusal({ 'limepay-secretkey': KEYS.soloSk, [name]: 'x' })).toEqual([
        'invalid_request',
        `${spelled}: context headers are not accepted on legacy calls; the path names the context`,
      ]);
  });

  it('names only the headers that hold a value when refusing two', () => {
    expect(refusal({ 'limepay-secretkey': [KEYS.soloSk, KEYS.betaSk], 'limepay-publickey': [] })).toEqual([
      'invalid_credentials',
      'Limepay-SecretKey: exactly one credential header is allowed, got 2',
    ]);
  });

  it('tells the scheme of an Authorization header that is neither legacy nor Bearer', () => {
    expect(foreignScheme({})).toBeUndefined();
    expect(foreignScheme({ authorization: `Bearer ${KEYS.soloSk}` })).toBeUndefined();
    expect(foreignScheme({ authorization: `bearer ${KEYS.soloSk}` })).toBeUndefined();
    expect(foreignScheme({ authorization: '  Basic c2s6' })).toBe('Basic');
    expect(foreignScheme({ authorization: ['Digest x', 'Bearer y'] })).toBe('Digest');
    expect(foreignScheme({ authorization: '' })).toBe('(empty)');
    expect(foreignScheme({ authorization: [] })).toBe('(empty)');
  });
});

describe('more than one credential header', () => {
  it('names the headers sorted, whatever their order in the table or the request', () => {
    // table order: Limepay-Token before Limepay-CustomerJwt; sorted: the other way round
    expect(
      refusal({ 'limepay-token': KEYS.marketplace, 'limepay-customerjwt': jwt('customer', 'cust_alice') }),
    ).toEqual([
      'invalid_credentials',
      'Limepay-CustomerJwt, Limepay-Token: exactly one credential header is allowed, got 2',
    ]);
    expect(
      refusal({
        'limepay-merchanttoken': 'mtok_solo_merchant_token',
        'limepay-checkouttoken': KEYS.checkout,
        'limepay-publickey': KEYS.soloPk,
      }),
    ).toEqual([
      'invalid_credentials',
      'Limepay-CheckoutToken, Limepay-MerchantToken, Limepay-PublicKey: exactly one credential header is allowed, got 3',
    ]);
  });
});

describe('a merchant token whose merchant has no public key', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Get Merchant answering 200 without a publicKey
    server = createServer((req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ merchantId: 'mcht_solo' })),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const request = {
    method: 'GET',
    path: '/orders/ordr_1',
    headers: { 'limepay-merchanttoken': 'mtok_solo_merchant_token' },
  };

  it('is an upstream error, never `Bearer undefined`: from Get Merchant, and from a look-up that gives nothing', async () => {
    const lookup = merchantKeyLookup({ currentUrl: url, serviceKey: KEYS.marketplace });
    await expect(lookup('mcht_solo')).rejects.toMatchObject({ code: 'upstream_error' });
    const viaGetMerchant = createTranslator({
      merchantTokens: { mtok_solo_merchant_token: 'mcht_solo' },
      currentUrl: url,
      serviceKey: KEYS.marketplace,
    });
    await expect(viaGetMerchant.toCurrent(request)).rejects.toMatchObject({ code: 'upstream_error' });
    const empty = createTranslator({
      merchantTokens: { mtok_solo_merchant_token: 'mcht_solo' },
      lookupMerchantKey: async () => undefined as unknown as string,
    });
    const err = await empty.toCurrent(request).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'upstream_error', detail: 'Get Merchant mcht_solo gave no public key' });
  });

  it('bounds its cache as configured: past max entries a merchant is looked up again', async () => {
    let calls = 0;
    const resolver = new MerchantKeyResolver({
      tokens: { mtok_a_token_value: 'mcht_a', mtok_b_token_value: 'mcht_b' },
      lookup: async (id) => (calls++, `sandbox_pk_${id}`),
      max: 1,
    });
    await resolver.publicKey('mtok_a_token_value');
    await resolver.publicKey('mtok_a_token_value');
    expect(calls).toBe(1);
    await resolver.publicKey('mtok_b_token_value');
    expect(await resolver.publicKey('mtok_a_token_value')).toBe('sandbox_pk_mcht_a');
    expect([calls, resolver.lookups]).toEqual([3, 3]);
  });

  it('an unknown merchant token is a 401 and Get Merchant is not called', async () => {
    let calls = 0;
    const translator = createTranslator({
      merchantTokens: { mtok_solo_merchant_token: 'mcht_solo' },
      lookupMerchantKey: async () => (calls++, KEYS.soloPk),
    });
    await expect(
      translator.toCurrent({ ...request, headers: { 'limepay-merchanttoken': 'mtok_unknown_token_value' } }),
    ).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(calls).toBe(0);
    expect((await translator.toCurrent(request)).headers.authorization).toBe(`Bearer ${KEYS.soloPk}`);
    expect(calls).toBe(1);
  });
});
