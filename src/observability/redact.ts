/**
 * Keeps secrets and personal data out of everything paybridge writes (log lines, shadow records, the
 * report, metric labels): one table of rules, used by every writer. Below both gateway/ and shadow/.
 *
 * - by field name (any depth, any case, `_`/`-` ignored): credentials, card numbers, CVC-like fields,
 *   tokens and magic links are replaced; customer e-mail fields are masked (`a***@example.com`);
 * - in any string (messages, URLs, query values, unknown fields) and any key or JSON path: keys,
 *   JWTs, merchant and checkout tokens, card numbers (Luhn-valid, with or without spaces or dashes,
 *   or glued to a word by `_`), secret query parameters (by the same names), e-mail addresses;
 * - numbers stay numbers (exact ones exact), except integers of 12 to 19 digits: a card number sent
 *   as a JSON number.
 */
import { ExactNumber } from '../contract/json.js';

export const REDACTED = '[redacted]';
const REDACTED_CARD = '[redacted card]';

/** The rule table: field names (normalised: lower case, no `_` or `-`) and what happens to their values. */
const FIELD_RULES: Readonly<Record<string, 'redact' | 'email'>> = Object.fromEntries([
  // credential headers and keys
  ...['authorization', 'limepaypublickey', 'limepaysecretkey', 'limepaytoken', 'limepaycustomerjwt', 'limepaymerchantjwt',
    'limepayplatformjwt', 'limepaycheckouttoken', 'limepaymerchanttoken', 'cookie', 'setcookie', 'servicekey', 'apikey',
    'secretkey', 'publickey', 'jwt', 'operatortoken'].map((f) => [f, 'redact']),
  // card data
  ...['cardnumber', 'pan', 'cardno', 'ccnumber', 'creditcardnumber', 'cardcvc', 'cvc', 'cvc2', 'cvv', 'cvv2', 'cid', 'csc',
    'securitycode', 'cardcode', 'cardsecuritycode', 'cardverificationvalue', 'expiry', 'cardexpiry'].map((f) => [f, 'redact']),
  // tokens and links that carry them
  ...['token', 'checkouttoken', 'merchanttoken', 'customtoken', 'agreementtoken', 'accesstoken', 'refreshtoken', 'idtoken',
    'magiclink', 'password'].map((f) => [f, 'redact']),
  // personal data
  ...['email', 'emailaddress', 'customeremail', 'customeremailaddress', 'contactemail', 'contactemailaddress'].map((f) => [f, 'email']),
]) as Record<string, 'redact' | 'email'>;

/**
 * Endings of a normalised field, header or query name that mark a secret whatever comes before
 * (`cardCvv`, `x-cvv`, `X-Auth-Token`, `Proxy-Authorization`, `secret_key`, `api-key`): every
 * spelling of the card verification code (CVC, CVV, CVN, CCV, CVD, security or verification code),
 * credentials, tokens and passwords.
 */
const SECRET_ENDING = /(?:cvc|cvv|cvn|ccv|cvd|cvc2|cvv2|securitycode|verificationcode|verificationvalue|authorization|token|secret|secretkey|apikey|password|passwd|passphrase)$/;

const normalise = (key: string) => key.toLowerCase().replace(/[-_]/g, '');

function ruleOfNormalised(name: string): 'redact' | 'email' | undefined {
  return Object.hasOwn(FIELD_RULES, name) ? FIELD_RULES[name] : SECRET_ENDING.test(name) ? 'redact' : undefined;
}

/** The rule of a field name; names seen are remembered (log lines and answers repeat a few hundred names). */
const ruleCache = new Map<string, 'redact' | 'email' | undefined>();
function ruleOf(key: string): 'redact' | 'email' | undefined {
  if (ruleCache.has(key)) return ruleCache.get(key);
  const rule = ruleOfNormalised(normalise(key));
  if (ruleCache.size >= 10_000) ruleCache.clear();
  ruleCache.set(key, rule);
  return rule;
}

