/**
 * Calls the current API refuses to a merchant key (its security lists: Query Customers takes no merchant
 * secret key, Get Payment Source none of a merchant's keys) made with the operator's marketplace API
 * key (`serviceKey`), scoped with `Merchant-Id` to the merchant the caller's own key belongs to: that
 * merchant is asked of the current API with the caller's key (Query Merchants: a merchant key sees
 * itself) and remembered. A merchant the caller merely names (a path id, a filter) is never trusted: a
 * key of merchant A cannot read merchant B's customers through the marketplace key.
 */
import { LRUCache } from 'lru-cache';
import { CURRENT_ROUTES } from '../contract/current-routes.js';
import { PaybridgeError } from '../errors.js';
import type { CurrentRequest, CurrentResponse } from './messages.js';

type Send = (current: CurrentRequest) => Promise<CurrentResponse>;

const MERCHANT_KEY = /^(sandbox|live)_(pk|sk)_/;

/** The operations whose security list leaves out merchant keys, as [method, path pattern] (current-routes.ts). */
const REFUSING = CURRENT_ROUTES.filter((r) => r.refusesMerchantKeys).map(
  (r) => [r.method, new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/?]+')}(\\?|$)`)] as const,
);

/** True when the current API refuses this call to a merchant key. */
const refusesMerchantKeys = (method: string, path: string): boolean =>
  REFUSING.some(([m, p]) => m === method && p.test(path));

/** The merchant id of one item of a merchant list, bare or wrapped by its kind (`{ServiceProviderMerchant: {...}}`). */
export function merchantIdOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const direct = (item as { merchantId?: unknown }).merchantId;
  if (typeof direct === 'string') return direct;
  const inner = Object.values(item)[0] as { merchantId?: unknown } | undefined;
  return typeof inner?.merchantId === 'string' ? inner.merchantId : undefined;
}

export interface ServiceScopeOptions {
  /** The operator's marketplace API key; none: such a call is a legacy 401 naming the setting. */
  serviceKey?: string | undefined;
}

export function createServiceScope(options: ServiceScopeOptions) {
  const merchants = new LRUCache<string, string>({ max: 10_000, ttl: 5 * 60_000 });

  /** The merchant a merchant key belongs to, asked once with that key and remembered. */
  async function merchantOf(key: string, send: Send): Promise<string> {
    const known = merchants.get(key);
    if (known !== undefined) return known;
    const answer = await send({
      method: 'GET',
      path: '/merchants?limit=2',
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
    });
    if (answer.status === 401 || answer.status === 403)
      throw new PaybridgeError('unauthenticated', 'the key is not valid (Query Merchants with it was refused)');
    const items = Array.isArray(answer.body) ? answer.body : (answer.body as { items?: unknown } | undefined)?.items;
    const ids = answer.status === 200 && Array.isArray(items) ? items.map(merchantIdOf) : [];
    const merchant = ids.length === 1 ? ids[0] : undefined;
    if (merchant === undefined)
      throw new PaybridgeError(
        'upstream_error',
        `the merchant this key belongs to could not be established (Query Merchants answered ${answer.status})`,
      );
    merchants.set(key, merchant);
    return merchant;
  }

  /** The call as it must be made: unchanged, or with the service key scoped to the caller's own merchant. */
  async function scoped(request: CurrentRequest, send: Send): Promise<CurrentRequest> {
    const bearer = request.headers.authorization?.slice('Bearer '.length) ?? '';
    if (!MERCHANT_KEY.test(bearer) || !refusesMerchantKeys(request.method, request.path)) return request;
    // the caller's own merchant first (asked with its own key): a merchant it merely names is refused either way
    const merchantId = await merchantOf(bearer, send);
    const query = new URLSearchParams(request.path.split('?')[1] ?? '');
    const named = [request.headers['merchant-id'], ...query.getAll('merchantId')].filter((m) => m !== undefined);
    const other = named.find((m) => m !== merchantId);
    if (other !== undefined)
      throw new PaybridgeError('forbidden', `merchantId: the credentials may not act for merchant ${other}`);
    const environment = bearer.slice(0, bearer.indexOf('_'));
    if (!options.serviceKey || !options.serviceKey.startsWith(`${environment}_`))
      throw new PaybridgeError(
        'unauthenticated',
        `serviceKey: ${request.method} ${request.path.split('?')[0]} takes no merchant key on the current API; the gateway makes it with the operator's marketplace API key, and none is configured for ${environment} (serviceKey, --service-key, PAYBRIDGE_SERVICE_KEY)`,
      );
    return {
      method: request.method,
      path: request.path,
      body: request.body,
      headers: { ...request.headers, authorization: `Bearer ${options.serviceKey}`, 'merchant-id': merchantId },
    };
  }

  /** A send that makes each call the current API refuses to a merchant key with the scoped service key. */
  const sendScoped =
    (send: Send): Send =>
    (request) =>
      refusesMerchantKeys(request.method, request.path) ? scoped(request, send).then(send) : send(request);

  return { scoped, sendScoped };
}
