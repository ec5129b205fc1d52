/**
 * Who is calling and what they may do: the authorisation rules of current-api.md ("Authentication",
 * "Endpoints" rules 1-2), shared by both faces so that the generations agree on every 401/403/404.
 */
import { PaybridgeError } from '../errors.js';
import { verifyJwt } from '../contract/jwt.js';
import type { Store } from './store.js';

export type Principal =
  | { kind: 'publicKey'; merchantId: string }
  | { kind: 'secretKey'; merchantId: string }
  | { kind: 'merchantJwt'; merchantId: string }
  | { kind: 'customerJwt'; merchantId: string; customerId: string }
  | { kind: 'checkoutToken'; merchantId: string; customerId: string | null }
  | { kind: 'marketplaceKey'; marketplaceId: string }
  | { kind: 'marketplaceJwt'; marketplaceId: string };

export type PrincipalKind = Principal['kind'];

/** Actions that need more than "may act for this merchant". */
export type Capability =
  | 'card-token:create'
  | 'agreement:create'
  | 'payto-token:create'
  | 'order:create'
  | 'payplan:max'
  | 'agreement:read'
  | 'source-token:create'
  | 'source:manage'
  | 'order:read'
  | 'order:update'
  | 'transaction:read'
  | 'transaction:update'
  | 'customer:manage'
  | 'payplan:manage'
  | 'merchant:read'
  | 'merchant:update'
  | 'blockedcard:manage'
  | 'pay'
  | 'refund'
  | 'transfer'
  | 'merchant:create'
  | 'customer:signin'
  | 'surcharge:calculate'
  | 'industry:read'
  | 'payplan:offer'
  | 'settlement:read'
  | 'customer:kyc'
  | 'owner:manage';

/**
 * A public key runs the seed's PayTo flow alone (create, poll, tokenise), captures raw cards, asks for
 * a pay plan maximum and a surcharge: the public interface (docs/decisions.md).
 */
const PUBLIC: Capability[] = [
  'card-token:create',
  'agreement:create',
  'agreement:read',
  'payto-token:create',
  'order:create',
  'payplan:max',
  'payplan:offer',
  'surcharge:calculate',
  'industry:read',
];
const CUSTOMER: Capability[] = [...PUBLIC, 'source-token:create', 'source:manage'];
const DASHBOARD: Capability[] = [
  ...CUSTOMER,
  'order:read',
  'order:update',
  'transaction:read',
  'transaction:update',
  'customer:manage',
  'payplan:manage',
  'merchant:read',
  'merchant:update',
  'blockedcard:manage',
  'settlement:read',
  'owner:manage',
];
/** Signing a customer in issues a credential for them: server credentials only. */
const SERVER: Capability[] = [...DASHBOARD, 'pay', 'refund', 'transfer', 'customer:signin', 'customer:kyc'];

/**
 * Pay and refund need a secret key or a marketplace API key; a public key creates card tokens,
 * agreements, PayTo tokens and orders (and asks for a pay plan maximum: legacy route L20 is a public call).
 */
const CAPABILITIES: Record<PrincipalKind, ReadonlySet<Capability>> = {
  publicKey: new Set(PUBLIC),
  customerJwt: new Set(CUSTOMER),
  checkoutToken: new Set(CUSTOMER),
  merchantJwt: new Set(DASHBOARD),
  marketplaceJwt: new Set<Capability>([...DASHBOARD, 'merchant:create']),
  secretKey: new Set(SERVER),
  marketplaceKey: new Set<Capability>([...SERVER, 'merchant:create']),
};

const KEY_PREFIX = /^(sandbox|live)_(pk|sk|api)_/;

/** The principal behind a credential, or 401. The sandbox refuses every `live_` credential. */
export async function authenticate(store: Store, credential: string): Promise<Principal> {
  if (credential.startsWith('live_'))
    throw new PaybridgeError('unauthenticated', 'live credentials are not accepted by the sandbox environment');
  const key = store.keys.get(credential);
  if (key) {
    if (key.kind === 'marketplaceKey') return { kind: 'marketplaceKey', marketplaceId: key.id };
    return { kind: key.kind, merchantId: key.id };
  }
  if (KEY_PREFIX.test(credential)) throw new PaybridgeError('unauthenticated', 'the key is not known');
  const claims = await verifyJwt(credential, store.jwtSecret, Math.floor(store.clock() / 1000));
  if (claims) {
    if (claims.kind === 'customer') {
      const customer = store.customers.get(claims.sub);
      if (customer) return { kind: 'customerJwt', merchantId: customer.merchantId, customerId: customer.customerId };
    } else if (claims.kind === 'merchant') {
      if (store.merchants.has(claims.sub)) return { kind: 'merchantJwt', merchantId: claims.sub };
    } else if (store.marketplaces.has(claims.sub)) {
      return { kind: 'marketplaceJwt', marketplaceId: claims.sub };
    }
    throw new PaybridgeError('unauthenticated', 'the token names an unknown subject');
  }
  const checkout = store.checkoutTokens.get(credential);
  if (checkout) {
    if (checkout.expiresAt !== undefined && checkout.expiresAt <= store.clock()) {
      store.checkoutTokens.delete(credential);
      throw new PaybridgeError('unauthenticated', 'the checkout token has expired');
    }
    return { kind: 'checkoutToken', merchantId: checkout.merchantId, customerId: checkout.customerId };
  }
  throw new PaybridgeError('unauthenticated', 'the credential is not valid');
}

