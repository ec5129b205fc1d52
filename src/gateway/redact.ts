/**
 * Keeps secrets out of logs and shadow records: pino redaction paths for structured fields, and a
 * scrubber for free text (error messages) that masks keys, JWTs, tokens, card numbers and CVCs.
 */
const CREDENTIAL_HEADERS = [
  'authorization', 'limepay-publickey', 'limepay-secretkey', 'limepay-token', 'limepay-customerjwt',
  'limepay-merchantjwt', 'limepay-platformjwt', 'limepay-checkouttoken', 'limepay-merchanttoken', 'cookie',
];
const SECRET_FIELDS = ['cardNumber', 'cardCvc', 'cvc', 'cvv', 'serviceKey', 'apiKey', 'secretKey', 'merchantToken', 'publicKey', 'jwt', 'token', 'agreementToken'];

export const REDACTED = '[redacted]';

/** pino `redact.paths`: every credential header and secret field wherever a request or record is logged. */
export const PINO_REDACT_PATHS = [
  ...CREDENTIAL_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `request.headers["${h}"]`, `*.headers["${h}"]`]),
  ...SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `body.${f}`, `*.body.${f}`]),
];

const PATTERNS: [RegExp, string][] = [
  [/\b(sandbox|live)_(pk|sk|api)_[A-Za-z0-9_-]+/g, '$1_$2_[redacted]'],
  [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '[redacted jwt]'],
  [/\b\d{12,19}\b/g, '[redacted card]'],
  [/\b(mtok|chk)_[A-Za-z0-9_-]+/g, '$1_[redacted]'],
];

/** Free text with every key, JWT, merchant/checkout token and card-like number masked. */
export function scrub(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

const SECRET_FIELD_SET = new Set(SECRET_FIELDS.map((f) => f.toLowerCase()));
const CREDENTIAL_HEADER_SET = new Set(CREDENTIAL_HEADERS);

/** A JSON value with secret fields and credential headers replaced and free text scrubbed (for shadow records). */
export function redactValue(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map(redactValue);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const lower = key.toLowerCase();
    out[key] = SECRET_FIELD_SET.has(lower) || CREDENTIAL_HEADER_SET.has(lower) ? REDACTED : redactValue(v);
  }
  return out;
}
