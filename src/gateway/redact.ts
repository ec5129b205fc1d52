/**
 * Keeps secrets out of logs and shadow records: credential headers and secret fields replaced wherever
 * they appear in a record, and free text (error messages) scrubbed of keys, JWTs, tokens and card numbers.
 */
const CREDENTIAL_HEADERS = [
  'authorization', 'limepay-publickey', 'limepay-secretkey', 'limepay-token', 'limepay-customerjwt',
  'limepay-merchantjwt', 'limepay-platformjwt', 'limepay-checkouttoken', 'limepay-merchanttoken', 'cookie',
];
const SECRET_FIELDS = ['cardNumber', 'cardCvc', 'cvc', 'cvv', 'serviceKey', 'apiKey', 'secretKey', 'merchantToken', 'publicKey', 'jwt', 'token', 'agreementToken'];

export const REDACTED = '[redacted]';

const PATTERNS: [RegExp, string][] = [
  [/([?&](?:token|key|secret|apiKey|api_key)=)[^&\s"#]*/gi, '$1[redacted]'],
  [/\b(sandbox|live)_(pk|sk|api)_[A-Za-z0-9_-]+/g, '$1_$2_[redacted]'],
  [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[redacted jwt]'],
  [/\b\d{12,19}\b/g, '[redacted card]'],
  [/\b(mtok|chk)_[A-Za-z0-9_-]+/g, '$1_[redacted]'],
];

/** One cheap test before the replacements: most strings hold nothing to mask. */
const MAYBE_SECRET = /(sandbox_|live_|eyJ|mtok_|chk_|\d{12}|token=|key=|secret=)/i;

/** Free text with every key, JWT, merchant/checkout token and card-like number masked. */
export function scrub(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const SECRET_FIELD_SET = new Set(SECRET_FIELDS.map((f) => f.toLowerCase()));
const CREDENTIAL_HEADER_SET = new Set(CREDENTIAL_HEADERS);

/**
 * A JSON value with secret fields and credential headers replaced and free text scrubbed (log lines,
 * shadow records). Returns the very same value when there is nothing to mask, so clean records cost
 * no copy.
 */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
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
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    const lower = key.toLowerCase();
    const next = SECRET_FIELD_SET.has(lower) || CREDENTIAL_HEADER_SET.has(lower) ? REDACTED : redactValue(v);
    if (next !== v) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return out ?? value;
}
