import { parseArgs } from 'node:util';
import { signJwt } from '../contract/jwt.js';
import { APRIL_CHECKOUT_PATH } from '../sandbox/checkout/component.js';
import { createSandbox, loadFixtures, type Fixtures } from '../sandbox/index.js';
import { intOption, onShutdown } from './util.js';

export const SANDBOX_USAGE = `paybridge sandbox [--port P] [--legacy-port Q] [--host H] [--fixtures FILE] [--agreement-delay-ms N] [--json]
  Serves the in-memory payments sandbox: the current API on P (default 8090) and the legacy API on Q
  (default 8091), both on 127.0.0.1 unless --host says otherwise. Prints both base URLs and the seeded
  credentials (with --json: one JSON object).`;

/** The credentials a developer needs to call the sandbox, including a JWT of each kind. */
function describeCredentials(fixtures: Fixtures) {
  const customer = fixtures.customers[0];
  const merchant = fixtures.merchants[0];
  const marketplace = fixtures.marketplaces[0];
  return {
    marketplaces: fixtures.marketplaces.map((m) => ({ marketplaceId: m.marketplaceId, apiKey: m.apiKey })),
    merchants: fixtures.merchants.map((m) => ({
      merchantId: m.merchantId,
      marketplaceId: m.marketplaceId,
      publicKey: m.publicKey,
      secretKey: m.secretKey,
      merchantToken: m.merchantToken ?? null,
    })),
    customers: fixtures.customers,
    checkoutTokens: fixtures.checkoutTokens ?? [],
    jwts: {
      ...(customer
        ? {
            customer: {
              sub: customer.customerId,
              jwt: signJwt({ sub: customer.customerId, kind: 'customer' }, fixtures.jwtSecret),
            },
          }
        : {}),
      ...(merchant
        ? {
            merchant: {
              sub: merchant.merchantId,
              jwt: signJwt({ sub: merchant.merchantId, kind: 'merchant' }, fixtures.jwtSecret),
            },
          }
        : {}),
      ...(marketplace
        ? {
            marketplace: {
              sub: marketplace.marketplaceId,
              jwt: signJwt({ sub: marketplace.marketplaceId, kind: 'marketplace' }, fixtures.jwtSecret),
            },
          }
        : {}),
    },
  };
}

export async function runSandbox(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '8090' },
      'legacy-port': { type: 'string', default: '8091' },
      host: { type: 'string', default: '127.0.0.1' },
      fixtures: { type: 'string' },
      'agreement-delay-ms': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const fixtures = values.fixtures ? loadFixtures(values.fixtures) : undefined;
  const delay = values['agreement-delay-ms'];
  const sandbox = createSandbox({
    ...(fixtures ? { fixtures } : {}),
    ...(delay !== undefined ? { agreementDelayMs: intOption('--agreement-delay-ms', delay) } : {}),
  });
  const urls = await sandbox.listen({
    host: values.host,
    port: intOption('--port', values.port),
    legacyPort: intOption('--legacy-port', values['legacy-port']),
  });
  const credentials = describeCredentials(sandbox.fixtures);
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ...urls, credentials })}\n`);
  } else {
    const lines = [
      'paybridge sandbox',
      `  current API: ${urls.currentUrl}`,
      `  legacy API:  ${urls.legacyUrl}`,
      `  demo shop:   ${urls.legacyUrl}/sandbox/shop (the checkout component at /sandbox/checkout.js; put a gateway in front to run it on the current API)`,
      `  current checkout component (AprilCheckout): ${urls.currentUrl}${APRIL_CHECKOUT_PATH} (docs/sandbox.md: pointing a shop at the sandbox)`,
      'seeded credentials:',
      ...credentials.marketplaces.map((m) => `  marketplace ${m.marketplaceId}  api key ${m.apiKey}`),
      ...credentials.merchants.map(
        (m) =>
          `  merchant ${m.merchantId}${m.marketplaceId ? ` (of ${m.marketplaceId})` : ''}  public ${m.publicKey}  secret ${m.secretKey}${m.merchantToken ? `  merchant token ${m.merchantToken}` : ''}`,
      ),
      ...credentials.customers.map((c) => `  customer ${c.customerId} of ${c.merchantId}  ${c.email}`),
      ...credentials.checkoutTokens.map(
        (t) => `  checkout token ${t.token} (${t.merchantId}, ${t.customerId ?? 'no customer'})`,
      ),
      ...Object.entries(credentials.jwts).map(([kind, j]) => `  ${kind} JWT (sub ${j.sub}): ${j.jwt}`),
      'test cards: 4242424242424242 pays, 4000000000000002 is declined, 4000000000003220 asks for 3DS',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  onShutdown(() => sandbox.close());
}
