import { newId } from '../../contract/ids.js';
import { PaybridgeError } from '../../errors.js';
import { checkOwner, type Actor } from '../access.js';
import type { Refund, Transaction, Transfer } from '../model.js';
import type { Store } from '../store.js';
import { addTimeline, page, serviceFees } from './common.js';
import { merchantScope } from './customers.js';

export function getTransaction(store: Store, actor: Actor, transactionId: string): Transaction {
  const tx = store.get(store.transactions, transactionId);
  checkOwner(store, actor, tx.merchantId, transactionId);
  return tx;
}

export interface TransactionFilter {
  orderId?: string[] | undefined;
  customerId?: string[] | undefined;
  merchantId?: string[] | undefined;
  status?: string[] | undefined;
  amount?: number | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  limit?: number | undefined;
  page?: number | undefined;
  sort?: string | undefined;
}

/** Transactions visible to the actor matching every filter, oldest first. */
export function queryTransactions(store: Store, actor: Actor, filter: TransactionFilter) {
  let candidates: Transaction[];
  if (filter.orderId) {
    candidates = [];
    for (const orderId of new Set(filter.orderId))
      for (const id of store.transactionsByOrder.get(orderId) ?? []) candidates.push(store.transactions.get(id)!);
    candidates.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  } else {
    candidates = [...store.transactions.values()];
  }
  const customers = filter.customerId ? new Set(filter.customerId) : null;
  const inScope = merchantScope(store, actor, filter.merchantId);
  // the reference's filters: merchant, status, amount (minor units), when created
  const matching = candidates.filter(
    (tx) =>
      inScope(tx.merchantId) &&
      (customers === null || (tx.customerId !== null && customers.has(tx.customerId))) &&
      (filter.status === undefined || filter.status.includes(tx.status)) &&
      (filter.amount === undefined || tx.amount === filter.amount) &&
      (filter.createdAfter === undefined || tx.createdAt > filter.createdAfter) &&
      (filter.createdBefore === undefined || tx.createdAt < filter.createdBefore),
  );
  return page(matching, filter);
}

const transferred = (tx: Transaction) =>
  tx.transfers.reduce((sum, t) => (t.status === 'completed' ? sum + t.amount : sum), 0);

/**
 * The money rule of a payment, in one place: what was paid and is still with the merchant. Refunds
 * and transfers share it, so a payment never pays out twice (transfer 1000 of 1000, then refund 1000).
 */
const remaining = (tx: Transaction) => tx.amount - tx.refundedAmount - transferred(tx);

export function refund(
  store: Store,
  actor: Actor,
  transactionId: string,
  refundAmount: number,
): { transaction: Transaction; refund: Refund } {
  const tx = getTransaction(store, actor, transactionId);
  if (tx.status !== 'paid' && tx.status !== 'partially_refunded')
    throw new PaybridgeError('transaction_not_refundable', `${transactionId} is ${tx.status}`);
  if (refundAmount > remaining(tx))
    throw new PaybridgeError(
      'refund_exceeds_amount',
      `refundAmount: ${refundAmount} exceeds the refundable ${remaining(tx)} ${tx.currency} (paid, less refunds and transfers)`,
    );
  const record: Refund = { refundId: newId('refund'), transactionId, amount: refundAmount, createdAt: '' };
  record.createdAt = addTimeline(store, tx, 'PaymentRefunded', refundAmount, record.refundId);
  store.refunds.set(record.refundId, record);
  tx.refundIds.push(record.refundId);
  tx.refundedAmount += refundAmount;
  tx.status = tx.refundedAmount === tx.amount ? 'refunded' : 'partially_refunded';
  store.stats.refundsCreated++;
  return { transaction: tx, refund: record };
}

