/**
 * Calls to the current API for translated legacy requests: one keep-alive undici Agent with connect,
 * headers and body timeouts. A failure is a PaybridgeError (502 upstream_error, 504 upstream_timeout).
 * Nothing is ever sent twice except a GET whose connection was reset, retried once.
 */
import { stringifyJson } from '../contract/json.js';
import { Agent, type Dispatcher } from 'undici';
import { PaybridgeError } from '../errors.js';
import { answerBody, type CurrentRequest, type CurrentResponse } from '../translate/engine.js';

export interface UpstreamOptions {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  /** Deadline of one whole exchange (headers and body). */
  requestMs: number;
  /** Largest upstream answer read, in bytes. */
  maxResponseBytes?: number;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET']);

interface Base {
  origin: string;
  path: string;
}

export function createUpstream(options: UpstreamOptions) {
  const agent = new Agent({
    connect: { timeout: options.connectMs },
    headersTimeout: options.headersMs,
    bodyTimeout: options.bodyMs,
    keepAliveTimeout: 30_000,
    connections: 512,
  });
  const maxBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
  const bases = new Map<string, Base>();
  const baseOf = (url: string): Base => {
    let base = bases.get(url);
    if (!base) {
      const parsed = new URL(url);
      base = { origin: parsed.origin, path: parsed.pathname.replace(/\/+$/, '') };
      bases.set(url, base);
    }
    return base;
  };

  /**
   * Runs one exchange, headers and body, under the request's deadline (epoch ms): past it the call is
   * aborted, however slowly the answer trickles in, and it is a 504 upstream_timeout.
   */
  async function underDeadline<T>(deadline: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(1, deadline - Date.now()));
    try {
      return await run(controller.signal);
    } catch (err) {
      if (controller.signal.aborted) throw new PaybridgeError('upstream_timeout', `the upstream did not answer within the request deadline (${options.requestMs} ms)`);
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async function once(base: Base, current: CurrentRequest, requestId: string, deadline: number): Promise<CurrentResponse> {
    return underDeadline(deadline, async (signal) => {
      const res = await agent.request({
        origin: base.origin,
        path: base.path + current.path,
        method: current.method as Dispatcher.HttpMethod,
        headers: { ...current.headers, 'x-request-id': requestId },
        body: current.body === undefined ? null : stringifyJson(current.body),
        signal,
      });
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > maxBytes) {
        res.body.destroy();
        throw new PaybridgeError('upstream_error', `the current API answer exceeds ${maxBytes} bytes`);
      }
      const text = await res.body.text();
      if (text.length > maxBytes) throw new PaybridgeError('upstream_error', `the current API answer exceeds ${maxBytes} bytes`);
      return { status: res.statusCode, body: answerBody(text, res.headers['content-type']) };
    });
  }

  /**
   * One current call; throws PaybridgeError on failure. `deadline` (epoch ms) is the request's, shared
   * by every call it makes (a refund's preflight read and the refund); default: requestMs from now.
   */
  async function call(baseUrl: string, current: CurrentRequest, requestId: string, deadline = Date.now() + options.requestMs): Promise<CurrentResponse> {
    const base = baseOf(baseUrl);
    try {
      return await once(base, current, requestId, deadline);
    } catch (err) {
      if (err instanceof PaybridgeError) throw err;
      const code = (err as { code?: string }).code ?? '';
      if (current.method === 'GET' && RESET_CODES.has(code)) {
        try {
          return await once(base, current, requestId, deadline);
        } catch (again) {
          throw toPaybridgeError(again);
        }
      }
      throw toPaybridgeError(err);
    }
  }

  /**
   * One request forwarded as it came (method, path, headers, body), the whole answer buffered: the
   * primary call of a sampled shadow exchange, whose answer is both served and compared.
   */
  async function forward(baseUrl: string, request: RawRequest, deadline = Date.now() + options.requestMs): Promise<RawAnswer> {
    const base = baseOf(baseUrl);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    try {
      return await underDeadline(deadline, async (signal) => {
        const res = await agent.request({
          origin: base.origin,
          path: base.path + request.path,
          method: request.method as Dispatcher.HttpMethod,
          headers,
          body: request.body ?? null,
          signal,
        });
        const text = await res.body.text();
        const out: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
        return { status: res.statusCode, headers: out, text };
      });
    } catch (err) {
      throw toPaybridgeError(err);
    }
  }

  return { call, forward, agent, close: () => agent.close() };
}

export interface RawRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: string;
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  text: string;
}

/** Headers of one connection, never forwarded (RFC 9110 section 7.6.1), plus those recomputed. */
const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'host', 'content-length',
]);

export function toPaybridgeError(err: unknown): PaybridgeError {
  if (err instanceof PaybridgeError) return err;
  const code = (err as { code?: string }).code ?? '';
  const message = (err as Error).message ?? String(err);
  if (TIMEOUT_CODES.has(code)) return new PaybridgeError('upstream_timeout', `the upstream did not answer in time (${code})`);
  return new PaybridgeError('upstream_error', `the upstream call failed: ${code || message}`);
}

export type Upstream = ReturnType<typeof createUpstream>;
