/**
 * The earlier generation's credentials: one header per credential type (legacy-api.md section 1).
 * Checked in two steps so the legacy face fails in the same order as the gateway: the header's form
 * first (before the path and body), the credential itself after the body.
 */
import { looksLikeJwt, peekJwtKind, type JwtKind } from '../../contract/jwt.js';
import { PaybridgeError } from '../../errors.js';
import { authenticate, type Principal, type PrincipalKind } from '../access.js';
import type { Req } from '../http.js';
import type { Store } from '../store.js';

interface HeaderRule {
  name: string;
  principal: PrincipalKind | 'merchantToken';
  /** What the value must look like; a mismatch is a 401 naming the header. */
  form: (value: string) => boolean;
  describe: string;
}

const key = (kind: string) => {
  const form = new RegExp(`^(sandbox|live)_${kind}_[A-Za-z0-9_-]+$`);
  return (v: string) => form.test(v);
};
const jwt = (kind: JwtKind) => (v: string) => looksLikeJwt(v) && peekJwtKind(v) === kind;
const opaque = (v: string) => /^[A-Za-z0-9_-]{8,256}$/.test(v) && !/^(sandbox|live)_/.test(v);

const RULES: Record<string, HeaderRule> = {
  'limepay-publickey': { name: 'Limepay-PublicKey', principal: 'publicKey', form: key('pk'), describe: 'a public key' },
  'limepay-secretkey': { name: 'Limepay-SecretKey', principal: 'secretKey', form: key('sk'), describe: 'a secret key' },
  'limepay-token': {
    name: 'Limepay-Token',
    principal: 'marketplaceKey',
    form: key('api'),
    describe: 'a platform API key',
  },
  'limepay-customerjwt': {
    name: 'Limepay-CustomerJwt',
    principal: 'customerJwt',
    form: jwt('customer'),
    describe: 'a customer JWT',
  },
  'limepay-merchantjwt': {
    name: 'Limepay-MerchantJwt',
    principal: 'merchantJwt',
    form: jwt('merchant'),
    describe: 'a merchant JWT',
  },
  'limepay-platformjwt': {
    name: 'Limepay-PlatformJwt',
    principal: 'marketplaceJwt',
    form: jwt('marketplace'),
    describe: 'a platform JWT',
  },
  'limepay-checkouttoken': {
    name: 'Limepay-CheckoutToken',
    principal: 'checkoutToken',
    form: opaque,
    describe: 'a checkout token',
  },
  'limepay-merchanttoken': {
    name: 'Limepay-MerchantToken',
    principal: 'merchantToken',
    form: opaque,
    describe: 'a merchant token',
  },
};

const CONTEXT_HEADERS = ['marketplace-id', 'merchant-id', 'customer-id'];

export interface LegacyCredential {
  rule: HeaderRule;
  value: string;
}

/**
 * Exactly one legacy credential header, of the right form. None: 401; two, a repeated one, or one
 * beside `Authorization`: 400 invalid_credentials. Current context headers are refused: on a legacy
 * call the path is the only source of context.
 */
export function legacyCredential(req: Req): LegacyCredential {
  const found: string[] = [];
  const raw = req.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (RULES[name]) found.push(name);
  }
  if (found.length === 0) {
    const scheme = /^\s*(\S+)/.exec(req.headers.authorization ?? '')?.[1];
    if (scheme !== undefined && scheme.toLowerCase() !== 'bearer')
      throw new PaybridgeError(
        'unsupported_credentials',
        `Authorization: the ${scheme} scheme belongs to an older generation; use one Limepay-* credential header`,
      );
    throw new PaybridgeError('missing_credentials', 'one Limepay-* credential header is required');
  }
  const first = RULES[found[0]!]!;
  if (found.length > 1) {
    const names = [...new Set(found.map((n) => RULES[n]!.name))].sort().join(', ');
    throw new PaybridgeError(
      'invalid_credentials',
      `${names}: exactly one credential header is allowed, got ${found.length}`,
    );
  }
  if (req.headers.authorization !== undefined)
    throw new PaybridgeError(
      'invalid_credentials',
      `${first.name}: a legacy credential header cannot be combined with Authorization`,
    );
  for (const name of CONTEXT_HEADERS)
    if (req.headers[name] !== undefined)
      throw new PaybridgeError(
        'invalid_request',
        `${name.replace(/(^|-)(\w)/g, (_m, d: string, c: string) => d + c.toUpperCase())}: context headers are not accepted on legacy calls; the path names the context`,
      );
  const value = (req.headers[found[0]!] as string).trim();
  if (!first.form(value))
    throw new PaybridgeError('unauthenticated', `${first.name}: the value is not ${first.describe}`);
  return { rule: first, value };
}

/** The principal behind the credential: a merchant token acts as its merchant's public key. */
export async function legacyPrincipal(store: Store, credential: LegacyCredential): Promise<Principal> {
  const { rule, value } = credential;
  if (rule.principal === 'merchantToken') {
    const merchantId = store.merchantTokens.get(value);
    if (!merchantId) throw new PaybridgeError('unauthenticated', `${rule.name}: the merchant token is not known`);
    return { kind: 'publicKey', merchantId };
  }
  const principal = await authenticate(store, value);
  if (principal.kind !== rule.principal)
    throw new PaybridgeError('unauthenticated', `${rule.name}: the value is not ${rule.describe}`);
  return principal;
}