/** Captures an authorisation, in full or for less; the captured amount becomes the payment amount. */
/** Captures an authorisation: `amount` of it, or all of it when unset (legacy-api.md L9, the .NET SDK's `{}`). */
export function capture(store: Store, actor: Actor, transactionId: string, requested: number | undefined): Transaction {
  const tx = getTransaction(store, actor, transactionId);
  if (tx.status !== 'not_captured')
    throw new PaybridgeError('transaction_not_capturable', `${transactionId} is ${tx.status}`);
  const amount = requested ?? tx.amount;
  if (amount > tx.amount)
    throw new PaybridgeError(
      'capture_exceeds_amount',
      `amount: ${amount} exceeds the authorised ${tx.amount} ${tx.currency}`,
    );
  tx.amount = amount;
  tx.serviceFees = serviceFees(tx.method, amount);
  tx.status = 'paid';
  tx.paidOn = addTimeline(store, tx, 'PaymentSucceed', amount, null).slice(0, 10);
  store.stats.captures++;
  return tx;
}

/** Releases an authorisation; its order is cancelled with it. */
export function cancelAuthorisation(store: Store, actor: Actor, transactionId: string): Transaction {
  const tx = getTransaction(store, actor, transactionId);
  if (tx.status !== 'not_captured')
    throw new PaybridgeError('transaction_not_cancellable', `${transactionId} is ${tx.status}`);
  tx.status = 'cancelled';
  const at = addTimeline(store, tx, 'AuthorisationCancelled', tx.amount, null);
  const order = store.orders.get(tx.orderId);
  if (order) {
    order.status = 'cancelled';
    order.updatedAt = at;
  }
  store.stats.authorisationsCancelled++;
  return tx;
}

/**
 * Moves part of a payment to another sub-merchant of the same marketplace (transaction-transfers
 * guide): `surchargeFee` charges the platform fee to the destination, `levy` is deducted from what it
 * receives (kept on the transfer; at most the amount transferred).
 */
export function transferFunds(
  store: Store,
  actor: Actor,
  transactionId: string,
  input: {
    transferAmount: number;
    destinationMerchantId: string;
    surchargeFee?: boolean | undefined;
    levy?: number | null | undefined;
  },
): Transaction {
  const tx = getTransaction(store, actor, transactionId);
  if (tx.status !== 'paid' && tx.status !== 'partially_refunded')
    throw new PaybridgeError(
      'transaction_not_refundable',
      `${transactionId} is ${tx.status}; only paid funds can be transferred`,
    );
  const source = store.get(store.merchants, tx.merchantId);
  const destination = store.merchants.get(input.destinationMerchantId);
  if (
    !destination ||
    source.marketplaceId === null ||
    destination.marketplaceId !== source.marketplaceId ||
    destination.merchantId === source.merchantId
  )
    throw new PaybridgeError(
      'invalid_request',
      'destinationMerchantId: must be another sub-merchant of the same marketplace',
    );
  const available = remaining(tx);
  const amount = input.transferAmount;
  if (amount > available)
    throw new PaybridgeError(
      'transfer_exceeds_amount',
      `transferAmount: ${amount} exceeds the transferable ${available} ${tx.currency}`,
    );
  if ((input.levy ?? 0) > amount)
    throw new PaybridgeError('invalid_request', `levy: ${input.levy} exceeds the transferAmount ${amount}`);
  const transfer: Transfer = {
    transferId: newId('transfer'),
    amount,
    destinationMerchantId: destination.merchantId,
    status: 'completed',
    createdAt: '',
    reversedAt: null,
    surchargeFee: input.surchargeFee === true,
    levy: input.levy ?? null,
  };
  transfer.createdAt = addTimeline(store, tx, 'FundsTransferred', amount, transfer.transferId);
  tx.transfers.push(transfer);
  store.stats.transfersCreated++;
  return tx;
}

export function reverseTransfer(store: Store, actor: Actor, transactionId: string, transferId: string): Transaction {
  const tx = getTransaction(store, actor, transactionId);
  const transfer = tx.transfers.find((t) => t.transferId === transferId);
  if (!transfer) throw new PaybridgeError('not_found', `transferId: ${transferId} was not found on ${transactionId}`);
  if (transfer.status !== 'completed')
    throw new PaybridgeError('transfer_not_reversible', `${transferId} is ${transfer.status}`);
  transfer.status = 'reversed';
  transfer.reversedAt = addTimeline(store, tx, 'FundsTransferReversed', transfer.amount, transferId);
  store.stats.transfersReversed++;
  return tx;
}
