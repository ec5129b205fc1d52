/**
 * The operations current-api.md names without a shape (docs/decisions.md has the shapes decided):
 * merchant queries and files, industries, beneficial owners, KYC, surcharge, payout summaries and
 * settlement entries. Settlement is derived from the store's payments, fees, refunds and transfers, so
 * a payout summary always adds up to its entries and the entries to the transactions.
 */
import { createHash } from 'node:crypto';
import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, requireMerchant, type Actor } from '../access.js';
import type { Address, BeneficialOwner, Customer, Merchant, MerchantFile, Transaction } from '../model.js';
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
export function queryMerchants(store: Store, actor: Actor, filter: { merchantId?: string[] | undefined; slug?: string | undefined; limit?: number | undefined; page?: number | undefined; sort?: string | undefined }) {
  const inScope = merchantScope(store, actor, filter.merchantId);
  const matching = [...store.merchants.values()].filter((m) => inScope(m.merchantId) && (filter.slug === undefined || m.slug === filter.slug));
  return page(matching, filter);
}

export const MAX_FILE_BYTES = 512 * 1024;

/** A document for a merchant's onboarding review; the sandbox keeps its size and digest, not its bytes. */
export function uploadMerchantFile(
  store: Store,
  actor: Actor,
  merchantId: string,
  input: { fileName: string; contentType: string; purpose: string; contentBase64: string },
): MerchantFile {
  getMerchant(store, actor, merchantId);
  const bytes = Buffer.from(input.contentBase64, 'base64');
  if (bytes.length === 0) throw new PaybridgeError('invalid_request', 'UploadMerchantFile.contentBase64: the file is empty');
  if (bytes.length > MAX_FILE_BYTES) throw new PaybridgeError('invalid_request', `UploadMerchantFile.contentBase64: the file exceeds ${MAX_FILE_BYTES} bytes`);
  const file: MerchantFile = {
    fileId: newId('merchantFile'), merchantId, fileName: input.fileName, contentType: input.contentType, purpose: input.purpose,
    sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), createdAt: store.timestamp(),
  };
  store.merchantFiles.set(file.fileId, file);
  return file;
}

export function setIndustry(store: Store, actor: Actor, merchantId: string, industryCode: string): Merchant {
  const merchant = getMerchant(store, actor, merchantId);
  if (!INDUSTRIES.some((i) => i.industryCode === industryCode))
    throw new PaybridgeError('invalid_request', `SetMerchantIndustry.industryCode: ${industryCode} is not an industry of GET /industries`);
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
    givenName: input.givenName, familyName: input.familyName, dateOfBirth: input.dateOfBirth, ownershipPercentage: input.ownershipPercentage,
    emailAddress: input.emailAddress ?? null, address: input.address ?? null, title: input.title ?? null,
    // a person created with a share and no roles is an owner (D-BO-2)
    roles: input.roles ?? (input.ownershipPercentage > 0 ? ['Owner' as const] : []), middleName: input.middleName ?? null,
    phoneNumber: input.phoneNumber ?? null, verificationDocs: input.verificationDocs ?? [], passport: input.passport ?? null,
    driverLicence: input.driverLicence ?? null,
  };
}

function ownedShare(store: Store, merchantId: string, except?: string): number {
  let sum = 0;
  for (const o of store.beneficialOwners.values()) if (o.merchantId === merchantId && o.beneficialOwnerId !== except) sum += o.ownershipPercentage;
  return sum;
}

function checkShare(store: Store, merchantId: string, share: number, except?: string): void {
  const others = ownedShare(store, merchantId, except);
  if (others + share > 100)
    throw new PaybridgeError('invalid_request', `ownershipPercentage: ${share} would take ${merchantId}'s owners to ${others + share}%, over 100%`);
}

export function createBeneficialOwner(store: Store, actor: Actor, input: BeneficialOwnerInput): BeneficialOwner {
  const merchantId = requireMerchant(actor);
  checkShare(store, merchantId, input.ownershipPercentage);
  const at = store.timestamp();
  const owner: BeneficialOwner = { beneficialOwnerId: newId('beneficialOwner'), merchantId, ...personDetails(input), createdAt: at, updatedAt: at };
  store.beneficialOwners.set(owner.beneficialOwnerId, owner);
  return owner;
}

export function getBeneficialOwner(store: Store, actor: Actor, id: string): BeneficialOwner {
  const owner = store.get(store.beneficialOwners, id);
  checkOwner(store, actor, owner.merchantId, id);
  return owner;
}