/** 403 unless the principal's credential type may perform the action at all. */
export function requireCapability(principal: Principal, capability: Capability): void {
  if (!CAPABILITIES[principal.kind].has(capability))
    throw new PaybridgeError('forbidden', `a ${describeKind(principal.kind)} may not ${capability.replace(':', ' ')}`);
}

function describeKind(kind: PrincipalKind): string {
  return {
    publicKey: 'public key',
    secretKey: 'secret key',
    merchantJwt: 'merchant JWT',
    customerJwt: 'customer JWT',
    checkoutToken: 'checkout token',
    marketplaceKey: 'marketplace API key',
    marketplaceJwt: 'marketplace JWT',
  }[kind];
}

/** Context named by the caller: the current face's headers, or the legacy face's path ids. */
export interface ContextClaim {
  marketplaceId?: string | undefined;
  merchantId?: string | undefined;
  customerId?: string | undefined;
}

/** The entities a call acts for once the claim is checked. */
export interface Actor {
  principal: Principal;
  /** Null only for a marketplace credential that named no merchant. */
  merchantId: string | null;
  customerId: string | null;
}

function marketplaceOf(principal: Principal): string | null {
  return principal.kind === 'marketplaceKey' || principal.kind === 'marketplaceJwt' ? principal.marketplaceId : null;
}

/** True when the principal may act for the merchant (its own, or a sub-merchant of its marketplace). */
export function mayActFor(store: Store, principal: Principal, merchantId: string): boolean {
  const marketplaceId = marketplaceOf(principal);
  if (marketplaceId === null) return (principal as { merchantId: string }).merchantId === merchantId;
  const merchant = store.merchants.get(merchantId);
  return (
    merchant !== undefined &&
    (merchant.marketplaceId === marketplaceId || store.marketplaces.get(marketplaceId)?.operator === true)
  );
}

/**
 * Checks the context a caller claims: a claimed entity the caller may not act for is 403 (whether or
 * not it exists, so nothing leaks). Context given by the caller takes priority over the credential's.
 */
export function resolveActor(store: Store, principal: Principal, claim: ContextClaim): Actor {
  const ownMarketplace = marketplaceOf(principal);
  if (claim.marketplaceId !== undefined && claim.marketplaceId !== ownMarketplace)
    throw new PaybridgeError('forbidden', `the credentials may not act for marketplace ${claim.marketplaceId}`);
  let merchantId = ownMarketplace === null ? (principal as { merchantId: string }).merchantId : null;
  if (claim.merchantId !== undefined) {
    if (!mayActFor(store, principal, claim.merchantId))
      throw new PaybridgeError('forbidden', `the credentials may not act for merchant ${claim.merchantId}`);
    merchantId = claim.merchantId;
  }
  let customerId: string | null =
    principal.kind === 'customerJwt' || principal.kind === 'checkoutToken' ? principal.customerId : null;
  if (claim.customerId !== undefined) {
    const customer = store.customers.get(claim.customerId);
    const allowed =
      customer !== undefined &&
      (customerId === null || customerId === claim.customerId) &&
      (merchantId === null ? mayActFor(store, principal, customer.merchantId) : customer.merchantId === merchantId);
    if (!allowed) throw new PaybridgeError('forbidden', `the credentials may not act for customer ${claim.customerId}`);
    merchantId = customer.merchantId;
    customerId = claim.customerId;
  }
  return { principal, merchantId, customerId };
}

/** The acting merchant for a call that creates something no resource ties to a merchant. */
export function requireMerchant(actor: Actor): string {
  if (actor.merchantId === null)
    throw new PaybridgeError(
      'invalid_request',
      'Merchant-Id: a marketplace credential must name the sub-merchant it acts for',
    );
  return actor.merchantId;
}

/** The acting customer for a call that needs one (Customer-Id, or a customer credential). */
export function requireCustomer(actor: Actor): string {
  if (actor.customerId === null)
    throw new PaybridgeError('invalid_request', 'Customer-Id: the call needs the customer it acts for');
  return actor.customerId;
}

/**
 * A resource the actor may see: owned by the acting merchant (or, for a marketplace that named none,
 * by one of its sub-merchants). Anything else is a 404, never a 403, so ids of others do not leak.
 */
export function checkOwner(store: Store, actor: Actor, merchantId: string, id: string): void {
  if (!visibleTo(store, actor, merchantId)) throw new PaybridgeError('not_found', `${id} was not found`);
}

/** True when records of the merchant are visible to the actor (see checkOwner). */
export function visibleTo(store: Store, actor: Actor, merchantId: string): boolean {
  return actor.merchantId === null ? mayActFor(store, actor.principal, merchantId) : actor.merchantId === merchantId;
}

/** A customer-bound caller sees only its own customer's resources. */
export function checkCustomer(actor: Actor, customerId: string | null, id: string): void {
  if (actor.customerId !== null && customerId !== actor.customerId)
    throw new PaybridgeError('not_found', `${id} was not found`);
}
