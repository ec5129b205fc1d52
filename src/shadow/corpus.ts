/**
 * The replay corpus: for sampled translated exchanges, what `paybridge replay` needs to run them again
 * through another build of the translator, offline: the legacy request and the answer the client got,
 * and each current request sent with the answer it got. Every secret is replaced by a stable
 * placeholder of the same kind (one key, one placeholder, in every entry), so the corpus holds no
 * secret and a replayed request still passes the translator's checks. Bounded in bytes and rotated.
 */
import { createHash } from 'node:crypto';
import { MAX_JSON_DEPTH, parseJsonValue, stringifyJson } from '../contract/json.js';
import { peekJwtKind } from '../contract/jwt.js';
import { isCardNumber } from '../observability/redact.js';
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
const TEST_CARDS: Readonly<Record<string, string>> = { '4000000000000002': '4000000000000002', '4000000000003220': '4000000000003220' };
const CVC_FIELD = /^(card)?(cvc|cvv|cvn|ccv|cvd|csc)\d?$|securitycode|verificationcode/i;

/**
 * A secret as its placeholder of the same kind: keys keep their environment and kind
 * (`sandbox_sk_` + a digest), JWTs their kind (an unsigned token with a placeholder subject), checkout
 * and merchant tokens their prefix, e-mail addresses their shape, card numbers the test card of their
 * outcome. Anything else is returned as it is.
 */
export function placeholderOf(value: string): string {
  const key = /^(sandbox|live)_(pk|sk|api)_/.exec(value);
  if (key) return `${key[0]}corpus${digest(value)}`;
  const kind = peekJwtKind(value);
  if (kind) return `${b64('{"alg":"none","typ":"JWT"}')}.${b64(JSON.stringify({ sub: `corpus_${digest(value)}`, kind }))}.${b64('corpus')}`;
  const token = /^(chk|mtok)_/.exec(value);
  if (token) return `${token[0]}corpus${digest(value)}`;
  const email = /^[^@\s]+@([^@\s]+)$/.exec(value);
  if (email) return `u${digest(value, 8)}@example.com`;
  if (/^[\d -]{12,23}$/.test(value) && isCardNumber(value)) return TEST_CARDS[value.replace(/\D/g, '')] ?? '4242424242424242';
  return value;
}

/** Secrets inside a longer text (a magic link's `?token=chk_...`, a note with an e-mail address). */
const IN_TEXT = /\b(?:sandbox|live)_(?:pk|sk|api)_[A-Za-z0-9_-]+|\b(?:chk|mtok)_[A-Za-z0-9_-]+|\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** A string as the corpus keeps it: a secret by its placeholder, whole or inside the text. */
function textWithPlaceholders(value: string): string {
  const whole = placeholderOf(value);
  return whole !== value ? whole : value.replace(IN_TEXT, (secret) => placeholderOf(secret));
}

/** A JSON value with every string that holds a secret replaced by its placeholder, CVC fields by `123`. */
export function withPlaceholders(value: unknown, field = ''): unknown {
  if (typeof value === 'string') return CVC_FIELD.test(field) ? '123' : textWithPlaceholders(value);
  if (Array.isArray(value)) return value.map((v) => withPlaceholders(v, field));
  if (value === null || typeof value !== 'object' || value.constructor !== Object) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // a `__proto__` key a client sent (which the translation refuses) stays a key, not the prototype
    if (k === '__proto__') Object.defineProperty(out, k, { value: withPlaceholders(v, k), enumerable: true, writable: true, configurable: true });
    else out[k] = withPlaceholders(v, k);
  }
  return out;
}

/** Header values as placeholders: a credential's value (`Bearer <key>` too) by its kind. */
function headersWithPlaceholders(headers: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string') out[name] = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? placeholderOf(v) : v)) : value;
    else if (/^Bearer /i.test(value)) out[name] = `Bearer ${placeholderOf(value.replace(/^Bearer\s+/i, ''))}`;
    else out[name] = placeholderOf(value);
  }
  return out;
}

/** Path and query: every segment and value that holds a secret replaced (an e-mail in `?email=`). */
function pathWithPlaceholders(path: string): string {
  const q = path.indexOf('?');
  if (q < 0) return path;
  const params = new URLSearchParams(path.slice(q + 1));
  const out = new URLSearchParams();
  for (const [k, v] of params) out.append(k, placeholderOf(v));
  return `${path.slice(0, q)}?${out.toString()}`;
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
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** A legacy body as the corpus keeps it: JSON parsed (exact numbers kept), anything else as its text. */
function legacyBody(body: unknown): { body?: unknown; text?: true } {
  if (typeof body !== 'string') return body === undefined ? {} : { body };
  try {
    return { body: parseJsonValue(body) };
  } catch {
    return { body, text: true };
  }
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

  function entryOf(route: string, request: LegacyRequest, answer: LegacyResponse, calls: readonly { request: CurrentRequest; answer: CurrentResponse }[]): CorpusEntry | CorpusSkip {
    const body = legacyBody(request.body);
    if ([body.body, answer.body, ...calls.flatMap((c) => [c.request.body, c.answer.body])].some((v) => nestedDeeperThan(v, MAX_JSON_DEPTH))) return 'depth';
    return {
      type: 'exchange',
      time: new Date().toISOString(),
      route,
      requestId: request.requestId,
      legacy: {
        request: { method: request.method, path: pathWithPlaceholders(request.path), headers: headersWithPlaceholders(request.headers), body: withPlaceholders(body.body), text: body.text },
        answer: { status: answer.status, body: withPlaceholders(answer.body) },
      },
      current: calls.map(({ request: current, answer: got }) => ({
        request: { method: current.method, path: pathWithPlaceholders(current.path), headers: headersWithPlaceholders(current.headers) as Record<string, string>, body: withPlaceholders(current.body) },
        answer: { status: got.status, body: withPlaceholders(got.body) },
      })),
    };
  }

  return {
    /** Whether this exchange is kept (the sample rate). */
    sampled: () => options.sample >= 1 || Math.random() < options.sample,
    /** Records one translated exchange; never throws. */
    write(route: string, request: LegacyRequest, answer: LegacyResponse, calls: readonly { request: CurrentRequest; answer: CurrentResponse }[]): void {
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
