import { Agent } from 'undici';
import { ID_PREFIX } from '../../src/contract/ids.js';
import { bridgeInterceptor } from '../../src/translate/interceptor.js';
import type { TestSandbox } from './sandbox.js';

export interface LegacyCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

export interface Answer {
  status: number;
  body: unknown;
}

async function send(
  base: string,
  call: LegacyCall,
  dispatcher?: Agent | ReturnType<Agent['compose']>,
): Promise<Answer> {
  const res = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers: { ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers },
    ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    ...(dispatcher ? { dispatcher } : {}),
  } as RequestInit);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The same legacy call two ways: to the sandbox's legacy face, and through the translator to its current face. */
export function parityClients(
  sb: TestSandbox,
  options: Parameters<typeof bridgeInterceptor>[0] = { currentUrl: sb.currentUrl },
) {
  const bridge = new Agent().compose(bridgeInterceptor(options));
  return {
    legacy: (call: LegacyCall) => send(sb.legacyUrl, call),
    /** Sent to the legacy URL; the interceptor takes it to the current face in-process. */
    translated: (call: LegacyCall) => send(sb.legacyUrl, call, bridge),
  };
}

// every prefix of the contract, and the sandbox's checkout tokens (chk_) and legacy card ids (card_)
const PREFIXES = [...Object.values(ID_PREFIX).map((p) => p.slice(0, -1)), 'chk', 'card'].join('|');
const ID = new RegExp(`^(${PREFIXES})_[A-Za-z0-9_-]+$`);
const EMBEDDED_ID = new RegExp(`\\b(${PREFIXES})_[A-Za-z0-9_-]+`, 'g');
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Ids, timestamps, tracers, generated keys and face URLs replaced by placeholders: what may differ between two equal calls. */
export function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  if (typeof value !== 'string') return value;
  if (ID.test(value)) return `<${value.slice(0, value.indexOf('_'))}>`;
  if (TIMESTAMP.test(value)) return '<timestamp>';
  if (DATE.test(value)) return '<date>';
  if (UUID.test(value)) return '<uuid>';
  if (/^sandbox_(pk|sk)_[A-Za-z0-9_-]{24}$/.test(value)) return '<generated key>';
  return value.replace(/^http:\/\/127\.0\.0\.1:\d+/, '<face>').replace(EMBEDDED_ID, '<$1>');
}
