import { randomBytes } from 'node:crypto';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, mayActFor, requireMerchant, visibleTo, type Actor } from '../access.js';
import type { Address, Customer } from '../model.js';
import type { Store } from '../store.js';
import { page } from './common.js';

export interface CustomerInput {
  referenceCustomerId?: string | undefined;
  emailAddress: string;
  phoneNumber?: string | undefined;
  givenName?: string | undefined;
  middleName?: string | undefined;
  familyName?: string | undefined;
  address?: Address | undefined;
  businessName?: string | undefined;
  abn?: string | undefined;
}

/**
 * Creates or updates a customer of the acting merchant. The same referenceCustomerId (or, without
 * one, the same email address) for the same merchant updates the same customer; given fields replace.
 */
/**
 * `legacy`: the same customer for the same reference, or the same e-mail when no reference is given
 * (legacy-api.md, L28). `current`: a consumer is the same for the same e-mail address, an organisation
 * for the same referenceCustomerId, per merchant (current reference, UpsertCustomer).
 */
export type CustomerKey = 'legacy' | 'current';

export function upsertCustomer(
  store: Store,
  actor: Actor,
  kind: Customer['kind'],
  input: CustomerInput,
  key: CustomerKey = 'legacy',
): Customer {
  const merchantId = requireMerchant(actor);
  const existing =
    key === 'legacy' ? findExisting(store, merchantId, input) : findByBusinessKey(store, merchantId, kind, input);
  const at = store.timestamp();
  if (existing) {
    if (existing.kind !== kind)
      throw new PaybridgeError(
        'invalid_request',
        `referenceCustomerId: ${existing.customerId} is a ${existing.kind} customer`,
      );
    for (const [field, value] of Object.entries(input))
      if (value !== undefined) (existing as unknown as Record<string, unknown>)[field] = value;
    existing.updatedAt = at;
    store.stats.customersUpdated++;
    return existing;
  }
  const customer: Customer = {
    customerId: newId('customer'),
    merchantId,
    kind,
    referenceCustomerId: input.referenceCustomerId ?? null,
    emailAddress: input.emailAddress,
    phoneNumber: input.phoneNumber ?? null,
    givenName: input.givenName ?? null,
    middleName: input.middleName ?? null,
    familyName: input.familyName ?? null,
    businessName: input.businessName ?? null,
    abn: input.abn ?? null,
    address: input.address ?? null,
    kycStatus: 'NotStarted',
    kycCheckedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  store.addCustomer(customer);
  store.stats.customersCreated++;
  return customer;
}

function findExisting(store: Store, merchantId: string, input: CustomerInput): Customer | undefined {
  const email = input.emailAddress.toLowerCase();
  for (const id of store.customersByMerchant.get(merchantId) ?? []) {
    const c = store.customers.get(id)!;
    if (input.referenceCustomerId !== undefined) {
      if (c.referenceCustomerId === input.referenceCustomerId) return c;
    } else if (c.referenceCustomerId === null && c.emailAddress.toLowerCase() === email) return c;
  }
  return undefined;
}

function findByBusinessKey(
  store: Store,
  merchantId: string,
  kind: Customer['kind'],
  input: CustomerInput,
): Customer | undefined {
  const email = input.emailAddress.toLowerCase();
  for (const id of store.customersByMerchant.get(merchantId) ?? []) {
    const c = store.customers.get(id)!;
    if (c.kind !== kind) continue;
    if (
      kind === 'consumer'
        ? c.emailAddress.toLowerCase() === email
        : input.referenceCustomerId !== undefined && c.referenceCustomerId === input.referenceCustomerId
    )
      return c;
  }
  return undefined;
}

/** Merchants a list query covers: the named ones (each one the caller may act for, else 403), or all visible. */
export function merchantScope(
  store: Store,
  actor: Actor,
  named: string[] | undefined,
): (merchantId: string) => boolean {
  if (named) {
    for (const id of named)
      if (!mayActFor(store, actor.principal, id) || (actor.merchantId !== null && actor.merchantId !== id))
        throw new PaybridgeError('forbidden', `the credentials may not act for merchant ${id}`);
    const set = new Set(named);
    return (merchantId) => set.has(merchantId);
  }
  return (merchantId) => visibleTo(store, actor, merchantId);
}

export function queryCustomers(
  store: Store,
  actor: Actor,
  filter: {
    emailAddress?: string | undefined;
    merchantId?: string[] | undefined;
    customerId?: string[] | undefined;
    name?: string | undefined;
    createdAfter?: string | undefined;
    createdBefore?: string | undefined;
    limit?: number | undefined;
    page?: number | undefined;
    sort?: string | undefined;
  },
) {
  const inScope = merchantScope(store, actor, filter.merchantId);
  const email = filter.emailAddress?.toLowerCase();
  const name = filter.name?.toLowerCase();
  const named = (c: Customer) =>
    [c.givenName, c.familyName, c.businessName].some((n) => typeof n === 'string' && n.toLowerCase().includes(name!));
  const matching = [...store.customers.values()].filter(
    (c) =>
      inScope(c.merchantId) &&
      (email === undefined || c.emailAddress.toLowerCase() === email) &&
      (filter.customerId === undefined || filter.customerId.includes(c.customerId)) &&
      (name === undefined || named(c)) &&
      (filter.createdAfter === undefined || c.createdAt > filter.createdAfter) &&
      (filter.createdBefore === undefined || c.createdAt < filter.createdBefore),
  );
  return page(matching, filter);
}

/** Checkout auth tokens issued by sign-in and pay-by-link orders are valid one hour (current-api-decisions.md). */
const CHECKOUT_TOKEN_TTL_MS = 60 * 60 * 1000;

/** A new checkout auth token acting for the merchant (and customer); expired ones are swept as new ones are issued. */
export function issueCheckoutToken(store: Store, merchantId: string, customerId: string | null): string {
  const now = store.clock();
  if (store.checkoutTokens.size >= 10_000)
    for (const [token, t] of store.checkoutTokens)
      if (t.expiresAt !== undefined && t.expiresAt <= now) store.checkoutTokens.delete(token);
  const token = `chk_${randomBytes(24).toString('base64url')}`;
  store.checkoutTokens.set(token, { merchantId, customerId, expiresAt: now + CHECKOUT_TOKEN_TTL_MS });
  return token;
}

/**
 * SignInConsumer / SignInDelegate: a checkout auth token for a customer of the acting merchant. The
 * action must fit the customer's kind (a consumer signs in, an organisation's delegate signs in).
 */
export function signInCustomer(store: Store, actor: Actor, customerId: string, kind: Customer['kind']): string {
  const customer = store.get(store.customers, customerId);
  checkOwner(store, actor, customer.merchantId, customerId);
  if (customer.kind !== kind)
    throw new PaybridgeError(
      'invalid_request',
      `${kind === 'consumer' ? 'SignInConsumer' : 'SignInDelegate'}: ${customerId} is a ${customer.kind} customer`,
    );
  return issueCheckoutToken(store, customer.merchantId, customerId);
}

/**
 * An organisation customer's delegate (the person who signs in for it): the sandbox keeps one per
 * organisation, `custd_` and the customer id's opaque part (docs/decisions.md D-CUS-2).
 */
export const delegateOf = (customerId: string) => `custd_${customerId.slice(customerId.indexOf('_') + 1)}`;
export const customerOfDelegate = (customerDelegateId: string) => `cust_${customerDelegateId.slice('custd_'.length)}`;

/** SignInDelegateByReferenceId: the delegate of the acting merchant's organisation customer with that reference. */
export function signInDelegateByReference(
  store: Store,
  actor: Actor,
  referenceCustomerId: string,
): { customerId: string; customToken: string } {
  const merchantId = requireMerchant(actor);
  for (const id of store.customersByMerchant.get(merchantId) ?? []) {
    const c = store.customers.get(id)!;
    if (c.referenceCustomerId === referenceCustomerId && c.kind === 'organisation')
      return { customerId: c.customerId, customToken: issueCheckoutToken(store, merchantId, c.customerId) };
  }
  throw new PaybridgeError('not_found', `no organisation customer with referenceCustomerId ${referenceCustomerId}`);
}
