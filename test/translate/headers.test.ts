import { describe, expect, it } from 'vitest';
import { headerRecord, lowerCaseName } from '../../src/translate/headers.js';

describe('headerRecord', () => {
  it('keys headers by lower-case name, a name repeated in two spellings as a list, numeric names dropped', () => {
    const record = headerRecord([
      'Limepay-SecretKey',
      'sandbox_sk_a',
      'limepay-secretkey',
      'sandbox_sk_b',
      'Host',
      'gw',
      '0',
      'Content-Type: application/json',
    ]);
    expect(record).toEqual({ 'limepay-secretkey': ['sandbox_sk_a', 'sandbox_sk_b'], host: 'gw' });
  });
});

describe('lowerCaseName', () => {
  it('stays right past the bound of remembered names, for names seen before and after it was reached', () => {
    // 3,000 distinct names: the remembered set fills and is cleared twice on the way
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 3_000; i++) expect(lowerCaseName(`X-Custom-Header-${i}`)).toBe(`x-custom-header-${i}`);
    expect(lowerCaseName('Limepay-SecretKey')).toBe('limepay-secretkey');
    expect(lowerCaseName('Limepay-SecretKey')).toBe('limepay-secretkey');
  });
});