/** A query parameter (name and value), in a URL or a text holding one. */
const QUERY_PARAMETER = /([?&;]([^=&;\s"#?]+)=)([^&;\s"#]*)/g;
/** Query names that are secrets there though not as a field name (`?key=`, `?card=`). */
const SECRET_QUERY_NAMES = new Set(['key', 'card', 'pan', 'cvc', 'cvv', 'cid', 'csc', 'sig', 'signature', 'code', 'jwt', 'auth']);

/** A query parameter's value masked when its name (decoded, normalised) is a secret's, by the field table or the query names. */
function redactQueryParameter(match: string, head: string, name: string): string {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // a malformed name is matched as written
  }
  const normalised = normalise(decoded);
  return ruleOfNormalised(normalised) === 'redact' || SECRET_QUERY_NAMES.has(normalised) ? `${head}[redacted]` : match;
}

/** 12-19 digits, grouped with spaces or dashes or not (isCardNumber decides). */
const CARD = /\b\d(?:(?:[ -]|%20)?\d){11,18}\b/g;
/** A UUID (its groups can be all digits: a tracer's last group is, one time in 280): anywhere, and at a text's start. */
const UUID_SOURCE = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![0-9a-f])';
const UUID = new RegExp(`(?<![0-9a-f])${UUID_SOURCE}`, 'gi');
const UUID_AT = new RegExp(`^${UUID_SOURCE}`, 'i');
const isHex = (c: string | undefined) => c !== undefined && /[0-9a-f]/i.test(c);

/** Whether a digit run at `at` is one of the groups of a whole UUID. */
function startsInUuid(text: string, at: number): boolean {
  // the run starts one of the five groups: 0, 9, 14, 19 or 24 characters into the UUID
  return [0, 9, 14, 19, 24].some((into) => {
    const from = at - into;
    return from >= 0 && !isHex(text[from - 1]) && UUID_AT.test(text.slice(from, from + 37));
  });
}

const cardOrNot = (match: string) => (isCardNumber(match) ? REDACTED_CARD : match);

/**
 * Card numbers in a text masked: Luhn-valid digit groups, or a bare run of 12-19 digits, but not the
 * groups of a UUID. A text where a run started inside one is scanned again with its UUIDs blanked out,
 * so a card beside a UUID is still masked whole.
 */
function redactCards(text: string): string {
  let uuid = false;
  const out = text.replace(CARD, (match, at: number) => (startsInUuid(text, at) ? ((uuid = true), match) : cardOrNot(match)));
  if (!uuid) return out;
  const blanked = text.replace(UUID, (u) => 'x'.repeat(u.length));
  let masked = '';
  let last = 0;
  for (const m of blanked.matchAll(CARD)) {
    masked += text.slice(last, m.index) + cardOrNot(m[0]);
    last = m.index + m[0].length;
  }
  return masked + text.slice(last);
}

/**
 * A card number glued to a word by `_` (`pan_5555555555554444`, `card_4242...`): 13 to 19 digits
 * right after the underscore up to the end of the word, Luhn-valid. An id's opaque part never is one
 * (ours are 20 characters; a run inside one ends before the id does).
 */
const GLUED_CARD = /_(\d{13,19})(?![A-Za-z0-9])/g;
const gluedCard = (match: string, digits: string) => (luhn(digits) ? `_${REDACTED_CARD}` : match);

const TEXT_RULES: ((text: string) => string)[] = [
  (text) => text.replace(QUERY_PARAMETER, redactQueryParameter),
  (text) => text.replace(/\b(sandbox|live)_(pk|sk|api)_[A-Za-z0-9_-]+/g, '$1_$2_[redacted]'),
  (text) => text.replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[redacted jwt]'),
  (text) => text.replace(/\b(mtok|chk)_[A-Za-z0-9_-]+/g, '$1_[redacted]'),
  redactCards,
  (text) => text.replace(GLUED_CARD, gluedCard),
  (text) => text.replace(/\b([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})\b/g, (_m, first: string, domain: string) => `${first}***@${domain}`),
];

/**
 * One cheap test before the replacements: most strings hold nothing to mask. Its card part is the card
 * rule's start (a digit after a non-word character, then eleven more, spaces, dashes or %20 between
 * them), so ids with digit runs inside them (`tran_f67cd494000003890a28`) skip the replacements.
 */
const MAYBE_SECRET = /sandbox_|live_|eyJ|mtok_|chk_|@|=|(?:^|\W|_)\d(?:(?:[ -]|%20)?\d){11}/i;

/** A digit string (spaces and dashes allowed) that is a card number: 12-19 digits; Luhn-valid, or a bare run of 12+ digits. */
export function isCardNumber(text: string): boolean {
  const digits = text.replace(/%20|[ -]/g, '');
  if (digits.length < 12 || digits.length > 19) return false;
  if (digits === text) return true;
  return luhn(digits);
}

/** The Luhn check of a digit string. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Free text with every key, JWT, token, card number, secret query value and e-mail address masked. */
export function scrub(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  let out = text;
  for (const rule of TEXT_RULES) out = rule(out);
  return out;
}

/** `alice@example.com` -> `a***@example.com`; anything else is scrubbed as text. */
export function maskEmail(value: unknown): unknown {
  if (typeof value !== 'string') return redactValue(value);
  const at = value.lastIndexOf('@');
  return at > 0 ? `${value[0]}***@${value.slice(at + 1)}` : scrub(value);
}

/**
 * A JSON value with secret fields replaced, e-mail fields masked and free text scrubbed. Returns the
 * very same value when there is nothing to mask, so clean records cost no copy.
 */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
  if (typeof value === 'number') return value >= 1e11 || value <= -1e11 ? redactNumber(String(value), value) : value;
  if (value instanceof ExactNumber) return redactNumber(value.value, value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = redactValue(value[i]);
      if (v !== value[i]) (changed ??= value.slice())[i] = v;
    }
    return changed ?? value;
  }
  if (value instanceof Error) return value;
  let out: Record<string, unknown> | undefined;
  let renamed = false;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    const rule = ruleOf(key);
    const next = rule === 'redact' ? (v === undefined || v === null ? v : REDACTED) : rule === 'email' ? maskEmail(v) : redactValue(v);
    if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
    // a secret as a key (`metadata: {"4242424242424242": ...}`): no key shorter can hold one
    if (key.length >= 12 && scrub(key) !== key) renamed = true;
  }
  return renamed ? redactKeys(out ?? (value as Record<string, unknown>)) : (out ?? value);
}

