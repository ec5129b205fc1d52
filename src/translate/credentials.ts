/**
 * Legacy credential headers to `Authorization: Bearer` (legacy-api.md section 1), and merchant tokens
 * resolved to their merchant's public key through the operator's table and Get Merchant, cached.
 */
import { LRUCache } from 'lru-cache';
import { looksLikeJwt, peekJwtKind, type JwtKind } from '../contract/jwt.js';
import { PaybridgeError } from '../errors.js';

export type Headers = Readonly<Record<string, string | string[] | undefined>>;

interface HeaderRule {
  /** The header as legacy-api.md spells it. */
  name: string;
  form: (value: string) => boolean;
  describe: string;
  merchantToken?: true;
}

const KEY_FORMS = {
  pk: /^(sandbox|live)_pk_[A-Za-z0-9_-]+$/,
  sk: /^(sandbox|live)_sk_[A-Za-z0-9_-]+$/,
  api: /^(sandbox|live)_api_[A-Za-z0-9_-]+$/,
};
const jwt = (kind: JwtKind) => (v: string) => looksLikeJwt(v) && peekJwtKind(v) === kind;
const opaque = (v: string) => /^[A-Za-z0-9_-]{8,256}$/.test(v) && !/^(sandbox|live)_/.test(v);

/**
 * [lower-case header name, rule] pairs. An array, not a Map: the hot path walks it on every request
 * (two or three times), and each walk of a Map allocates an entry array per header (about 0.8 KiB a
 * legacy request, measured with `ALLOC=1 node test/bench/profile.mjs legacy`).
 */
export const LEGACY_CREDENTIAL_HEADERS: readonly (readonly [string, HeaderRule])[] = [
  [
    'limepay-publickey',
    { name: 'Limepay-PublicKey', form: (v: string) => KEY_FORMS.pk.test(v), describe: 'a public key' },
  ],
  [
    'limepay-secretkey',
    { name: 'Limepay-SecretKey', form: (v: string) => KEY_FORMS.sk.test(v), describe: 'a secret key' },
  ],
  [
    'limepay-token',
    { name: 'Limepay-Token', form: (v: string) => KEY_FORMS.api.test(v), describe: 'a platform API key' },
  ],
  ['limepay-customerjwt', { name: 'Limepay-CustomerJwt', form: jwt('customer'), describe: 'a customer JWT' }],
  ['limepay-merchantjwt', { name: 'Limepay-MerchantJwt', form: jwt('merchant'), describe: 'a merchant JWT' }],
  ['limepay-platformjwt', { name: 'Limepay-PlatformJwt', form: jwt('marketplace'), describe: 'a platform JWT' }],
  ['limepay-checkouttoken', { name: 'Limepay-CheckoutToken', form: opaque, describe: 'a checkout token' }],
  [
    'limepay-merchanttoken',
    { name: 'Limepay-MerchantToken', form: opaque, describe: 'a merchant token', merchantToken: true },
  ],
];

/**
 * The forms of a Bearer credential (current-api.md "Authentication"): a key of either environment
 * (`sandbox_pk_`, `_sk_`, `_api_`), a JWT (three base64url parts, the first a JSON header: `eyJ`), or an
 * opaque checkout auth token that is not a key. Anything else is not one credential of a documented form.
 */
export function isBearerForm(value: string): boolean {
  return (
    KEY_FORMS.sk.test(value) ||
    KEY_FORMS.pk.test(value) ||
    KEY_FORMS.api.test(value) ||
    (value.startsWith('eyJ') && looksLikeJwt(value)) ||
    opaque(value)
  );
}

/** The 401 for a legacy credential header whose value is not of its header's form (legacy-api.md section 1). */
export function wrongForm(rule: HeaderRule): PaybridgeError {
  return new PaybridgeError('unauthenticated', `${rule.name}: the value is not ${rule.describe}`);
}

/** Context headers of the current API ([lower-case, as spelled]); on a legacy call the path is the only source of context. */
const CONTEXT_HEADERS: readonly (readonly [string, string])[] = [
  ['marketplace-id', 'Marketplace-Id'],
  ['merchant-id', 'Merchant-Id'],
  ['customer-id', 'Customer-Id'],
];

/**
 * The scheme of an `Authorization` header that is neither a legacy credential nor `Bearer`:
 * `Basic` is the generation before the legacy one (legacy-api.md section 0). Undefined for Bearer or none.
 */
export function foreignScheme(headers: Headers): string | undefined {
  const auth = headers.authorization;
  if (auth === undefined) return undefined;
  const first = Array.isArray(auth) ? (auth[0] ?? '') : auth;
  const scheme = /^\s*(\S+)/.exec(first)?.[1] ?? '';
  return scheme.toLowerCase() === 'bearer' ? undefined : scheme || '(empty)';
}

const RULES: ReadonlyMap<string, HeaderRule> = new Map(LEGACY_CREDENTIAL_HEADERS);

