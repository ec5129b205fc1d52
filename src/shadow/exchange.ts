/**
 * What a comparison works on: one served exchange, the answers of either generation, and the legacy
 * requests a comparison derives from it (the candidate call, readbacks, probes).
 */
import { parseJsonBody } from '../contract/json.js';
import { answerBody } from '../translate/answers.js';
import { LEGACY_CREDENTIAL_HEADERS } from '../translate/credentials.js';
import type { LegacyRequest } from '../translate/index.js';
import type { CompiledMapping } from '../translate/router.js';
import type { WriteTicket } from './write-order.js';

export interface Answer {
  status: number;
  body: unknown;
  latencyMs: number;
}

/** One served exchange, handed over after the client got its answer. */
export interface Exchange {
  mode: 'shadow' | 'canary';
  route: string;
  requestId: string;
  compiled: CompiledMapping;
  params: Record<string, string>;
  /** The legacy request as received (header names in lower case, body as text). */
  request: { method: string; path: string; headers: Record<string, string | string[]>; body?: string };
  /** What the client got: from the legacy upstream (shadow) or the translated current call (canary). */
  primary: Answer;
  /** Size of the bodies the exchange holds (request and answer), for the queue's byte bound. */
  bytes: number;
  /** The merchant the credential belongs to, when known (modes set per merchant). */
  merchant?: string | undefined;
  /** The client's kind, from its User-Agent: wordpress, magento, dotnet or other. */
  client?: ClientKind;
  /** A shadowed write: its place in the order of the writes the gateway forwarded (write-order.ts). */
  ticket?: WriteTicket | undefined;
}

export type ClientKind = 'wordpress' | 'magento' | 'dotnet' | 'other';

/** The family of a client by its User-Agent (WordPress's HTTP API, Magento, .NET's HttpClient), else `other`. */
export function clientKindOf(userAgent: unknown): ClientKind {
  const ua = Array.isArray(userAgent) ? String(userAgent[0] ?? '') : typeof userAgent === 'string' ? userAgent : '';
  if (/wordpress|woocommerce/i.test(ua)) return 'wordpress';
  if (/magento/i.test(ua)) return 'magento';
  if (/\.net|dotnet|httpclient|limepayapi/i.test(ua)) return 'dotnet';
  return 'other';
}

/** A legacy answer as it came: parsed only when its comparison runs (a dropped one never is). */
export interface RawAnswer {
  status: number;
  text: string;
  contentType: unknown;
  latencyMs: number;
}

/** An exchange as queued: a shadow primary's body may still be text. */
export type QueuedExchange = Omit<Exchange, 'primary'> & { primary: Answer | RawAnswer };

export const parsed = (ex: QueuedExchange): Exchange =>
  'text' in ex.primary
    ? Object.assign({}, ex, {
        primary: {
          status: ex.primary.status,
          body: answerBody(ex.primary.text, ex.primary.contentType),
          latencyMs: ex.primary.latencyMs,
        },
      })
    : (ex as Exchange);

/** A write that went through: 2xx, or the legacy 403 of a 3DS challenge (the first step of a pay). */
export function succeeded(answer: Answer): boolean {
  if (answer.status < 300) return true;
  const body = answer.body as { paymentActionRequired?: unknown } | undefined;
  return answer.status === 403 && typeof body === 'object' && body !== null && body.paymentActionRequired !== undefined;
}

/** A request body as JSON for records and readbacks; as text when it is not JSON (or too deep). */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return parseJsonBody(text);
  } catch {
    return text;
  }
}

/** The legacy credential header of a request, alone: what a readback sends. */
export function credentialHeaders(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = { accept: 'application/json' };
  for (const [name] of LEGACY_CREDENTIAL_HEADERS) if (headers[name] !== undefined) out[name] = headers[name]!;
  return out;
}

export function credentialValue(headers: Record<string, string | string[]>): string {
  for (const [name] of LEGACY_CREDENTIAL_HEADERS) {
    const v = headers[name];
    if (typeof v === 'string') return v;
  }
  return '';
}

/** A legacy request derived from the exchange (its own by default), with the request id `<id>:<suffix>`. */
export const asLegacyRequest = (ex: Exchange, suffix: string, request = ex.request): LegacyRequest => ({
  method: request.method,
  path: request.path,
  headers: request.headers,
  requestId: `${ex.requestId}:${suffix}`,
  body: request.body,
});
