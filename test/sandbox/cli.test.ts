import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signJwt } from '../../src/contract/jwt.js';
import { client } from '../helpers/http.js';
import { spawnBin, type Spawned } from '../helpers/spawn.js';

const fixtures = {
  jwtSecret: 'a-test-secret-of-some-length',
  marketplaces: [{ marketplaceId: 'mktp_acme', apiKey: 'sandbox_api_acme_12345678' }],
  merchants: [
    {
      merchantId: 'mcht_shop',
      marketplaceId: 'mktp_acme',
      name: 'Shop',
      publicKey: 'sandbox_pk_shop_12345678',
      secretKey: 'sandbox_sk_shop_12345678',
      merchantToken: 'mtok_shop_12345678',
    },
  ],
  customers: [{ customerId: 'cust_zoe', merchantId: 'mcht_shop', email: 'zoe@example.com' }],
};

function writeFixtures(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'paybridge-fixtures-'));
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

let running: Spawned | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('paybridge sandbox (the bin)', () => {
  it('serves both faces from a fixture file and prints their URLs and the seeded credentials', async () => {
    running = spawnBin([
      'sandbox',
      '--port',
      '0',
      '--legacy-port',
      '0',
      '--fixtures',
      writeFixtures(fixtures),
      '--agreement-delay-ms',
      '0',
    ]);
    const [, currentUrl] = await running.waitFor(/current API: (http:\/\/127\.0\.0\.1:\d+)/);
    const [, legacyUrl] = await running.waitFor(/legacy API: {2}(http:\/\/127\.0\.0\.1:\d+)/);
    await running.waitFor(/test cards/);
    expect(running.stdout()).toContain('sandbox_sk_shop_12345678');
    expect(running.stdout()).toContain('mtok_shop_12345678');

    const jwt = signJwt({ sub: 'mcht_shop', kind: 'merchant' }, fixtures.jwtSecret);
    const token = await client(currentUrl!, { authorization: `Bearer ${jwt}` }).post('/sandbox/card-tokens', {
      cardNumber: '4242424242424242',
    });
    expect(token.status).toBe(200);
    const customers = await client(legacyUrl!, { 'Limepay-SecretKey': 'sandbox_sk_shop_12345678' }).get(
      '/merchants/mcht_shop/customers?email=zoe@example.com',
    );
    expect(customers.body.customers).toEqual([expect.objectContaining({ customerId: 'cust_zoe' })]);
    // the default fixtures are not loaded
    const other = await client(currentUrl!, { authorization: 'Bearer sandbox_sk_solo_secret_key' }).get(
      '/orders/ordr_x',
    );
    expect(other.status).toBe(401);
    expect(await running.stop()).toBe(0);
  });

  it('prints one JSON object with --json', async () => {
    running = spawnBin(['sandbox', '--port', '0', '--legacy-port', '0', '--json']);
    const [line] = await running.waitFor(/^\{.*\}\n/);
    const info = JSON.parse(line);
    expect(info.currentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.credentials.merchants[0].secretKey).toBe('sandbox_sk_alpha_secret_key');
    expect(info.credentials.jwts.customer.jwt.split('.')).toHaveLength(3);
  });

  it('stops with a message naming the field of an invalid fixture file', async () => {
    const bad = { ...fixtures, merchants: [{ ...fixtures.merchants[0], secretKey: 'sk_without_prefix' }] };
    running = spawnBin(['sandbox', '--port', '0', '--legacy-port', '0', '--fixtures', writeFixtures(bad)]);
    expect(await running.exited).toBe(1);
    expect(running.stderr()).toMatch(
      /merchants\[0\]\.secretKey: expected sandbox_sk_ followed by 8-128 characters of A-Z a-z 0-9 _ -/,
    );
  });
});
