/**
 * The operations current-api.md names without a shape (docs/decisions.md has the shapes decided):
 * merchant queries and files, industries, beneficial owners, KYC and surcharge. Payout summaries and
 * settlement entries are in settlement.ts.
 */
import { createHash } from 'node:crypto';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, requireMerchant, type Actor } from '../access.js';
import type { Address, BeneficialOwner, Customer, Merchant, MerchantFile } from '../model.js';
import type { Store } from '../store.js';
import { page } from './common.js';
import { merchantScope } from './customers.js';
import { getMerchant } from './merchants.js';

/** The industries a merchant may declare (ANZSIC divisions). */
export const INDUSTRIES: readonly { industryCode: string; name: string }[] = [
  { industryCode: 'A', name: 'Agriculture, Forestry and Fishing' },
  { industryCode: 'C', name: 'Manufacturing' },
  { industryCode: 'E', name: 'Construction' },
  { industryCode: 'F', name: 'Wholesale Trade' },
  { industryCode: 'G', name: 'Retail Trade' },
  { industryCode: 'H', name: 'Accommodation and Food Services' },
  { industryCode: 'I', name: 'Transport, Postal and Warehousing' },
  { industryCode: 'J', name: 'Information Media and Telecommunications' },
  { industryCode: 'M', name: 'Professional, Scientific and Technical Services' },
  { industryCode: 'P', name: 'Education and Training' },
  { industryCode: 'Q', name: 'Health Care and Social Assistance' },
  { industryCode: 'R', name: 'Arts and Recreation Services' },
  { industryCode: 'S', name: 'Other Services' },
];

/** Merchants the caller may see: a marketplace its sub-merchants, a merchant itself; filtered by slug. */
export function queryMerchants(
  store: Store,
  actor: Actor,
  filter: {
    merchantId?: string[] | undefined;
    slug?: string | undefined;
    limit?: number | undefined;
    page?: number | undefined;
    sort?: string | undefined;
  },
) {
  const inScope = merchantScope(store, actor, filter.merchantId);
  const matching = [...store.merchants.values()].filter(
    (m) => inScope(m.merchantId) && (filter.slug === undefined || m.slug === filter.slug),
  );
  return page(matching, filter);
}

const MAX_FILE_BYTES = 512 * 1024;

/** A document for a merchant's onboarding review; the sandbox keeps its size and digest, not its bytes. */
export function uploadMerchantFile(
  store: Store,
  actor: Actor,
  merchantId: string,
  input: { fileName: string; contentType: string; purpose: string; contentBase64: string },
): MerchantFile {
  getMerchant(store, actor, merchantId);
  const bytes = Buffer.from(input.contentBase64, 'base64');
  if (bytes.length === 0)
    throw new PaybridgeError('invalid_request', 'UploadMerchantFile.contentBase64: the file is empty');
  if (bytes.length > MAX_FILE_BYTES)
    throw new PaybridgeError(
      'invalid_request',
      `UploadMerchantFile.contentBase64: the file exceeds ${MAX_FILE_BYTES} bytes`,
    );
  const file: MerchantFile = {
    fileId: newId('merchantFile'),
    merchantId,
    fileName: input.fileName,
    contentType: input.contentType,
    purpose: input.purpose,
    sizeBytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    createdAt: store.timestamp(),
  };
  store.merchantFiles.set(file.fileId, file);
  return file;
}

export function setIndustry(store: Store, actor: Actor, merchantId: string, industryCode: string): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  if (!INDUSTRIES.some((i) => i.industryCode === industryCode))
    throw new PaybridgeError(
      'invalid_request',
      `SetMerchantIndustry.industryCode: ${industryCode} is not an industry of GET /industries`,
    );
  merchant.industryCode = industryCode;
  merchant.updatedAt = store.timestamp();
  return merchant;
}

// ---- beneficial owners ----

type Role = BeneficialOwner['roles'][number];
type Document = Record<string, unknown>;

export interface BeneficialOwnerInput {
  givenName: string;
  familyName: string;
  dateOfBirth: string;
  ownershipPercentage: number;
  emailAddress?: string | undefined;
  address?: Address | undefined;
  title?: string | undefined;
  roles?: Role[] | undefined;
  middleName?: string | undefined;
  phoneNumber?: string | undefined;
  verificationDocs?: Document[] | undefined;
  passport?: Document | undefined;
  driverLicence?: Document | undefined;
}

/** The person's details as given; what is left out is null (a replace gives them all again). */
function personDetails(input: BeneficialOwnerInput) {
  return {
    givenName: input.givenName,
    familyName: input.familyName,
    dateOfBirth: input.dateOfBirth,
    ownershipPercentage: input.ownershipPercentage,
    emailAddress: input.emailAddress ?? null,
    address: input.address ?? null,
    title: input.title ?? null,
    // a person created with a share and no roles is an owner (D-BO-2)
    roles: input.roles ?? (input.ownershipPercentage > 0 ? ['Owner' as const] : []),
    middleName: input.middleName ?? null,
    phoneNumber: input.phoneNumber ?? null,
    verificationDocs: input.verificationDocs ?? [],
    passport: input.passport ?? null,
    driverLicence: input.driverLicence ?? null,
  };
}

