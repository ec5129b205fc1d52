/**
 * Keeps secrets and personal data out of everything paybridge writes (log lines, shadow records, the
 * report and its page, the replay corpus, metric labels): one rule set, used by every writer. Below
 * gateway/ and shadow/. The rules find a secret; a writer's masks say what is written in its place
 * (`[redacted]` in logs and records; a placeholder of the same kind in the corpus, so a replay passes).
 *
 * - by name (a field at any depth, a header, a query parameter; any case, words split at `_`, `-`,
 *   `[`, `.` and camel case): credentials, card numbers, every spelling of the card verification code,
 *   PINs, passwords, sessions, tokens, signatures; customer e-mail fields are masked (`a***@example.com`);
 * - by shape, in any string (messages, URLs, unknown fields, bodies that are not JSON, keys and JSON
 *   paths): keys (`sandbox_sk_...`), JWTs, merchant and checkout tokens, `Bearer`/`Basic` values,
 *   card numbers (Luhn-valid, with or without spaces or dashes, inside free text, or glued to a word
 *   by `_`), a CVC written out (`cvc 737`), `name=value` and `"name": value` pairs whose name is a
 *   secret's, e-mail addresses;
 * - numbers stay numbers (exact ones exact), except integers of 12 to 19 digits: a card number sent
 *   as a JSON number.
 */
import { ExactNumber } from '../contract/json.js';

export const REDACTED = '[redacted]';
const REDACTED_CARD = '[redacted card]';

/** What a name marks its value as. */
export type NameKind = 'credential' | 'card' | 'cvc' | 'email';
/** What a secret found by its shape in a text is. */
type ShapeKind = 'key' | 'jwt' | 'token' | 'card' | 'cvc' | 'email' | 'credential';

/** What a writer puts in place of each secret the rules find. */
export interface Masks {
  /** A secret found by its shape inside a text (the whole match: `sandbox_sk_...`, `4242 4242 ...`, the digits of `cvc 737`). */
  shape(kind: ShapeKind, secret: string): string;
  /** The value of a field, header or query parameter whose name marks a secret (any JSON value, null and absent included). */
  named(kind: NameKind, value: unknown): unknown;
}

/** Names (normalised: lower case, letters and digits only) that mark a secret as a whole, and what they mark. */
const NAMES: Readonly<Record<string, NameKind>> = Object.fromEntries([
  ['magiclink', 'credential'],
  ...['cardnumber', 'pan', 'cardno', 'ccnumber', 'creditcardnumber'].map((f) => [f, 'card']),
  // personal data
  ...['email', 'emailaddress', 'customeremail', 'customeremailaddress', 'contactemail', 'contactemailaddress'].map(
    (f) => [f, 'email'],
  ),
]) as Record<string, NameKind>;

/** Letters inside a normalised name that mark a card verification code (`cardCvv`, `cvcCode`, `card[cvc]`, `cvn2`, `x-cvv`, `cvvnumber`). */
const CVC_INSIDE = /cvc|cvv|cvn|ccv/;
/** Words (digits after them aside) that mark a card verification code wherever they stand (`cid`, `csc`, `cvd2`, `cav2`). */
const CVC_WORDS = new Set(['cvd', 'csc', 'cid', 'cav']);
/** Endings of a normalised name that mark a card verification code written out (`securityCode`, `cardVerificationValue`). */
const CVC_ENDING = /(?:securitycode|verificationcode|verificationvalue|cardcode)$/;
/** Words that make a name a secret's wherever they stand (`pin`, `user_pwd`, `session`, `stripe_sk`, `x-cookie`). */
const SECRET_WORDS = new Set(['pin', 'pwd', 'pass', 'passcode', 'session', 'sk', 'otp', 'cookie']);
/**
 * Endings of a normalised name that mark a secret whatever comes before (`X-Auth-Token`,
 * `Proxy-Authorization`, `client_secret`, `x-api-key`, `Limepay-CustomerJwt`, `cardExpiry`):
 * credentials, tokens, keys, passwords, signatures, JWTs, a card's expiry.
 */
