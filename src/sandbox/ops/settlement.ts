/**
 * Payout summaries and settlement entries (docs/decisions.md has their shapes), derived from the
 * store's payments, fees, refunds and transfers on every read, so a payout summary always adds up to
 * its entries and the entries to the transactions.
 */
import { PaybridgeError } from '../../errors.js';
import { createHash } from 'node:crypto';
import type { Actor } from '../access.js';
import type { Transaction } from '../model.js';
import type { Store } from '../store.js';
import { page } from './common.js';
import { merchantScope } from './customers.js';

export type EntryType =
  | 'payment'
  | 'surcharge'
  | 'fee'
  | 'refund'
  | 'transfer_out'
  | 'transfer_in'
  | 'transfer_reversal_out'
  | 'transfer_reversal_in';

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
const derivedId = (prefix: 'sent_' | 'pout_', ...parts: string[]) =>
  `${prefix}${createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 20)}`;

function entriesOf(store: Store, tx: Transaction): SettlementEntry[] {
  const out: SettlementEntry[] = [];
  const add = (merchantId: string, type: EntryType, amount: number, occurredAt: string, reference: string | null) =>
    out.push({
      settlementEntryId: derivedId('sent_', tx.transactionId, type, reference ?? '', merchantId),
      merchantId,
      transactionId: tx.transactionId,
      type,
      amount,
      currency: tx.currency,
      occurredAt,
      payoutDate: occurredAt.slice(0, 10),
      reference,
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
      if (
        inScope(e.merchantId) &&
        (filter.payoutDate === undefined || e.payoutDate === filter.payoutDate) &&
        (filter.from === undefined || e.payoutDate >= filter.from) &&
        (filter.to === undefined || e.payoutDate <= filter.to)
      )
        all.push(e);
  return all.sort((a, b) =>
    a.occurredAt < b.occurredAt
      ? -1
      : a.occurredAt > b.occurredAt
        ? 1
        : a.settlementEntryId < b.settlementEntryId
          ? -1
          : 1,
  );
}

/** Report Settlement Entries: every movement of a merchant's money, by payout date. */
export function reportSettlementEntries(
  store: Store,
  actor: Actor,
  filter: SettlementFilter & { limit?: number | undefined; page?: number | undefined; sort?: string | undefined },
) {
  return page(settlementEntries(store, actor, filter), filter);
}

/** Query Payout Summaries: one payout per merchant, day and currency; its net amount is the sum of its entries. */
export function queryPayoutSummaries(
  store: Store,
  actor: Actor,
  filter: SettlementFilter & { limit?: number | undefined; page?: number | undefined; sort?: string | undefined },
) {
  const groups = new Map<string, SettlementEntry[]>();
  for (const e of settlementEntries(store, actor, filter)) {
    const key = `${e.merchantId}|${e.payoutDate}|${e.currency}`;
    const list = groups.get(key) ?? [];
    list.push(e);
    groups.set(key, list);
  }
  const sum = (list: SettlementEntry[], types: EntryType[]) =>
    list.filter((e) => types.includes(e.type)).reduce((s, e) => s + e.amount, 0);
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
  summaries.sort((a, b) =>
    a.payoutDate < b.payoutDate ? -1 : a.payoutDate > b.payoutDate ? 1 : a.merchantId < b.merchantId ? -1 : 1,
  );
  return page(summaries, filter);
}

/** Get Payout (reference: `GET /transactions/payouts/{payoutId}`): one payout summary the actor may see, or 404. */
export function getPayoutSummary(store: Store, actor: Actor, payoutId: string) {
  const found = queryPayoutSummaries(store, actor, { limit: Number.MAX_SAFE_INTEGER }).items.find(
    (p) => p.payoutId === payoutId,
  );
  if (!found) throw new PaybridgeError('not_found', `${payoutId} was not found`);
  return found;
}

/** The settlement report (reference: `GET /transactions/settlement/report`): each payout with the entries it pays. */
export function settlementReport(
  store: Store,
  actor: Actor,
  filter: SettlementFilter & { limit?: number | undefined; page?: number | undefined; sort?: string | undefined },
) {
  const entries = settlementEntries(store, actor, filter);
  return queryPayoutSummaries(store, actor, filter).items.map((payout) => ({
    ...payout,
    entries: entries.filter(
      (e) => e.merchantId === payout.merchantId && e.payoutDate === payout.payoutDate && e.currency === payout.currency,
    ),
  }));
}