/** An object with every key that holds a secret masked as text (two keys masked alike keep the last value). */
function redactKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in value) Object.defineProperty(out, key.length >= 12 ? scrub(key) : key, { value: value[key], enumerable: true, writable: true, configurable: true });
  return out;
}

/** An integer of 12 to 19 digits, the length of a card number. */
const CARD_LENGTH_INTEGER = /^-?\d{12,19}$/;

/**
 * A number, plain or exact, is written as it is, except an integer of 12 to 19 digits: a card number
 * sent as a JSON number, redacted as the same digits in a string would be (a bare run, see isCardNumber).
 */
function redactNumber(text: string, value: number | ExactNumber): unknown {
  return CARD_LENGTH_INTEGER.test(text) ? REDACTED_CARD : value;
}

/** A difference of two answers at a JSON path: its values redacted by the field the path ends in, then as text. */
export function redactAt<T extends { path: string; primary?: unknown; candidate?: unknown }>(d: T): T {
  const field = /([^.[\]]+)(\[\d+\])*$/.exec(d.path)?.[1] ?? '';
  const rule = ruleOf(field);
  const apply = (v: unknown) => (rule === 'redact' ? (v === undefined || v === null ? v : REDACTED) : rule === 'email' ? maskEmail(v) : redactValue(v));
  const out = { ...d };
  // a path names keys, and a key can hold a secret (`metadata.4242424242424242`)
  out.path = scrub(d.path);
  if ('primary' in d) out.primary = apply(d.primary);
  if ('candidate' in d) out.candidate = apply(d.candidate);
  return out;
}
