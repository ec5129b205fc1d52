/** Every secret the suite uses, so the secrets test can look for each one in what the suite wrote. */
import { DEFAULT_FIXTURES } from '../../src/sandbox/fixtures.js';
import { CARDS, jwt } from './sandbox.js';

export const OPERATOR_TOKENS = {
  replay: 'operator-token-for-tests-0123',
  page: 'operator-token-for-the-html-page',
  clients: 'operator-token-deployed-clients',
  config: 'operator-token-config-tests-01',
  migration: 'operator-token-migration-guide',
} as const;
/** Customer e-mail addresses the suite sends: masked (`s***@example.com`) wherever they are written. */
export const CUSTOMER_EMAILS = ['shopper@example.com', 'alice@example.com', 'jo@example.com', 'sam@example.com'];
/** A checkout token a test sends in a query string. */
export const QUERY_TOKEN = 'chk_query_token_for_redaction_test';
/** The CVC tests send; distinctive so a hit is never a coincidence. */
export const TEST_CVC = '7319';
/** Keys of the fixture file the sandbox CLI test writes. */
const CLI_FIXTURE_SECRETS = [
  'sandbox_api_acme_12345678',
  'sandbox_pk_shop_12345678',
  'sandbox_sk_shop_12345678',
  'mtok_shop_12345678',
  'a-test-secret-of-some-length',
];
const LIVE_KEYS = ['live_sk_solo_secret_key'];

export function allSecrets(): { label: string; value: string }[] {
  const f = DEFAULT_FIXTURES;
  const out: { label: string; value: string }[] = [{ label: 'jwtSecret', value: f.jwtSecret }];
  for (const m of f.marketplaces)
    out.push(
      { label: `api key ${m.marketplaceId}`, value: m.apiKey },
      { label: `platform JWT ${m.marketplaceId}`, value: jwt('marketplace', m.marketplaceId) },
    );
  for (const m of f.merchants) {
    out.push(
      { label: `public key ${m.merchantId}`, value: m.publicKey },
      { label: `secret key ${m.merchantId}`, value: m.secretKey },
      { label: `merchant JWT ${m.merchantId}`, value: jwt('merchant', m.merchantId) },
    );
    if (m.merchantToken) out.push({ label: `merchant token ${m.merchantId}`, value: m.merchantToken });
  }
  for (const c of f.customers)
    out.push({ label: `customer JWT ${c.customerId}`, value: jwt('customer', c.customerId) });
  for (const t of f.checkoutTokens ?? []) out.push({ label: 'checkout token', value: t.token });
  for (const [name, number] of Object.entries(CARDS)) {
    out.push({ label: `card ${name}`, value: number });
    // the same card as people write it
    out.push({ label: `card ${name} spaced`, value: number.replace(/(\d{4})(?=\d)/g, '$1 ') });
    out.push({ label: `card ${name} dashed`, value: number.replace(/(\d{4})(?=\d)/g, '$1-') });
  }
  for (const email of CUSTOMER_EMAILS) out.push({ label: 'customer e-mail', value: email });
  out.push({ label: 'checkout token in a query', value: QUERY_TOKEN });
  out.push({ label: 'a card glued to a word (pan_...)', value: '5555555555554444' });
  out.push({ label: 'CVC', value: `"${TEST_CVC}"` });
  for (const [name, token] of Object.entries(OPERATOR_TOKENS))
    out.push({ label: `operator token ${name}`, value: token });
  for (const v of [...CLI_FIXTURE_SECRETS, ...LIVE_KEYS]) out.push({ label: v.slice(0, 12), value: v });
  return out;
}
