import type { z } from 'zod';
import { request, type Dispatcher } from 'undici';
import { hasIdForm } from '../contract/ids.js';
import type { merchantResponse } from '../contract/current-responses.js';
import { PaybridgeError } from '../errors.js';

type CurrentMerchant = z.output<typeof merchantResponse>;

const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface MerchantLookupOptions {
  /** Base URL of the current API. */
  currentUrl: string;
  /** The gateway's own marketplace API key (`sandbox_api_...` / `live_api_...`). */
  serviceKey: string;
  dispatcher?: Dispatcher;
  /** The most one Get Merchant may take, connecting and reading included (default 5 s). */
  timeoutMs?: number;
}

/**
 * Get Merchant with the gateway's marketplace API key: the public key of a merchant named by the
 * operator's merchant-token table. A merchant the key cannot read is a 401 for the legacy caller.
 */
export function merchantKeyLookup(options: MerchantLookupOptions): (merchantId: string) => Promise<string> {
  const base = options.currentUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 5_000;
  return async (merchantId) => {
    if (!hasIdForm('merchant', merchantId))
      throw new PaybridgeError(
        'unauthenticated',
        'Limepay-MerchantToken: the merchant token table names an invalid merchant id',
      );
    let res: Dispatcher.ResponseData;
    try {
      res = await request(`${base}/merchants/${encodeURIComponent(merchantId)}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${options.serviceKey}`, accept: 'application/json' },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
    } catch (err) {
      // out of time (its own timeouts, which the gateway sets to the request's) is a 504, as any upstream call's
      const timedOut = TIMEOUTS.has((err as { code?: string }).code ?? '') || (err as Error).name === 'TimeoutError';
      throw new PaybridgeError(
        timedOut ? 'upstream_timeout' : 'upstream_error',
        `Get Merchant for a merchant token ${timedOut ? 'timed out' : 'failed'}: ${(err as Error).message}`,
      );
    }
    // the merchant inside its kind wrapper (reference: ServiceProviderMerchant)
    const body = (await res.body.json().catch(() => undefined)) as Partial<CurrentMerchant> | undefined;
    const publicKey = body?.ServiceProviderMerchant?.publicKey;
    if (res.statusCode === 200 && typeof publicKey === 'string') return publicKey;
    if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 404)
      throw new PaybridgeError(
        'unauthenticated',
        'Limepay-MerchantToken: the merchant of this token cannot be read with the service key',
      );
    throw new PaybridgeError('upstream_error', `Get Merchant for a merchant token answered ${res.statusCode}`);
  };
}