export function listBeneficialOwners(store: Store, actor: Actor, filter: { merchantId?: string[] | undefined; limit?: number | undefined; page?: number | undefined; sort?: string | undefined }) {
  const inScope = merchantScope(store, actor, filter.merchantId);
  return page([...store.beneficialOwners.values()].filter((o) => inScope(o.merchantId)), filter);
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
  Object.assign(owner, personDetails({ ...input, roles: input.roles ?? owner.roles, ownershipPercentage }), { updatedAt: store.timestamp() });
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
  if (customer.kind !== 'consumer') throw new PaybridgeError('invalid_request', `KycCustomer: ${customerId} is an organisation customer`);
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

export function calculateSurcharge(store: Store, actor: Actor, input: { amount: { minorCurrencyUnits: number; currency: string }; paymentMethodType: 'Card' | 'PayTo' }) {
  const merchant = store.get(store.merchants, requireMerchant(actor));
  const surchargeAmount = surchargeFor(merchant, input.paymentMethodType === 'Card' ? 'card' : 'payto', input.amount.minorCurrencyUnits);
  return {
    amount: input.amount,
    surchargeAmount,
    totalAmount: { minorCurrencyUnits: input.amount.minorCurrencyUnits + surchargeAmount, currency: input.amount.currency },
    surchargeRateBps: input.paymentMethodType === 'Card' ? merchant.surchargeRateBps : 0,
  };
}

// ---- settlement ----

export type EntryType = 'payment' | 'surcharge' | 'fee' | 'refund' | 'transfer_out' | 'transfer_in' | 'transfer_reversal_out' | 'transfer_reversal_in';

export interface SettlementEntry {
  settlementEntryId: string;
  merchantId: string;
  transactionId: string;
  type: EntryType;
  /** Signed, minor units: what the entry adds to (or takes from) the merchant's payout. */
  amount: number;
  currency: string;
  occurredAt: string;
  payoutDate: string;
  reference: string | null;
}

/** A stable id for a derived record: the same entry has the same id on every read. */
const derivedId = (prefix: 'sent_' | 'pout_', ...parts: string[]) => `${prefix}${createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 20)}`;

function entriesOf(store: Store, tx: Transaction): SettlementEntry[] {
  const out: SettlementEntry[] = [];
  const add = (merchantId: string, type: EntryType, amount: number, occurredAt: string, reference: string | null) =>
    out.push({
      settlementEntryId: derivedId('sent_', tx.transactionId, type, reference ?? '', merchantId), merchantId, transactionId: tx.transactionId,
      type, amount, currency: tx.currency, occurredAt, payoutDate: occurredAt.slice(0, 10), reference,
    });
  if (tx.status === 'not_captured' || tx.status === 'cancelled' || tx.paidOn === null) return out;
  const paidAt = tx.timelines.find((t) => t.eventType === 'PaymentSucceed')?.eventTime ?? tx.createdAt;
  add(tx.merchantId, 'payment', tx.amount, paidAt, null);
  if (tx.surchargeAmount > 0) add(tx.merchantId, 'surcharge', tx.surchargeAmount, paidAt, null);
  add(tx.merchantId, 'fee', -tx.serviceFees.totalAmount, paidAt, null);
  for (const refundId of tx.refundIds) {
    const refund = store.refunds.get(refundId)!;
    add(tx.merchantId, 'refund', -refund.amount, refund.createdAt, refundId);
  }
  for (const t of tx.transfers) {
    add(tx.merchantId, 'transfer_out', -t.amount, t.createdAt, t.transferId);
    add(t.destinationMerchantId, 'transfer_in', t.amount, t.createdAt, t.transferId);
    if (t.reversedAt) {
      add(tx.merchantId, 'transfer_reversal_out', t.amount, t.reversedAt, t.transferId);
      add(t.destinationMerchantId, 'transfer_reversal_in', -t.amount, t.reversedAt, t.transferId);
    }
  }
  return out;
}

interface SettlementFilter {
  merchantId?: string[] | undefined;
  payoutDate?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

function settlementEntries(store: Store, actor: Actor, filter: SettlementFilter): SettlementEntry[] {
  const inScope = merchantScope(store, actor, filter.merchantId);
  const all: SettlementEntry[] = [];
  for (const tx of store.transactions.values())
    for (const e of entriesOf(store, tx))
      if (inScope(e.merchantId) && (filter.payoutDate === undefined || e.payoutDate === filter.payoutDate) &&
        (filter.from === undefined || e.payoutDate >= filter.from) && (filter.to === undefined || e.payoutDate <= filter.to))
        all.push(e);
  return all.sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : a.occurredAt > b.occurredAt ? 1 : a.settlementEntryId < b.settlementEntryId ? -1 : 1));
}

/** Report Settlement Entries: every movement of a merchant's money, by payout date. */
export function reportSettlementEntries(store: Store, actor: Actor, filter: SettlementFilter & { limit?: number | undefined; page?: number | undefined; sort?: string | undefined }) {
  return page(settlementEntries(store, actor, filter), filter);
}

/** Query Payout Summaries: one payout per merchant, day and currency; its net amount is the sum of its entries. */
export function queryPayoutSummaries(store: Store, actor: Actor, filter: SettlementFilter & { limit?: number | undefined; page?: number | undefined; sort?: string | undefined }) {
  const groups = new Map<string, SettlementEntry[]>();
  for (const e of settlementEntries(store, actor, filter)) {
    const key = `${e.merchantId}|${e.payoutDate}|${e.currency}`;
    const list = groups.get(key) ?? [];
    list.push(e);
    groups.set(key, list);
  }
  const sum = (list: SettlementEntry[], types: EntryType[]) => list.filter((e) => types.includes(e.type)).reduce((s, e) => s + e.amount, 0);
  const summaries = [...groups.entries()].map(([key, list]) => {
    const [merchantId, payoutDate, currency] = key.split('|') as [string, string, string];
    return {
      payoutId: derivedId('pout_', key),
      merchantId,
      payoutDate,
      currency,
      grossAmount: sum(list, ['payment', 'surcharge']),
      feeAmount: -sum(list, ['fee']),
      refundedAmount: -sum(list, ['refund']),
      transferredAmount: sum(list, ['transfer_in', 'transfer_out', 'transfer_reversal_in', 'transfer_reversal_out']),
      netAmount: list.reduce((s, e) => s + e.amount, 0),
      entryCount: list.length,
      status: payoutDate < new Date(store.clock()).toISOString().slice(0, 10) ? 'paid' : 'pending',
    };
  });
  summaries.sort((a, b) => (a.payoutDate < b.payoutDate ? -1 : a.payoutDate > b.payoutDate ? 1 : a.merchantId < b.merchantId ? -1 : 1));
  return page(summaries, filter);
}

