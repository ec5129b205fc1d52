import { createHash } from 'node:crypto';
import { PaybridgeError } from '../../errors.js';
import type { CardDetails, CardOutcome, Money, ServiceFees, TimelineEntry, Transaction } from '../model.js';
import type { Store } from '../store.js';

/** Test card numbers of current-api-decisions.md; any other Luhn-valid number succeeds. */
const TEST_CARDS = {
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

export function addTimeline(
  store: Store,
  tx: Transaction,
  eventType: string,
  amount: number,
  identifier: string | null,
): string {
  const eventTime = store.timestamp();
  const entry: TimelineEntry = { eventType, eventTime, amount, identifier };
  tx.timelines.push(entry);
  tx.updatedAt = eventTime;
  return eventTime;
}

/** Items a list answers when the caller names no `limit` (docs/decisions.md D-LIM-1). */
const DEFAULT_PAGE_SIZE = 20;

/** The list parameters every query takes (current-api-decisions.md, Lists, from the reference). */
export interface ListQuery {
  limit?: number | undefined;
  /** From 1. */
  page?: number | undefined;
  /** Comma-separated fields (dotted for nested ones), `-` before a field for descending. */
  sort?: string | undefined;
}

function fieldOf(item: unknown, path: string): unknown {
  let v: unknown = item;
  for (const part of path.split('.'))
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[part] : undefined;
  return typeof v === 'object' && v !== null && 'minorCurrencyUnits' in v ? v.minorCurrencyUnits : v;
}

const unset = (v: unknown) => v === undefined || v === null;

/** Ascending (sign 1) or descending (-1); an unset value comes last either way. */
/** A sort key as text: a string as it is, anything else as its JSON. */
const sortText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function compare(a: unknown, b: unknown, sign: number): number {
  if (a === b || (unset(a) && unset(b))) return 0;
  if (unset(a)) return 1;
  if (unset(b)) return -1;
  return sign * (typeof a === 'number' && typeof b === 'number' ? a - b : sortText(a) < sortText(b) ? -1 : 1);
}

/** One page of an already filtered, creation-ordered list: sorted as asked (a stable sort), then sliced. */
export function page<T>(items: T[], query: ListQuery = {}): { items: T[] } {
  const keys = (query.sort ?? '')
    .split(',')
    .filter((k) => k !== '')
    .map((k) => (k.startsWith('-') ? { path: k.slice(1), sign: -1 } : { path: k, sign: 1 }));
  const sorted =
    keys.length === 0
      ? items
      : [...items].sort((a, b) => {
          for (const { path, sign } of keys) {
            const order = compare(fieldOf(a, path), fieldOf(b, path), sign);
            if (order !== 0) return order;
          }
          return 0;
        });
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const start = ((query.page ?? 1) - 1) * limit;
  return { items: sorted.slice(start, start + limit) };
}
