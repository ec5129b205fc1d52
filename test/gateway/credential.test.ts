// The gateway decides a request's one credential before choosing an upstream (soleCredential): a
// legacy header's value, the Bearer token or Basic's key; two of any kind are a 400 naming them.
import { describe, expect, it } from 'vitest';
import { soleCredential } from '../../src/gateway/requests.js';
import { refusalOf } from '../helpers/refusal.js';

const refusal = (headers: Record<string, string | string[]>) => refusalOf(() => soleCredential(headers));

describe('soleCredential', () => {
  it('reads the one credential of a request, whichever way it comes', () => {
    expect(soleCredential({})).toBeUndefined();
    expect(soleCredential({ 'limepay-secretkey': '  sandbox_sk_solo  ' })).toBe('sandbox_sk_solo');
    expect(soleCredential({ 'limepay-publickey': 'live_pk_solo' })).toBe('live_pk_solo');
    expect(soleCredential({ authorization: 'Bearer live_sk_solo' })).toBe('live_sk_solo');
    expect(soleCredential({ authorization: `Basic ${Buffer.from('sandbox_sk_solo:').toString('base64')}` })).toBe(
      'sandbox_sk_solo',
    );
  });

  it('refuses two credentials of any kind, naming each header once', () => {
    expect(refusal({ 'limepay-secretkey': 'sandbox_sk_a', 'limepay-publickey': 'live_pk_b' })).toBe(
      'invalid_credentials: Limepay-PublicKey, Limepay-SecretKey: exactly one credential header is allowed, got 2',
    );
    expect(refusal({ 'limepay-secretkey': ['sandbox_sk_a', 'live_sk_b'] })).toBe(
      'invalid_credentials: Limepay-SecretKey: exactly one credential header is allowed, got 2',
    );
    expect(refusal({ 'limepay-secretkey': ['sandbox_sk_a', 'sandbox_sk_a'], 'limepay-token': 'tok' })).toBe(
      'invalid_credentials: Limepay-SecretKey, Limepay-Token: exactly one credential header is allowed, got 3',
    );
    expect(refusal({ 'limepay-token': 'tok', authorization: 'Bearer live_sk_b' })).toBe(
      'invalid_credentials: Limepay-Token: a legacy credential header cannot be combined with Authorization',
    );
    expect(refusal({ authorization: ['Bearer sandbox_sk_a', 'Bearer live_sk_b'] })).toBe(
      'invalid_credentials: Authorization: exactly one credential is allowed, got 2',
    );
  });

  it("refuses a value that is not one token of its header's documented form with a 401 naming the header (legacy-api.md section 1)", () => {
    expect(refusal({ 'limepay-secretkey': 'sandbox_sk_x;live_sk_y' })).toBe(
      'unauthenticated: Limepay-SecretKey: the value is not a secret key',
    );
    expect(refusal({ 'limepay-publickey': 'sandbox_pk_x|live_pk_y' })).toBe(
      'unauthenticated: Limepay-PublicKey: the value is not a public key',
    );
    expect(refusal({ 'limepay-token': 'sandbox_api_x&live_api_y' })).toBe(
      'unauthenticated: Limepay-Token: the value is not a platform API key',
    );
    expect(refusal({ 'limepay-secretkey': 'sandbox_sk_x live_sk_y' })).toMatch(
      /^invalid_credentials: Limepay-SecretKey: a credential is one token/,
    );
    for (const bearer of [
      'sandbox_sk_x.live_sk_y',
      'sandbox_sk_x/live_sk_y',
      'sandbox_sk_x~y',
      'x+y==',
      'sandbox_xx_y',
      'abc.def.ghi',
    ])
      expect(refusal({ authorization: `Bearer ${bearer}` }), bearer).toMatch(
        /^unauthenticated: Authorization: the Bearer value is not/,
      );
    expect(refusal({ authorization: 'Bearer ' })).toMatch(
      /^unauthenticated: Authorization: the Bearer value \(empty\)/,
    );
    expect(refusal({ authorization: `Basic ${Buffer.from('sandbox_sk_x;live_sk_y:').toString('base64')}` })).toMatch(
      /^unauthenticated: Authorization: the Basic user is not/,
    );
    // the forms themselves: keys, a JWT, an opaque checkout token
    for (const bearer of [
      'sandbox_sk_solo',
      'live_api_x_y',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
      'chk_0123456789abcdef',
    ])
      expect(refusal({ authorization: `Bearer ${bearer}` }), bearer).toBe('accepted');
  });
});
