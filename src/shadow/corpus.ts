/**
 * The replay corpus: for sampled translated exchanges, what `paybridge replay` needs to run them again
 * through another build of the translator, offline: the legacy request and the answer the client got,
 * and each current request sent with the answer it got. Every secret the one redaction rule set finds
 * (observability/redact.ts, as for logs and records) is replaced by a stable placeholder of the same
 * kind (one key, one placeholder, in every entry), so the corpus holds no secret and a replayed
 * request still passes the translator's checks. Bounded in bytes and rotated.
 */
import { createHash } from 'node:crypto';
import { ID_PREFIX } from '../contract/ids.js';
import { duplicateKey, MAX_JSON_DEPTH, parseJsonValue, stringifyJson } from '../contract/json.js';
import { looksLikeJwt, peekJwtKind } from '../contract/jwt.js';
import { createRedactor, isCardNumber, REDACTED, secretQueryName, type Masks } from '../observability/redact.js';
import { rotatingLines } from '../observability/rotating-lines.js';
import type { CurrentRequest, CurrentResponse, LegacyRequest, LegacyResponse } from '../translate/index.js';

/** One current call of an exchange: the request sent and the answer it got. */
export interface CorpusCall {
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown };
  answer: { status: number; body?: unknown };
}

export interface CorpusEntry {
  type: 'exchange';
  time: string;
  route: string;
  /** The gateway's request id: the tracer of the errors the translation made itself, so a replay makes the same. */
  requestId?: string;
  legacy: {
    /** `body`: the JSON the client sent, parsed (replayed as JSON text, as it came), or with `text`, a body that was not JSON, as text. */
    request: { method: string; path: string; headers: Record<string, unknown>; body?: unknown; text?: true };
    answer: { status: number; body?: unknown };
  };
  current: CorpusCall[];
}

const digest = (value: string, length = 12) => createHash('sha256').update(value).digest('hex').slice(0, length);
const b64 = (value: string) => Buffer.from(value).toString('base64url');

/** Test cards by outcome (docs/decisions.md D-PAY-2): a card number becomes the test card of its outcome. */
const TEST_CARDS: Readonly<Record<string, string>> = {
  '4000000000000002': '4000000000000002',
  '4000000000003220': '4000000000003220',
};
/** The card verification code every CVC becomes: three digits, so a replayed pay passes the translator's checks. */
const CORPUS_CVC = '123';

/**
 * A secret as its placeholder of the same kind: keys keep their environment and kind
 * (`sandbox_sk_` + a digest), JWTs their kind (an unsigned token with a placeholder subject), checkout
 * and merchant tokens their prefix, e-mail addresses their shape, card numbers the test card of their
 * outcome. Anything else is returned as it is.
 */
export function placeholderOf(value: string): string {
  const key = /^(sandbox|live)_(pk|sk|api)_/.exec(value);
  if (key) return `${key[0]}corpus${digest(value)}`;
  if (value.startsWith('eyJ') && looksLikeJwt(value)) {
    const kind = peekJwtKind(value);
    return `${b64('{"alg":"none","typ":"JWT"}')}.${b64(JSON.stringify({ sub: `corpus_${digest(value)}`, ...(kind ? { kind } : {}) }))}.${b64('corpus')}`;
  }
  const token = /^(chk|mtok)_/.exec(value);
  if (token) return `${token[0]}corpus${digest(value)}`;
  const email = /^[^@\s]+@([^@\s]+)$/.exec(value);
  if (email) return `u${digest(value, 8)}@example.com`;
  if (/^[\d -]{12,23}$/.test(value) && isCardNumber(value))
    return TEST_CARDS[value.replace(/\D/g, '')] ?? '4242424242424242';
  return value;
}

/** An id of the API's own kinds (`ptkn_...`, `ordr_...`): it names a resource, it opens nothing; a replay needs it as it was. */
const isApiId = (value: string): boolean =>
  Object.values(ID_PREFIX).some((prefix) => value.startsWith(prefix)) && /^[a-z0-9]+_[A-Za-z0-9_-]{1,64}$/.test(value);

/**
 * A credential's value as the corpus keeps it: `Bearer`/`Basic` and a placeholder of the token's kind;
 * a text holding secrets (a magic link) with each replaced; an id of the API's kinds as it is; any
 * other value an opaque token of letters and digits, so a checkout token still has its form.
 */
function credentialPlaceholder(value: string): string {
  const scheme = /^(Bearer|Basic)(\s+)(.*)$/is.exec(value);
  if (scheme) return `${scheme[1]}${scheme[2]}${credentialPlaceholder(scheme[3]!)}`;
  const whole = placeholderOf(value);
  if (whole !== value || isApiId(value)) return whole;
  const inside = corpusRedactor.scrub(value);
  return inside !== value ? inside : `corpus${digest(value)}`;
}

/**
 * The corpus's masks over the one rule set (observability/redact.ts): every secret the rules find is
 * written as a stable placeholder of its kind, a CVC as 123, so the corpus holds no secret and a
 * replayed request still passes the translator's checks.
 */
const CORPUS_MASKS: Masks = {
  shape(kind, secret) {
    if (kind === 'cvc') return CORPUS_CVC;
    if (kind === 'credential') return credentialPlaceholder(secret);
    if (kind === 'card') return /^[\d -]{12,23}$/.test(secret) ? placeholderOf(secret) : '4242424242424242';
    const placeholder = placeholderOf(secret);
    return placeholder !== secret ? placeholder : REDACTED;
  },
  named(kind, value) {
    if (value === undefined || value === null) return value;
    if (kind === 'cvc') return CORPUS_CVC;
    if (typeof value !== 'string') return kind === 'card' ? '4242424242424242' : corpusRedactor.redactValue(value);
    if (kind === 'card') return isCardNumber(value) ? placeholderOf(value) : REDACTED;
    if (kind === 'email') return value.includes('@') ? placeholderOf(value) : corpusRedactor.scrub(value);
    return credentialPlaceholder(value);
  },
};

