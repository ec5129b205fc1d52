import { randomBytes } from 'node:crypto';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { mayActFor, type Actor } from '../access.js';
import type { Merchant } from '../model.js';
import type { Store } from '../store.js';

/** A sub-merchant onboarded by the calling marketplace, with fresh sandbox keys. */
export function createMerchant(
  store: Store,
  actor: Actor,
  input: { slug: string; businessName: string; contactEmailAddress: string; taxCountry: string; tradingCountry: string },
): Merchant {
  const principal = actor.principal;
  if (principal.kind !== 'marketplaceKey' && principal.kind !== 'marketplaceJwt')
    throw new PaybridgeError('forbidden', 'only a marketplace may onboard merchants');
  for (const m of store.merchants.values())
    if (m.slug === input.slug) throw new PaybridgeError('invalid_request', `slug: ${input.slug} is already taken`);
  const at = store.timestamp();
  const secret = () => randomBytes(18).toString('base64url');
  const merchant: Merchant = {
    merchantId: newId('merchant'), marketplaceId: principal.marketplaceId, name: input.businessName, slug: input.slug,
    contactEmailAddress: input.contactEmailAddress, taxCountry: input.taxCountry, tradingCountry: input.tradingCountry,
    publicKey: `sandbox_pk_${secret()}`, secretKey: `sandbox_sk_${secret()}`, merchantToken: null, bankAccounts: [],
    primaryBankAccountId: null, surchargeRateBps: 0, industryCode: null, createdAt: at, updatedAt: at,
  };
  store.addMerchant(merchant);
  store.stats.merchantsCreated++;
  return merchant;
}

/** A merchant the caller may act for (itself, or a sub-merchant of its marketplace), else 404. */
export function getMerchant(store: Store, actor: Actor, merchantId: string): Merchant {
  const merchant = store.get(store.merchants, merchantId);
  if (!mayActFor(store, actor.principal, merchantId) || (actor.merchantId !== null && actor.merchantId !== merchantId))
    throw new PaybridgeError('not_found', `${merchantId} was not found`);
  return merchant;
}

export function updateBusinessProfile(
  store: Store,
  actor: Actor,
  merchantId: string,
  input: { businessName?: string | undefined; contactEmailAddress?: string | undefined; tradingCountry?: string | undefined },
): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  if (input.businessName !== undefined) merchant.name = input.businessName;
  if (input.contactEmailAddress !== undefined) merchant.contactEmailAddress = input.contactEmailAddress;
  if (input.tradingCountry !== undefined) merchant.tradingCountry = input.tradingCountry;
  merchant.updatedAt = store.timestamp();
  return merchant;
}

/** Adds a payout bank account; a merchant's first account becomes its primary one. */
export function addBankAccount(
  store: Store,
  actor: Actor,
  merchantId: string,
  input: { bsb: string; accountNumber: string; accountName: string },
): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  const at = store.timestamp();
  const bsb = input.bsb.replace('-', '');
  const account = { bankAccountId: newId('bankAccount'), bsb: `${bsb.slice(0, 3)}-${bsb.slice(3)}`, accountNumber: input.accountNumber, accountName: input.accountName, createdAt: at };
  merchant.bankAccounts.push(account);
  merchant.primaryBankAccountId ??= account.bankAccountId;
  merchant.updatedAt = at;
  return merchant;
}

export function setPrimaryBankAccount(store: Store, actor: Actor, merchantId: string, bankAccountId: string): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  if (!merchant.bankAccounts.some((a) => a.bankAccountId === bankAccountId))
    throw new PaybridgeError('not_found', `bankAccountId: ${bankAccountId} was not found on ${merchantId}`);
  merchant.primaryBankAccountId = bankAccountId;
  merchant.updatedAt = store.timestamp();
  return merchant;
}
