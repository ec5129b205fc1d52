import { randomBytes, randomUUID } from 'node:crypto';

/** Identifier prefixes of the current API (current-api.md) and of our decisions (current-api-decisions.md). */
export const ID_PREFIX = {
  order: 'ordr_',
  merchant: 'mcht_',
  marketplace: 'mktp_',
  customer: 'cust_',
  paymentToken: 'ptkn_',
  transaction: 'tran_',
  refund: 'rfnd_',
  paymentSource: 'psrc_',
  threeDS: '3ds_',
  transfer: 'trf_',
  bankAccount: 'bank_',
  payPlan: 'ppln_',
  cardBlock: 'cblk_',
  beneficialOwner: 'bown_',
  merchantFile: 'file_',
  settlementEntry: 'sent_',
  payout: 'pout_',
} as const;

export type IdKind = keyof typeof ID_PREFIX;

/** An id is its prefix followed by 1-64 characters of [A-Za-z0-9_-]; nothing else (no slashes, dots, spaces). */
const ID_BODY = /^[A-Za-z0-9_-]{1,64}$/;

export function hasIdForm(kind: IdKind, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const prefix = ID_PREFIX[kind];
  return value.startsWith(prefix) && ID_BODY.test(value.slice(prefix.length));
}

let counter = 0;
const processTag = randomBytes(4).toString('hex');

/**
 * A new id: prefix, a per-process random tag, a counter (so ids never repeat within a process) and a
 * random tail (randomUUID draws from a cached entropy pool, far cheaper per call than randomBytes).
 */
export function newId(kind: IdKind): string {
  counter = (counter + 1) % 0x7fffffff;
  return `${ID_PREFIX[kind]}${processTag}${counter.toString(36).padStart(6, '0')}${randomUUID().slice(0, 6)}`;
}
