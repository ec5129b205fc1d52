/** Credentials and context of a current-face request: one Bearer header, optional context headers. */
import { hasIdForm, ID_PREFIX, type IdKind } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import {
  authenticate,
  requireCapability,
  resolveActor,
  type Actor,
  type Capability,
  type Principal,
} from '../access.js';
import { singleHeader, type Req } from '../http.js';
import type { Store } from '../store.js';

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;

/** The principal behind `Authorization: Bearer`, or 401. A repeated Authorization header is a 400. */
export async function principalOf(store: Store, req: Req): Promise<Principal> {
  let count = 0;
  const raw = req.raw.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') count++;
  if (count > 1) throw new PaybridgeError('invalid_credentials', 'Authorization: the header is repeated');
  const header = singleHeader(req, 'authorization');
  if (!header) throw new PaybridgeError('unauthenticated', 'Authorization: a Bearer credential is required');
  const match = BEARER.exec(header);
  if (!match) throw new PaybridgeError('unauthenticated', 'Authorization: expected the Bearer scheme');
  return authenticate(store, match[1]!);
}

function contextHeader(req: Req, name: string, kind: IdKind): string | undefined {
  const value = singleHeader(req, name.toLowerCase());
  if (value === undefined) return undefined;
  if (!hasIdForm(kind, value))
    throw new PaybridgeError('invalid_request', `${name}: expected an id with prefix ${ID_PREFIX[kind]}`);
  return value;
}

/** The actor of a request for one capability: 403 when the credential type may not, or the context is not its own. */
export function actorFor(store: Store, req: Req, principal: Principal, capability: Capability): Actor {
  requireCapability(principal, capability);
  return resolveActor(store, principal, {
    marketplaceId: contextHeader(req, 'Marketplace-Id', 'marketplace'),
    merchantId: contextHeader(req, 'Merchant-Id', 'merchant'),
    customerId: contextHeader(req, 'Customer-Id', 'customer'),
  });
}

/** Authenticates and authorises in one step, for calls whose capability does not depend on the body. */
export async function authorise(store: Store, req: Req, capability: Capability): Promise<Actor> {
  return actorFor(store, req, await principalOf(store, req), capability);
}

/**
 * As authorise, for an operation whose security list (reference) leaves out some credential types:
 * those are a 403 naming the operation (Query Customers takes no merchant secret key; Get Payment
 * Source only a marketplace API key or a customer's own credential).
 */
export async function authoriseExcept(
  store: Store,
  req: Req,
  capability: Capability,
  refused: readonly Principal['kind'][],
  operation: string,
): Promise<Actor> {
  const principal = await principalOf(store, req);
  if (refused.includes(principal.kind))
    throw new PaybridgeError(
      'forbidden',
      `${operation} does not take this credential type (${principal.kind}); use a marketplace API key`,
    );
  return actorFor(store, req, principal, capability);
}
