/**
 * The rename table of legacy-api.md section 2, applied to body and query keys both ways. Free-form
 * `metadata` is never entered: it is carried as is in both directions.
 */
import { ExactNumber } from '../contract/json.js';

const VOCABULARY: Readonly<Record<string, string>> = {
  email: 'emailAddress',
  customerEmail: 'customerEmailAddress',
  contactEmail: 'contactEmailAddress',
  phoneno: 'phoneNumber',
  phoneNo: 'customerPhoneNumber',
  internalOrderId: 'referenceOrderId',
  internalCustomerId: 'referenceCustomerId',
  firstName: 'givenName',
  lastName: 'familyName',
  platformId: 'marketplaceId',
};

const FORWARD = new Map(Object.entries(VOCABULARY));
const BACKWARD = new Map(Object.entries(VOCABULARY).map(([legacy, current]) => [current, legacy]));

/** The key whose value is carried byte for byte, wherever it appears. */
export const VERBATIM_KEY = 'metadata';

export const toCurrentKey = (key: string): string => FORWARD.get(key) ?? key;
export const toLegacyKey = (key: string): string => BACKWARD.get(key) ?? key;

type Json = unknown;

function walk(value: Json, rename: (key: string) => string): Json {
  if (Array.isArray(value)) return value.map((v) => walk(v, rename));
  if (value === null || typeof value !== 'object' || value instanceof ExactNumber) return value;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, Json>)[key];
    out[rename(key)] = key === VERBATIM_KEY ? v : walk(v, rename);
  }
  return out;
}

/** A legacy JSON value with every key renamed to its current name (metadata untouched). */
export const vocabularyToCurrent = (value: Json): Json => walk(value, toCurrentKey);
/** A current JSON value with every key renamed to its legacy name (metadata untouched). */
export const vocabularyToLegacy = (value: Json): Json => walk(value, toLegacyKey);