const SECRET_ENDING =
  /(?:authorization|token|secret|secretkey|publickey|servicekey|apikey|privatekey|accesskey|signingkey|password|passwd|passphrase|signature|jwt|expiry)$/;
/**
 * Query names that are secrets there though not as a field name (`?key=`, `?card=`, `?sig=`, an OAuth
 * `?code=`); every name above counts in a query too (`?cvv=`, `?api_key=`, `?jwt=`, `?signature=`).
 */
const QUERY_NAMES = new Set(['key', 'card', 'sig', 'code', 'auth']);

/** A name's words: split at anything but letters and digits, and where a lower-case letter or digit meets an upper-case one. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

function kindOfName(name: string): NameKind | undefined {
  const normalised = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const exact = Object.hasOwn(NAMES, normalised) ? NAMES[normalised] : undefined;
  if (exact) return exact;
  if (CVC_INSIDE.test(normalised) || CVC_ENDING.test(normalised)) return 'cvc';
  const words = wordsOf(name);
  if (words.some((w) => CVC_WORDS.has(w.replace(/\d+$/, '')))) return 'cvc';
  if (SECRET_ENDING.test(normalised) || words.some((w) => SECRET_WORDS.has(w))) return 'credential';
  return undefined;
}

/** The kind of a field or header name; names seen are remembered (log lines and answers repeat a few hundred names). */
const nameCache = new Map<string, NameKind | null>();
function secretName(name: string): NameKind | undefined {
  let kind = nameCache.get(name);
  if (kind === undefined) {
    kind = kindOfName(name) ?? null;
    if (nameCache.size >= 10_000) nameCache.clear();
    nameCache.set(name, kind);
  }
  return kind ?? undefined;
}

/** The kind of a query parameter's name (decoded): a field's rule, or one of the query-only names. */
export function secretQueryName(name: string): NameKind | undefined {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // a malformed name is matched as written
  }
  return (
    secretName(decoded) ?? (QUERY_NAMES.has(decoded.toLowerCase().replace(/[^a-z0-9]/g, '')) ? 'credential' : undefined)
  );
}

/** `alice@example.com` -> `a***@example.com`. */
const maskAddress = (address: string): string => {
  const at = address.lastIndexOf('@');
  return at > 0 ? `${address[0]}***@${address.slice(at + 1)}` : REDACTED;
};

/** The masks of logs, records and the report: `[redacted]`, keeping what tells a reader the kind (`sandbox_sk_[redacted]`, `a***@example.com`). */
const MASKS: Masks = {
  shape(kind, secret) {
    switch (kind) {
      case 'key':
        return `${/^(?:sandbox|live|sk|pk|rk)_[a-z]+_/.exec(secret)?.[0] ?? ''}${REDACTED}`;
      case 'token':
        return `${secret.slice(0, secret.indexOf('_') + 1)}${REDACTED}`;
      case 'jwt':
        return '[redacted jwt]';
      case 'card':
        return REDACTED_CARD;
      case 'email':
        return maskAddress(secret);
      default:
        return REDACTED;
    }
  },
  named(kind, value) {
    if (value === undefined || value === null) return value;
    if (kind === 'email')
      return typeof value === 'string' && value.includes('@') ? maskAddress(value) : standard.redactValue(value);
    return REDACTED;
  },
};

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

/** A query parameter (name and value) in a URL, a form body or a text: after `?`, `&`, `;`, white space or at the start. */
const QUERY_PARAMETER = /(^|[?&;\s])([^=&;\s"#?]+)=([^&;\s"#]*)/g;
/** A `"name": value` pair in a text that is not JSON as a whole (a malformed body, a message quoting one). */
const JSON_PAIR = /"([^"\\\r\n]{1,64})"(\s*:\s*)("(?:[^"\\]|\\.)*"?|[^\s,}\]]+)/g;
const SCHEME_VALUE = /\b(Bearer|Basic)(\s+)([A-Za-z0-9._~+/-]+=*)/gi;
/** A scheme's value that is a credential, not a word of prose (`Basic plan`): 8 characters or more, with a digit, a sign, or mixed case. */
const credentialLike = (value: string): boolean =>
  value.length >= 8 && (/[0-9._~+/=-]/.test(value) || (/[A-Z]/.test(value.slice(1)) && /[a-z]/.test(value)));
