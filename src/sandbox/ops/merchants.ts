import { randomBytes } from 'node:crypto';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { mayActFor, type Actor } from '../access.js';
import type { BusinessProfile, Merchant } from '../model.js';
import type { Store } from '../store.js';

/** A profile with nothing filled in beyond the name (fixture merchants, fresh sub-merchants). */
export function emptyProfile(): BusinessProfile {
  return { timeZone: null, businessType: null, companyType: null, website: null, supportSite: null, industry: null };
}

type ProfileInput = { [K in keyof BusinessProfile]?: NonNullable<BusinessProfile[K]> | undefined };

export interface MerchantInput {
  slug: string;
  businessProfile: ProfileInput & { businessName: string };
  contactEmailAddress: string;
  taxCountry: string;
  tradingCountry?: string | undefined;
}

function applyProfile(merchant: Merchant, input: ProfileInput): void {
  for (const key of Object.keys(merchant.profile) as (keyof BusinessProfile)[])
    if (input[key] !== undefined) (merchant.profile as unknown as Record<string, unknown>)[key] = input[key];
}

/** A sub-merchant onboarded by the calling marketplace, with fresh sandbox keys; Pending until it has a payout account. */
export function createMerchant(store: Store, actor: Actor, input: MerchantInput): Merchant {
  const principal = actor.principal;
  if (principal.kind !== 'marketplaceKey' && principal.kind !== 'marketplaceJwt')
    throw new PaybridgeError('forbidden', 'only a marketplace may onboard merchants');
  for (const m of store.merchants.values())
    if (m.slug === input.slug) throw new PaybridgeError('invalid_request', `slug: ${input.slug} is already taken`);
  const at = store.timestamp();
  const secret = () => randomBytes(18).toString('base64url');
  const merchant: Merchant = {
    merchantId: newId('merchant'),
    marketplaceId: principal.marketplaceId,
    name: input.businessProfile.businessName,
    slug: input.slug,
    contactEmailAddress: input.contactEmailAddress,
    taxCountry: input.taxCountry,
    tradingCountry: input.tradingCountry ?? input.taxCountry,
    profile: emptyProfile(),
    status: 'Pending',
    publicKey: `sandbox_pk_${secret()}`,
    secretKey: `sandbox_sk_${secret()}`,
    merchantToken: null,
    bankAccounts: [],
    primaryBankAccountId: null,
    surchargeRateBps: 0,
    industryCode: null,
    createdAt: at,
    updatedAt: at,
  };
  applyProfile(merchant, input.businessProfile);
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
  input: ProfileInput & {
    businessName?: string | undefined;
    contactEmailAddress?: string | undefined;
    tradingCountry?: string | undefined;
  },
): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  if (input.businessName !== undefined) merchant.name = input.businessName;
  if (input.contactEmailAddress !== undefined) merchant.contactEmailAddress = input.contactEmailAddress;
  if (input.tradingCountry !== undefined) merchant.tradingCountry = input.tradingCountry;
  applyProfile(merchant, input);
  merchant.updatedAt = store.timestamp();
  return merchant;
}

export interface BankAccountInput {
  accountName: string;
  bankName?: string | undefined;
  bsb: string;
  accountNumber: string;
  currency: string;
  /** Absent: the first account becomes primary, later ones do not (D-MER-4). */
  setAsPrimary?: boolean | undefined;
}

/** Adds a payout bank account; primary as `setAsPrimary` asks, or when it is the merchant's first. */
export function addBankAccount(store: Store, actor: Actor, merchantId: string, input: BankAccountInput): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  const at = store.timestamp();
  const bsb = input.bsb.replace('-', '');
  const account = {
    bankAccountId: newId('bankAccount'),
    bsb: `${bsb.slice(0, 3)}-${bsb.slice(3)}`,
    accountNumber: input.accountNumber,
    accountName: input.accountName,
    bankName: input.bankName ?? null,
    currency: input.currency,
    createdAt: at,
  };
  merchant.bankAccounts.push(account);
  if (input.setAsPrimary === true || (input.setAsPrimary === undefined && merchant.primaryBankAccountId === null))
    merchant.primaryBankAccountId = account.bankAccountId;
  if (merchant.primaryBankAccountId !== null) merchant.status = 'Active';
  merchant.updatedAt = at;
  return merchant;
}

export function setPrimaryBankAccount(store: Store, actor: Actor, merchantId: string, bankAccountId: string): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  if (!merchant.bankAccounts.some((a) => a.bankAccountId === bankAccountId))
    throw new PaybridgeError('not_found', `bankAccountId: ${bankAccountId} was not found on ${merchantId}`);
  merchant.primaryBankAccountId = bankAccountId;
  merchant.status = 'Active';
  merchant.updatedAt = store.timestamp();
  return merchant;
}