const corpusRedactor = createRedactor(CORPUS_MASKS);

/** A JSON value as the corpus keeps it: every secret by its placeholder (a body that is not JSON as text, never raw). */
const withPlaceholders = (value: unknown): unknown => corpusRedactor.redactValue(value);

/** Header values as placeholders: a credential's value (`Bearer <key>` too) by its kind, by the header's name or the value's shape. */
const headersWithPlaceholders = (headers: Readonly<Record<string, unknown>>) =>
  withPlaceholders(headers) as Record<string, unknown>;

/** Path and query: every value that holds a secret replaced (an e-mail in `?email=`, a key in `?api_key=`). */
function pathWithPlaceholders(path: string): string {
  const q = path.indexOf('?');
  if (q < 0) return corpusRedactor.scrub(path);
  const params = new URLSearchParams(path.slice(q + 1));
  const out = new URLSearchParams();
  for (const [k, v] of params) {
    const kind = secretQueryName(k);
    out.append(corpusRedactor.scrub(k), kind ? String(CORPUS_MASKS.named(kind, v)) : corpusRedactor.scrub(v));
  }
  return `${corpusRedactor.scrub(path.slice(0, q))}?${out.toString()}`;
}

export interface CorpusOptions {
  file: string;
  /** Bytes of the current file before it is rotated (`file.1`, `file.2`, ...). */
  maxBytes: number;
  /** Rotated files kept besides the current one. */
  keep: number;
  /** Share of translated exchanges kept. */
  sample: number;
}

/** The largest entry kept: an exchange larger than this (or a quarter of maxBytes) is left out and counted. */
const MAX_ENTRY_BYTES = 1024 * 1024;

/** Why an exchange was left out of the corpus: too deep to walk, too large, or an unexpected failure. */
export type CorpusSkip = 'depth' | 'size' | 'error';

/**
 * Whether a value nests deeper than `limit` objects and arrays, found without recursion (a body of
 * 10,000 levels, which the translation refuses, must not overflow the stack that writes its entry).
 */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * A legacy body as the corpus keeps it: JSON parsed (exact numbers kept); anything else as its text,
 * a body giving a key twice included (parsing it would keep one of the two, and its replay would not
 * be the request the gateway refused).
 */
function legacyBody(body: unknown): { body?: unknown; text?: true } {
  if (typeof body !== 'string') return body === undefined ? {} : { body };
  try {
    if (duplicateKey(body) === undefined) return { body: parseJsonValue(body) };
  } catch {
    // not JSON: kept as text
  }
  return { body, text: true };
}

/**
 * The corpus writer: entries with placeholders, one JSON line each; the file rotated past maxBytes.
 * Writing an entry never fails the request it records: an exchange nested deeper than the gateway
 * accepts, or larger than an entry may be, is left out (`skipped` says why), and so is one whose
 * writing fails.
 */
export function createCorpus(options: CorpusOptions, skipped: (reason: CorpusSkip) => void = () => {}) {
  const lines = rotatingLines(options);
  const maxEntryBytes = Math.min(MAX_ENTRY_BYTES, Math.floor(options.maxBytes / 4));

  function entryOf(
    route: string,
    request: LegacyRequest,
    answer: LegacyResponse,
    calls: readonly { request: CurrentRequest; answer: CurrentResponse }[],
  ): CorpusEntry | CorpusSkip {
    const body = legacyBody(request.body);
    if (
      [body.body, answer.body, ...calls.flatMap((c) => [c.request.body, c.answer.body])].some((v) =>
        nestedDeeperThan(v, MAX_JSON_DEPTH),
      )
    )
      return 'depth';
    return {
      type: 'exchange',
      time: new Date().toISOString(),
      route,
      requestId: request.requestId,
      legacy: {
        request: {
          method: request.method,
          path: pathWithPlaceholders(request.path),
          headers: headersWithPlaceholders(request.headers),
          body: withPlaceholders(body.body),
          text: body.text,
        },
        answer: { status: answer.status, body: withPlaceholders(answer.body) },
      },
      current: calls.map(({ request: current, answer: got }) => ({
        request: {
          method: current.method,
          path: pathWithPlaceholders(current.path),
          headers: headersWithPlaceholders(current.headers) as Record<string, string>,
          body: withPlaceholders(current.body),
        },
        answer: { status: got.status, body: withPlaceholders(got.body) },
      })),
    };
  }

  return {
    /** Whether this exchange is kept (the sample rate). */
    sampled: () => options.sample >= 1 || Math.random() < options.sample,
    /** Records one translated exchange; never throws. */
    write(
      route: string,
      request: LegacyRequest,
      answer: LegacyResponse,
      calls: readonly { request: CurrentRequest; answer: CurrentResponse }[],
    ): void {
      try {
        const entry = entryOf(route, request, answer, calls);
        if (typeof entry === 'string') return skipped(entry);
        const line = `${stringifyJson(entry)}\n`;
        if (Buffer.byteLength(line) > maxEntryBytes) return skipped('size');
        lines.write(line);
      } catch {
        skipped('error');
      }
    },
    async close(): Promise<void> {
      await lines.close();
    },
  };
}

export type Corpus = ReturnType<typeof createCorpus>;