const KEY = /\b(?:(?:sandbox|live)_(?:pk|sk|api)|(?:sk|pk|rk)_(?:live|test))_[A-Za-z0-9_-]+/g;
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const TOKEN = /\b(?:mtok|chk)_[A-Za-z0-9_-]+/g;
/**
 * A card number glued to a word by `_` (`pan_5555555555554444`, `card_4242...`): 13 to 19 digits
 * right after the underscore up to the end of the word, Luhn-valid. An id's opaque part never is one
 * (ours are 20 characters; a run inside one ends before the id does).
 */
const GLUED_CARD = /_(\d{13,19})(?![A-Za-z0-9])/g;
/** A card verification code written out: `cvc 737`, `CVV: 1234`, `security code 123`. */
const CVC_IN_TEXT =
  /\b(cvc2?|cvv2?|cvn2?|ccv|cvd|csc|cid|security code|card code|verification code)(\s*[:=#-]?\s*)(\d{3,4})\b/gi;
const EMAIL = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g;

/**
 * One cheap test before the replacements: most strings hold nothing to mask. Its card part is the card
 * rule's start (a digit after a non-word character, then eleven more, spaces, dashes or %20 between
 * them), so ids with digit runs inside them (`tran_f67cd494000003890a28`) skip the replacements.
 */
const MAYBE_SECRET =
  /sandbox_|live_|_live_|_test_|eyJ|mtok_|chk_|@|=|"\s*:|bearer|basic|cv[cvdn]|ccv|csc|cid|security code|card code|verification code|(?:^|\W|_)\d(?:(?:[ -]|%20)?\d){11}/i;

/** An integer of 12 to 19 digits, the length of a card number. */
const CARD_LENGTH_INTEGER = /^-?\d{12,19}$/;

/** The rules over a writer's masks: scrub for text, redactValue for JSON values, redactAt for a difference. */
export function createRedactor(masks: Masks) {
  const cardOrNot = (match: string) => (isCardNumber(match) ? masks.shape('card', match) : match);

  /**
   * Card numbers in a text masked: Luhn-valid digit groups, or a bare run of 12-19 digits, but not the
   * groups of a UUID. A text where a run started inside one is scanned again with its UUIDs blanked out,
   * so a card beside a UUID is still masked whole.
   */
  function redactCards(text: string): string {
    let uuid = false;
    const out = text.replace(CARD, (match, at: number) =>
      startsInUuid(text, at) ? ((uuid = true), match) : cardOrNot(match),
    );
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

  /** A secret's value written where a text held it: a string as the masks give it. */
  const written = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

  /** A query parameter's value masked when its name is a secret's. */
  function queryParameter(match: string, before: string, name: string, value: string): string {
    const kind = secretQueryName(name);
    if (!kind) return match;
    let decoded = value;
    try {
      decoded = decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      // masked as written
    }
    return `${before}${name}=${written(masks.named(kind, decoded))}`;
  }

  /** A `"name": value` pair's value masked when its name is a secret's. */
  function jsonPair(match: string, name: string, separator: string, value: string): string {
    const kind = secretName(name);
    if (!kind) return match;
    const inner = value.startsWith('"')
      ? value.slice(1, value.length > 1 && value.endsWith('"') ? -1 : undefined)
      : value;
    return `"${name}"${separator}${JSON.stringify(written(masks.named(kind, inner)))}`;
  }

  const TEXT_RULES: ((text: string) => string)[] = [
    (text) => text.replace(QUERY_PARAMETER, queryParameter),
    (text) => text.replace(JSON_PAIR, jsonPair),
    (text) =>
      text.replace(SCHEME_VALUE, (match, scheme: string, space: string, value: string) =>
        credentialLike(value) ? `${scheme}${space}${masks.shape('credential', value)}` : match,
      ),
    (text) => text.replace(KEY, (key) => masks.shape('key', key)),
    (text) => text.replace(JWT, (jwt) => masks.shape('jwt', jwt)),
    (text) => text.replace(TOKEN, (token) => masks.shape('token', token)),
    redactCards,
    (text) =>
      text.replace(GLUED_CARD, (match, digits: string) => (luhn(digits) ? `_${masks.shape('card', digits)}` : match)),
    (text) =>
      text.replace(
        CVC_IN_TEXT,
        (_m, word: string, separator: string, digits: string) => `${word}${separator}${masks.shape('cvc', digits)}`,
      ),
    (text) => text.replace(EMAIL, (address) => masks.shape('email', address)),
  ];

  /** Free text with every key, JWT, token, card number, CVC, secret name's value and e-mail address masked. */
  function scrub(text: string): string {
    if (!MAYBE_SECRET.test(text)) return text;
    let out = text;
    for (const rule of TEXT_RULES) out = rule(out);
    return out;
  }

  /** The value of a field by its name's rule, else as any value. */
  const field = (key: string, v: unknown): unknown => {
    const kind = secretName(key);
    return kind ? masks.named(kind, v) : redactValue(v);
  };

  /**
   * A JSON value with secret fields replaced, e-mail fields masked and free text scrubbed. Returns the
   * very same value when there is nothing to mask, so clean records cost no copy.
   */
  function redactValue(value: unknown): unknown {
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
      const next = field(key, v);
      if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
      // a secret as a key (`metadata: {"4242424242424242": ...}`): no key shorter can hold one
      if (key.length >= 12 && scrub(key) !== key) renamed = true;
    }
    return renamed ? redactKeys(out ?? (value as Record<string, unknown>)) : (out ?? value);
  }

  /** An object with every key that holds a secret masked as text (two keys masked alike keep the last value). */
  function redactKeys(value: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key in value)
      Object.defineProperty(out, key.length >= 12 ? scrub(key) : key, {
        value: value[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }

  /**
   * A number, plain or exact, is written as it is, except an integer of 12 to 19 digits: a card number
   * sent as a JSON number, redacted as the same digits in a string would be (a bare run, see isCardNumber).
   */
  function redactNumber(text: string, value: number | ExactNumber): unknown {
    return CARD_LENGTH_INTEGER.test(text) ? masks.shape('card', text) : value;
  }

  /** A difference of two answers at a JSON path: its values redacted by the field the path ends in, then as text. */
  function redactAt<T extends { path: string; primary?: unknown; candidate?: unknown }>(d: T): T {
    const name = /([^.[\]]+)(\[\d+\])*$/.exec(d.path)?.[1] ?? '';
    const out = { ...d };
    // a path names keys, and a key can hold a secret (`metadata.4242424242424242`)
    out.path = scrub(d.path);
    if ('primary' in d) out.primary = field(name, d.primary);
    if ('candidate' in d) out.candidate = field(name, d.candidate);
    return out;
  }

  return { scrub, redactValue, redactAt };
}

type Redactor = ReturnType<typeof createRedactor>;

/** The redactor of logs, records and the report (MASKS). */
const standard: Redactor = createRedactor(MASKS);

/** Free text with every key, JWT, token, card number, CVC, secret name's value and e-mail address masked. */
export const scrub = standard.scrub;
/** A JSON value with secret fields replaced, e-mail fields masked and free text scrubbed (the same value when nothing is masked). */
export const redactValue = standard.redactValue;
/** A difference of two answers at a JSON path, redacted by the field the path ends in. */
export const redactAt = standard.redactAt;