function ownedShare(store: Store, merchantId: string, except?: string): number {
  let sum = 0;
  for (const o of store.beneficialOwners.values())
    if (o.merchantId === merchantId && o.beneficialOwnerId !== except) sum += o.ownershipPercentage;
  return sum;
}

function checkShare(store: Store, merchantId: string, share: number, except?: string): void {
  const others = ownedShare(store, merchantId, except);
  if (others + share > 100)
    throw new PaybridgeError(
      'invalid_request',
      `ownershipPercentage: ${share} would take ${merchantId}'s owners to ${others + share}%, over 100%`,
    );
}

export function createBeneficialOwner(store: Store, actor: Actor, input: BeneficialOwnerInput): BeneficialOwner {
  const merchantId = requireMerchant(actor);
  checkShare(store, merchantId, input.ownershipPercentage);
  const at = store.timestamp();
  const owner: BeneficialOwner = {
    beneficialOwnerId: newId('beneficialOwner'),
    merchantId,
    ...personDetails(input),
    createdAt: at,
    updatedAt: at,
  };
  store.beneficialOwners.set(owner.beneficialOwnerId, owner);
  return owner;
}

export function getBeneficialOwner(store: Store, actor: Actor, id: string): BeneficialOwner {
  const owner = store.get(store.beneficialOwners, id);
  checkOwner(store, actor, owner.merchantId, id);
  return owner;
}

export function listBeneficialOwners(
  store: Store,
  actor: Actor,
  filter: {
    merchantId?: string[] | undefined;
    limit?: number | undefined;
    page?: number | undefined;
    sort?: string | undefined;
  },
) {
  const inScope = merchantScope(store, actor, filter.merchantId);
  return page(
    [...store.beneficialOwners.values()].filter((o) => inScope(o.merchantId)),
    filter,
  );
}

/** Replace: the person is given again and keeps its id; a share left out keeps the one held (D-BO-2). */
export function replaceBeneficialOwner(
  store: Store,
  actor: Actor,
  id: string,
  input: Omit<BeneficialOwnerInput, 'ownershipPercentage'> & { ownershipPercentage?: number | undefined },
): BeneficialOwner {
  const owner = getBeneficialOwner(store, actor, id);
  const ownershipPercentage = input.ownershipPercentage ?? owner.ownershipPercentage;
  checkShare(store, owner.merchantId, ownershipPercentage, id);
  Object.assign(owner, personDetails({ ...input, roles: input.roles ?? owner.roles, ownershipPercentage }), {
    updatedAt: store.timestamp(),
  });
  return owner;
}

export function deleteBeneficialOwner(store: Store, actor: Actor, id: string): void {
  getBeneficialOwner(store, actor, id);
  store.beneficialOwners.delete(id);
}

// ---- KYC ----

/** KYC Customer: a document check whose outcome becomes the customer's state (000000 in the number: rejected). */
export function kycCustomer(
  store: Store,
  actor: Actor,
  customerId: string,
  input: { dateOfBirth: string; documentType: string; documentNumber: string },
): Customer {
  const customer = store.get(store.customers, customerId);
  checkOwner(store, actor, customer.merchantId, customerId);
  if (customer.kind !== 'consumer')
    throw new PaybridgeError('invalid_request', `KycCustomer: ${customerId} is an organisation customer`);
  const birth = Date.parse(`${input.dateOfBirth}T00:00:00Z`);
  if (Number.isNaN(birth) || birth > store.clock() - 18 * 365.25 * 86_400_000)
    throw new PaybridgeError('invalid_request', 'KycCustomer.dateOfBirth: the customer must be 18 or older');
  const at = store.timestamp();
  customer.kycStatus = input.documentNumber.includes('000000') ? 'Rejected' : 'Verified';
  customer.kycCheckedAt = at;
  customer.updatedAt = at;
  return customer;
}

// ---- surcharge ----

/** The surcharge a card payment of `amount` carries at the merchant (its rate in basis points, rounded half up); PayTo: none. */
export function surchargeFor(merchant: Merchant, method: 'card' | 'payto', amount: number): number {
  if (method !== 'card' || merchant.surchargeRateBps === 0) return 0;
  return Math.round((amount * merchant.surchargeRateBps) / 10_000);
}

export function calculateSurcharge(
  store: Store,
  actor: Actor,
  input: { amount: { minorCurrencyUnits: number; currency: string }; paymentMethodType: 'Card' | 'PayTo' },
) {
  const merchant = store.get(store.merchants, requireMerchant(actor));
  const surchargeAmount = surchargeFor(
    merchant,
    input.paymentMethodType === 'Card' ? 'card' : 'payto',
    input.amount.minorCurrencyUnits,
  );
  return {
    amount: input.amount,
    surchargeAmount,
    totalAmount: {
      minorCurrencyUnits: input.amount.minorCurrencyUnits + surchargeAmount,
      currency: input.amount.currency,
    },
    surchargeRateBps: input.paymentMethodType === 'Card' ? merchant.surchargeRateBps : 0,
  };
}
