import { createHash } from 'node:crypto';
import { PaybridgeError } from '../../errors.js';
import type { CardDetails, CardOutcome, Money, ServiceFees, TimelineEntry, Transaction } from '../model.js';
import type { Store } from '../store.js';

/** Test card numbers of current-api-decisions.md; any other Luhn-valid number succeeds. */
export const TEST_CARDS = {
  success: '4242424242424242',
  decline: '4000000000000002',
  threeDS: '4000000000003220',
} as const;

function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = number.charCodeAt(number.length - 1 - i) - 48;
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What the sandbox keeps of a card: a fingerprint, the last four digits and the test outcome. */
export function cardDetails(number: string, field = 'cardNumber'): CardDetails {
  if (!luhnValid(number)) throw new PaybridgeError('invalid_request', `${field}: the card number fails the Luhn check`);
  const outcome: CardOutcome =
    number === TEST_CARDS.decline ? 'decline' : number === TEST_CARDS.threeDS ? 'threeDS' : 'success';
  return { fingerprint: createHash('sha256').update(number).digest('hex'), last4: number.slice(-4), outcome };
}

export const cardHint = (card: CardDetails) => `****${card.last4}`;

/** Sandbox fee schedule: card 1.75% + 30, PayTo 0.5% + 10, GST 10% of the fee; minor units. */
export function serviceFees(method: 'card' | 'payto', amount: number): ServiceFees {
  const variableAmount = Math.round(amount * (method === 'card' ? 0.0175 : 0.005));
  const fixedAmount = method === 'card' ? 30 : 10;
  const taxAmount = Math.round((variableAmount + fixedAmount) / 10);
  return { variableAmount, fixedAmount, taxAmount, totalAmount: variableAmount + fixedAmount + taxAmount };
}

export function sameMoney(a: Money, b: Money): boolean {
  return a.minorCurrencyUnits === b.minorCurrencyUnits && a.currency === b.currency;
}

export function addTimeline(store: Store, tx: Transaction, eventType: string, amount: number, identifier: string | null): string {
  const eventTime = store.timestamp();
  const entry: TimelineEntry = { eventType, eventTime, amount, identifier };
  tx.timelines.push(entry);
  tx.updatedAt = eventTime;
  return eventTime;
}

/** Items a list answers when the caller names no `limit` (docs/decisions.md D-LIM-1). */
export const DEFAULT_PAGE_SIZE = 20;

/** Cursor pagination over an already filtered, creation-ordered list. */
export function page<T>(items: T[], limit = DEFAULT_PAGE_SIZE, cursor?: string): { items: T[]; nextCursor: string | null } {
  const start = cursor === undefined ? 0 : Number(cursor);
  const slice = items.slice(start, start + limit);
  return { items: slice, nextCursor: start + limit < items.length ? String(start + limit) : null };
}