/** Whether a header name (lower case) may be a legacy credential's: they all start `limepay-`. */
const limepayName = (name: string): boolean => name.startsWith('limepay-');

/** True when the request carries a legacy credential header (header names in lower case). */
export function isLegacyRequest(headers: Headers): boolean {
  for (const name in headers) if (limepayName(name) && RULES.has(name) && headers[name] !== undefined) return true;
  return false;
}

/**
 * The legacy credential headers of a request: how many values they hold (a repeated header counts
 * each), and the first one holding a value: its rule and its (first) value, trimmed. One walk over
 * the request's own header names (a handful) rather than a look-up of every credential header name
 * in a record whose shape differs from client to client (each a megamorphic load, three walks a
 * request).
 */
export function legacyCredentialHeaders(headers: Headers): {
  count: number;
  first: { rule: HeaderRule; value: string } | undefined;
} {
  let count = 0;
  let first: { rule: HeaderRule; value: string } | undefined;
  for (const name in headers) {
    if (!limepayName(name)) continue;
    const rule = RULES.get(name);
    const value = headers[name];
    if (rule === undefined || value === undefined) continue;
    const list = Array.isArray(value);
    const values = list ? value.length : 1;
    if (values > 0 && first === undefined) first = { rule, value: (list ? value[0]! : value).trim() };
    count += values;
  }
  return { count, first };
}

/**
 * The 400 for more than one legacy credential value (`count`, repeated headers counted per value):
 * the headers named once each, sorted. Built only on that path: the walks above allocate nothing.
 */
export function tooManyCredentials(headers: Headers, count: number): PaybridgeError {
  const names = new Set<string>();
  for (const [header, rule] of LEGACY_CREDENTIAL_HEADERS) {
    const value = headers[header];
    if (value !== undefined && (!Array.isArray(value) || value.length > 0)) names.add(rule.name);
  }
  return new PaybridgeError(
    'invalid_credentials',
    `${[...names].sort().join(', ')}: exactly one credential header is allowed, got ${count}`,
  );
}

/** The 400 for a legacy credential header sent beside Authorization (one credential per request). */
export function besideAuthorization(rule: HeaderRule): PaybridgeError {
  return new PaybridgeError(
    'invalid_credentials',
    `${rule.name}: a legacy credential header cannot be combined with Authorization`,
  );
}

export interface LegacyCredential {
  header: string;
  /** The credential to send as Bearer, or the merchant token still to resolve. */
  value: string;
  merchantToken: boolean;
}

/**
 * The one legacy credential of a request. None: 401 missing_credentials. Two, a repeated one, or one
 * beside Authorization: 400 invalid_credentials. A value of the wrong form for its header: 401.
 * Context headers sent by the client: 400 (the path names the context).
 */
export function legacyCredential(headers: Headers): LegacyCredential {
  const { count, first } = legacyCredentialHeaders(headers);
  if (!first) throw new PaybridgeError('missing_credentials', 'one Limepay-* credential header is required');
  if (count > 1) throw tooManyCredentials(headers, count);
  const { rule, value } = first;
  if (headers.authorization !== undefined) throw besideAuthorization(rule);
  for (const [context, spelled] of CONTEXT_HEADERS)
    if (headers[context] !== undefined)
      throw new PaybridgeError(
        'invalid_request',
        `${spelled}: context headers are not accepted on legacy calls; the path names the context`,
      );
  if (!rule.form(value)) throw wrongForm(rule);
  return { header: rule.name, value, merchantToken: rule.merchantToken === true };
}

export interface MerchantKeyOptions {
  /** The operator's table: merchant token -> merchant id. */
  tokens: Readonly<Record<string, string>>;
  /** Reads a merchant's public key (Get Merchant with the gateway's marketplace API key). */
  lookup: (merchantId: string) => Promise<string>;
  /** Cache bounds: entries (default 10,000) and time to live in ms (default 5 minutes). */
  max?: number;
  ttlMs?: number;
}

/** Merchant token -> public key, cached with a bound and a TTL; concurrent look-ups of one merchant share one call. */
export class MerchantKeyResolver {
  private readonly tokens: ReadonlyMap<string, string>;
  private readonly cache: LRUCache<string, string>;
  /** Get Merchant calls made (cache misses), for metrics and tests. */
  lookups = 0;

  constructor(options: MerchantKeyOptions) {
    this.tokens = new Map(Object.entries(options.tokens));
    this.cache = new LRUCache<string, string>({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 5 * 60_000,
      fetchMethod: async (merchantId) => {
        this.lookups++;
        return options.lookup(merchantId);
      },
    });
  }

  async publicKey(token: string): Promise<string> {
    const merchantId = this.tokens.get(token);
    if (merchantId === undefined)
      throw new PaybridgeError('unauthenticated', 'Limepay-MerchantToken: the merchant token is not known');
    const key = await this.cache.fetch(merchantId);
    if (key === undefined) throw new PaybridgeError('upstream_error', `Get Merchant ${merchantId} gave no public key`);
    return key;
  }
}
