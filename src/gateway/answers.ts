/**
 * How every traffic answer leaves the gateway: headers and body in one write, stamped with the
 * request id, then counted, logged (the access line) and its span ended; errors in the shape of the
 * request's generation, from the error table.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { stringifyJson } from '../contract/json.js';
import { currentErrorBody, fromUpstreamError, legacyErrorBody, PaybridgeError } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';
import type { Tracing } from '../observability/tracing.js';
import type { LegacyResponse } from '../translate/messages.js';
import { traceIdOf } from '../translate/trace-context.js';
import type { AccessFields } from './logging.js';
import type { Decision } from './requests.js';

/** One request in flight through the gateway. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly id: string;
  readonly method: string;
  readonly url: string;
  /** Its headers by lower-case name (headerRecord). */
  readonly headers: Record<string, string | string[]>;
  /** performance.now() when it arrived. */
  readonly started: number;
  /** Its one deadline (epoch ms, timeouts.requestMs from its arrival), shared by every upstream call it makes, its body's reading included. */
  readonly deadline: number;
  decision?: Decision;
  span?: ReturnType<Tracing['start']>;
}

export interface AnswersDeps {
  metrics: Metrics;
  log: FastifyBaseLogger;
  /** Writes a request's access line. */
  access: (fields: AccessFields) => void;
  /** True once the gateway is shutting down: answers close their connection. */
  draining: () => boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function createAnswers(deps: AnswersDeps) {
  const { metrics, log } = deps;

  /** Writes an answer (headers and body in one write), then counts and logs it. */
  function write(x: Exchange, status: number, headers: OutgoingHttpHeaders, body?: string | Buffer): void {
    const { res } = x;
    if (res.headersSent || res.destroyed) return;
    headers['x-request-id'] = x.id;
    if (deps.draining()) headers.connection = 'close';
    if (body !== undefined)
      headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    res.writeHead(status, headers);
    res.end(body);
    finished(x, status);
  }

  /**
   * Metrics, the access line and the span of one answered request. A request refused before it was
   * classified (two credentials, a malformed path) is counted and logged as route `refused`, mode
   * `none`: its tracer is in the log like any other.
   */
  function finished(x: Exchange, status: number): void {
    x.span?.end(status);
    const decision = x.decision;
    const route = decision?.route ?? 'refused';
    const mode = decision?.mode ?? 'none';
    const ms = performance.now() - x.started;
    metrics.answered(route, mode, status, ms / 1000);
    deps.access({
      requestId: x.id,
      clientRequestId: x.id === x.headers['x-request-id'],
      route,
      mode,
      method: x.method,
      url: x.url,
      status,
      ms,
      traceId: traceIdOf(x.headers),
    });
  }

  /** An error answer in the shape of the request's generation; anything but a PaybridgeError is a logged 500. */
  function sendError(x: Exchange, err: unknown): void {
    const error =
      err instanceof PaybridgeError
        ? err
        : new PaybridgeError('internal_error', 'the gateway failed to handle the request');
    if (error.code === 'internal_error') log.error({ requestId: x.id, err }, 'request failed');
    const render = x.decision?.generation === 'current' ? currentErrorBody : legacyErrorBody;
    const headers: OutgoingHttpHeaders = { 'content-type': JSON_TYPE };
    // the rest of an oversized body is not read: the connection cannot carry another request
    if (error.code === 'payload_too_large') headers.connection = 'close';
    write(x, error.status, headers, JSON.stringify(render(error.code, error.detail, x.id)));
  }

  function sendLegacy(x: Exchange, answer: LegacyResponse): void {
    if (answer.body === undefined) write(x, answer.status, {});
    else write(x, answer.status, { 'content-type': JSON_TYPE }, stringifyJson(answer.body));
  }

  /** A failed upstream call as the PaybridgeError to answer with, counted and logged. */
  function upstreamFailed(route: string, requestId: string, err: unknown, message: string): PaybridgeError {
    const error = fromUpstreamError(err);
    metrics.upstreamErrors.inc({ route, code: error.code, status: String(error.status) });
    log.warn({ requestId, route, err: error }, message);
    return error;
  }

  /** An answer that could not even be written as an error: logged, and the connection closed. */
  function lastResort(x: Exchange, err: unknown): void {
    log.error({ requestId: x.id, err }, 'request failed and its error answer could not be written');
    x.res.destroy();
  }

  return { write, sendError, sendLegacy, upstreamFailed, lastResort };
}

export type Answers = ReturnType<typeof createAnswers>;
