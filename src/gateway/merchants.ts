/**
 * The merchant a request's credential belongs to, for modes set per merchant: a merchant token's by
 * the operator's table, a merchant JWT's by its subject, a merchant key's by asking the current API
 * which merchants that key sees (Query Merchants: a merchant credential sees itself), cached. A
 * marketplace key, a customer's credential or a key that sees several merchants belongs to none.
 */
import { LRUCache } from 'lru-cache';
import { decodeJwt } from 'jose';
import { peekJwtKind } from '../contract/jwt.js';
import type { CurrentRequest, CurrentResponse } from '../translate/index.js';
import { merchantIdOf } from '../translate/service-key.js';

export interface MerchantsDeps {
  /** The operator's merchant-token table. */
  merchantTokens: Readonly<Record<string, string>>;
  /** One current call with the credential itself (the current upstream of its environment), under the asking request's deadline. */
  call: (current: CurrentRequest, deadline: number) => Promise<CurrentResponse>;
}

export function createMerchants(deps: MerchantsDeps) {
  // '': the credential belongs to no single merchant
  const seen = new LRUCache<string, string>({ max: 10_000, ttl: 5 * 60_000 });

  /** What is known without a call: the merchant, null for none, undefined when the current API must be asked. */
  function known(credential: string | undefined): string | null | undefined {
    if (credential === undefined) return null;
    const token = deps.merchantTokens[credential];
    if (token !== undefined) return token;
    if (peekJwtKind(credential) === 'merchant') {
      const sub = decodeJwt(credential).sub;
      return typeof sub === 'string' ? sub : null;
    }
    if (!/^(sandbox|live)_(pk|sk)_/.test(credential)) return null;
    const merchant = seen.get(credential);
    return merchant === undefined ? undefined : merchant || null;
  }

  /** The merchant of a merchant key, asked of the current API once and remembered; null when it sees none or several, or the call fails. */
  async function resolve(credential: string, deadline: number): Promise<string | null> {
    const cached = known(credential);
    if (cached !== undefined) return cached;
    let merchant: string | null;
    try {
      const answer = await deps.call(
        {
          method: 'GET',
          path: '/merchants?limit=2',
          headers: { authorization: `Bearer ${credential}`, accept: 'application/json' },
        },
        deadline,
      );
      const body = answer.body as { items?: unknown[] } | unknown[] | undefined;
      const items = Array.isArray(body) ? body : body?.items;
      const ids = answer.status === 200 && Array.isArray(items) ? items.map(merchantIdOf) : [];
      merchant = ids.length === 1 && ids[0] !== undefined ? ids[0] : null;
    } catch {
      // not remembered: the next request asks again
      return null;
    }
    seen.set(credential, merchant ?? '');
    return merchant;
  }

  return { known, resolve };
}
