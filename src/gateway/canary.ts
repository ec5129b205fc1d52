/**
 * A percentage canary (`canary:10%`): which of a route's requests the translation serves, chosen by a
 * stable hash of what the request is about (`canaryKey`), so that one order's calls (its pay and the
 * 3DS second call, its reads) take one path, and a share raised from 10% to 50% keeps the orders it
 * already served. The rest are answered by the legacy upstream and compared as in shadow mode.
 */
import type { CanaryKey } from '../config.js';
import { parseJsonBody } from '../contract/json.js';
import { paramsOf, soleCredential, type Decision } from './requests.js';

/** Body fields that name what a request is about, by key kind, in order of preference. */
const BODY_FIELDS: Readonly<Record<Exclude<CanaryKey, 'merchant' | 'request'>, readonly string[]>> = {
  // a refund names its transaction; a create has no order id yet, so its own reference stands for it
  order: ['transactionId', 'internalOrderId'],
  customer: ['customerId', 'internalCustomerId'],
};

/** Path parameters (and query names) that name what a request is about, by key kind. */
const PATH_PARAMS: Readonly<Record<Exclude<CanaryKey, 'merchant' | 'request'>, readonly string[]>> = {
  order: ['merchantOrderId', 'transactionId'],
  customer: ['customerId'],
};

/** What a request's path or query names of this kind (an order or transaction id, a customer id), if anything. */
export function keyFromPath(kind: CanaryKey, decision: Decision, url: string): string | undefined {
  if (kind === 'request' || kind === 'merchant' || !decision.match) return undefined;
  const params = paramsOf(decision.match);
  for (const name of PATH_PARAMS[kind]) if (params[name]) return params[name];
  const q = url.indexOf('?');
  if (q >= 0) {
    const query = new URLSearchParams(url.slice(q + 1));
    for (const name of PATH_PARAMS[kind]) {
      const value = query.get(name);
      if (value) return value;
    }
  }
  return undefined;
}

/** A body field naming what the request is about, when the body is a JSON object that has one. */
export function keyFromBody(kind: CanaryKey, body: string | undefined): string | undefined {
  if (kind === 'request' || kind === 'merchant' || body === undefined) return undefined;
  let value: unknown;
  try {
    value = parseJsonBody(body);
  } catch {
    // the translation refuses it with a 400 naming the body; here it only has no key
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  for (const name of BODY_FIELDS[kind]) {
    const field = (value as Record<string, unknown>)[name];
    if ((typeof field === 'string' && field !== '') || typeof field === 'number') return String(field);
  }
  return undefined;
}

/** The merchant a request belongs to: a platform call's sub-merchant, the merchant known from the credential, else the credential itself. */
export function merchantKey(decision: Decision): string | undefined {
  const sub = decision.match ? paramsOf(decision.match).merchantId : undefined;
  if (sub) return sub;
  if (decision.merchant) return decision.merchant;
  try {
    return soleCredential(decision.headers);
  } catch {
    return undefined;
  }
}

/** FNV-1a over a short text, its bits then mixed (murmur3's finaliser): ids that differ in a last character spread evenly. */
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * Whether the translation serves this request of a `canary:percent%` route: the key's bucket (one of
 * 10,000, so shares to a hundredth of a percent) under the share; no key (`request`) draws at random.
 */
export function servedByTranslation(percent: number, key: string | undefined): boolean {
  const bucket = key === undefined ? Math.floor(Math.random() * 10_000) : stableHash(key) % 10_000;
  return bucket < Math.round(percent * 100);
}
