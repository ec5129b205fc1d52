import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeIssues, idOf } from '../contract/zod-helpers.js';

/** A key's rule, stated as the error says it (README repeats it). */
const key = (prefix: string) =>
  z
    .string()
    .regex(
      new RegExp(`^${prefix}[A-Za-z0-9_-]{8,128}$`),
      `expected ${prefix} followed by 8-128 characters of A-Z a-z 0-9 _ -`,
    );

/** The fixture file of `paybridge sandbox --fixtures FILE` (format documented in README). */
const fixturesSchema = z
  .strictObject({
    jwtSecret: z.string().min(16, 'expected at least 16 characters'),
    marketplaces: z.array(
      z.strictObject({
        marketplaceId: idOf('marketplace'),
        apiKey: key('sandbox_api_'),
        name: z.string().optional(),
        /**
         * The gateway operator's marketplace: its key may act for every merchant of the sandbox, as the
         * embedded gateway's service key (Query Customers, Get Payment Source for merchant-key callers).
         */
        operator: z.boolean().optional(),
      }),
    ),
    merchants: z.array(
      z.strictObject({
        merchantId: idOf('merchant'),
        marketplaceId: idOf('marketplace').nullable(),
        name: z.string().min(1),
        publicKey: key('sandbox_pk_'),
        secretKey: key('sandbox_sk_'),
        merchantToken: z.string().min(8).max(128).nullable().optional(),
        /** Card surcharge the merchant passes on, in basis points of the amount (default 0: none). */
        surchargeRateBps: z.int().min(0).max(1_000).optional(),
      }),
    ),
    customers: z.array(
      z.strictObject({ customerId: idOf('customer'), merchantId: idOf('merchant'), email: z.email() }),
    ),
    checkoutTokens: z
      .array(
        z.strictObject({
          token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'expected 16-128 URL-safe characters'),
          merchantId: idOf('merchant'),
          customerId: idOf('customer').nullable(),
        }),
      )
      .optional(),
  })
  .superRefine((f, ctx) => {
    const seen = new Set<string>();
    const unique = (value: string, path: (string | number)[]) => {
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path, message: `duplicate value ${value}` });
      seen.add(value);
    };
    const marketplaces = new Set(f.marketplaces.map((m) => m.marketplaceId));
    f.marketplaces.forEach((m, i) => {
      unique(m.marketplaceId, ['marketplaces', i, 'marketplaceId']);
      unique(m.apiKey, ['marketplaces', i, 'apiKey']);
    });
    const merchants = new Map(f.merchants.map((m) => [m.merchantId, m]));
    f.merchants.forEach((m, i) => {
      unique(m.merchantId, ['merchants', i, 'merchantId']);
      unique(m.publicKey, ['merchants', i, 'publicKey']);
      unique(m.secretKey, ['merchants', i, 'secretKey']);
      if (m.merchantToken) unique(m.merchantToken, ['merchants', i, 'merchantToken']);
      if (m.marketplaceId !== null && !marketplaces.has(m.marketplaceId))
        ctx.addIssue({ code: 'custom', path: ['merchants', i, 'marketplaceId'], message: 'unknown marketplace' });
    });
    const customers = new Map(f.customers.map((c) => [c.customerId, c]));
    f.customers.forEach((c, i) => {
      unique(c.customerId, ['customers', i, 'customerId']);
      if (!merchants.has(c.merchantId))
        ctx.addIssue({ code: 'custom', path: ['customers', i, 'merchantId'], message: 'unknown merchant' });
    });
    f.checkoutTokens?.forEach((t, i) => {
      unique(t.token, ['checkoutTokens', i, 'token']);
      if (!merchants.has(t.merchantId))
        ctx.addIssue({ code: 'custom', path: ['checkoutTokens', i, 'merchantId'], message: 'unknown merchant' });
      if (t.customerId !== null && customers.get(t.customerId)?.merchantId !== t.merchantId)
        ctx.addIssue({
          code: 'custom',
          path: ['checkoutTokens', i, 'customerId'],
          message: 'not a customer of that merchant',
        });
    });
  });

export type Fixtures = z.output<typeof fixturesSchema>;

/**
 * The built-in fixtures: one marketplace with two sub-merchants, two stand-alone merchants, a customer
 * for each merchant. Deterministic, so README examples and tests can name them.
 */
export const DEFAULT_FIXTURES: Fixtures = {
  jwtSecret: 'sandbox-jwt-secret-change-me-0123456789',
  marketplaces: [
    { marketplaceId: 'mktp_demo', apiKey: 'sandbox_api_demo_marketplace_key', name: 'Demo Marketplace' },
    {
      marketplaceId: 'mktp_operator',
      apiKey: 'sandbox_api_operator_service_key',
      name: 'Gateway operator',
      operator: true,
    },
  ],
  merchants: [
    {
      merchantId: 'mcht_alpha',
      marketplaceId: 'mktp_demo',
      name: 'Alpha Outfitters',
      publicKey: 'sandbox_pk_alpha_public_key',
      secretKey: 'sandbox_sk_alpha_secret_key',
      merchantToken: 'mtok_alpha_merchant_token',
    },
    {
      merchantId: 'mcht_beta',
      marketplaceId: 'mktp_demo',
      name: 'Beta Books',
      publicKey: 'sandbox_pk_beta_public_key',
      secretKey: 'sandbox_sk_beta_secret_key',
      merchantToken: 'mtok_beta_merchant_token',
    },
    {
      merchantId: 'mcht_solo',
      marketplaceId: null,
      name: 'Solo Coffee',
      publicKey: 'sandbox_pk_solo_public_key',
      secretKey: 'sandbox_sk_solo_secret_key',
      merchantToken: 'mtok_solo_merchant_token',
    },
    {
      merchantId: 'mcht_other',
      marketplaceId: null,
      name: 'Other Hardware',
      publicKey: 'sandbox_pk_other_public_key',
      secretKey: 'sandbox_sk_other_secret_key',
      merchantToken: null,
      surchargeRateBps: 150,
    },
  ],
  customers: [
    { customerId: 'cust_alice', merchantId: 'mcht_solo', email: 'alice@example.com' },
    { customerId: 'cust_amy', merchantId: 'mcht_alpha', email: 'amy@example.com' },
    { customerId: 'cust_bob', merchantId: 'mcht_beta', email: 'bob@example.com' },
    { customerId: 'cust_olga', merchantId: 'mcht_other', email: 'olga@example.com' },
  ],
  checkoutTokens: [{ token: 'chk_solo_alice_checkout_token', merchantId: 'mcht_solo', customerId: 'cust_alice' }],
};

/** Reads and validates a fixture file; a bad file is an Error naming the file and the field. */
export function loadFixtures(file: string): Fixtures {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`fixtures ${file}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = fixturesSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`fixtures ${file}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}
