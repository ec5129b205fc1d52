import { randomBytes, randomFillSync, randomUUID } from 'node:crypto';

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

/**
 * The legacy card-payment id of a current id (legacy-api.md section 4, a decision): `card_` and the
 * opaque part after the id's own prefix, so stable, unique and never mistaken for the id it comes from.
 */
export function payCardIdOf(id: string): string {
  const underscore = id.indexOf('_');
  return `card_${underscore < 0 ? id : id.slice(underscore + 1)}`;
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Where each of a UUID's 16 bytes goes (as two hex digits), around its four dashes. */
const UUID_SLOTS = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const UUID_POOL_BYTES = 16 * 256;
const uuidPool = Buffer.alloc(UUID_POOL_BYTES);
let uuidAt = UUID_POOL_BYTES;
const uuidText = Buffer.from('00000000-0000-4000-8000-000000000000', 'latin1');

/**
 * A random UUID (version 4), as crypto.randomUUID() makes, from the same generator (randomFillSync,
 * 256 ids' worth at a time), written as one flat string. randomUUID() returns a string of twenty
 * pieces, which V8 flattens through its runtime the first time a regular expression reads it; a
 * request id is read so twice (its header upstream, and in the answer): 190 against 355 ns.
 */
export function newRequestId(): string {
  if (uuidAt === UUID_POOL_BYTES) {
    randomFillSync(uuidPool);
    uuidAt = 0;
  }
  for (let i = 0; i < 16; i++) {
    let byte = uuidPool[uuidAt + i]!;
    if (i === 6)
      byte = (byte & 0x0f) | 0x40; // version 4
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // variant 10xx
    const slot = UUID_SLOTS[i]!;
    uuidText[slot] = HEX_DIGITS[byte >> 4]!;
    uuidText[slot + 1] = HEX_DIGITS[byte & 15]!;
  }
  uuidAt += 16;
  return uuidText.toString('latin1', 0, 36);
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
