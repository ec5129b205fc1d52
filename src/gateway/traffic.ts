/**
 * The gateway's traffic on node:http, outside fastify's request pipeline: every request that is not
 * one of the gateway's own paths. Legacy requests are translated to the current API (or, in shadow
 * mode, answered by the legacy upstream and compared afterwards); current-generation requests, legacy
 * mode and unsampled shadow exchanges are passed through. Each answer is read whole under the
 * request's deadline and written with its headers in one write.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { stringifyJson } from '../contract/json.js';
import { currentErrorBody, fromUpstreamError, legacyErrorBody, PaybridgeError } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';
import type { Tracing } from '../observability/tracing.js';
import type { CurrentRequest, CurrentResponse, LegacyResponse } from '../translate/engine.js';
import { headerRecord } from '../translate/headers.js';
import { traceIdOf } from '../translate/trace-context.js';
import type { Translator } from '../translate/index.js';
import { hasBody, readBody } from './body.js';
import type { AccessFields } from './logging.js';
import type { createClassifier } from './classify.js';
import { forwardedHeaders, requestIdOf, type Decision } from './requests.js';
import type { createShadowServing } from './shadow-serve.js';
import { endToEnd, type Upstream } from './upstream.js';

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
  decision?: Decision;
  span?: ReturnType<Tracing['start']>;
}

export interface TrafficDeps {
  config: Config;
  translator: Translator;
  classifier: ReturnType<typeof createClassifier>;
  upstream: Upstream;
  metrics: Metrics;
  tracing: Tracing;
  log: FastifyBaseLogger;
  /** Writes a request's access line. */
  access: (fields: AccessFields) => void;
  /** True once the gateway is shutting down: answers close their connection. */
  draining: () => boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

export function createTraffic(deps: TrafficDeps) {
  const { config, translator, classifier, upstream, metrics, tracing, log } = deps;

  /** Writes an answer (headers and body in one write), then counts and logs it. */
  function write(x: Exchange, status: number, headers: OutgoingHttpHeaders, body?: string | Buffer): void {
    const { res } = x;
    if (res.headersSent || res.destroyed) return;
    headers['x-request-id'] = x.id;
    if (deps.draining()) headers.connection = 'close';
    if (body !== undefined) headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
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
    deps.access({ requestId: x.id, clientRequestId: x.id === x.headers['x-request-id'], route, mode, method: x.method, url: x.url, status, ms, traceId: traceIdOf(x.headers) });
  }

  function sendError(x: Exchange, err: unknown): void {
    const error = err instanceof PaybridgeError ? err : new PaybridgeError('internal_error', 'the gateway failed to handle the request');
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

  /** One translated current call for this request, counted and logged when it fails. */
  async function callCurrent(current: CurrentRequest, requestId: string, route: string, forwarded?: Record<string, string>, deadline?: number): Promise<CurrentResponse> {
    const authorization = current.headers.authorization;
    const base = classifier.upstreamFor(authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined, 'current');
    try {
      return await upstream.call(base, current, requestId, deadline, forwarded);
    } catch (err) {
      throw upstreamFailed(route, requestId, err, 'upstream call failed');
    }
  }

  /** A passthrough: the request forwarded as it came, the answer read whole and sent as it came. */
  async function passthrough(x: Exchange, decision: Decision & { upstream: string }): Promise<void> {
    const deadline = Date.now() + config.timeouts.requestMs;
    const body = hasBody(x.req) ? await readBody(x.req, config.bodyLimitBytes) : undefined;
    if (tracing.enabled)
      x.span = tracing.start(`paybridge ${decision.route}`, typeof decision.headers.traceparent === 'string' ? decision.headers.traceparent : undefined, { 'paybridge.route': decision.route, 'http.request.method': x.method });
    const headers = Object.assign(endToEnd(decision.headers), forwardedHeaders(decision.headers, x.req), tracing.headersOf(x.span?.ctx));
    headers['x-request-id'] = x.id;
    let answer;
    try {
      answer = await upstream.exchange(decision.upstream, { method: x.method, path: x.url, headers, ...(body ? { body } : {}) }, deadline);
    } catch (err) {
      throw upstreamFailed(decision.route, x.id, err, 'passthrough upstream call failed');
    }
    const out: OutgoingHttpHeaders = endToEnd(answer.headers);
    const bodiless = x.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    if (bodiless && answer.headers['content-length'] !== undefined) out['content-length'] = answer.headers['content-length'];
    write(x, answer.status, out, bodiless ? undefined : answer.body);
  }

  /** A legacy request in current or canary mode: read the body once, translate, call, translate back. */
  async function translate(x: Exchange, decision: Decision): Promise<void> {
    // one deadline for every upstream call of this request (a refund's read and the refund)
    const deadline = Date.now() + config.timeouts.requestMs;
    const body = hasBody(x.req) ? (await readBody(x.req, config.bodyLimitBytes))?.toString('utf8') : undefined;
    const forwarded = forwardedHeaders(decision.headers, x.req);
    const legacyRequest = { method: x.method, path: x.url, headers: decision.headers, requestId: x.id, ...(body !== undefined ? { body } : {}) };
    const answer = tracing.enabled
      ? await tracedExecute(legacyRequest, decision.route, (current, headers) => callCurrent(current, x.id, decision.route, Object.assign({}, forwarded, headers), deadline))
      : await translator.execute(legacyRequest, (current) => callCurrent(current, x.id, decision.route, forwarded, deadline), decision.match);
    sendLegacy(x, answer);
    if (decision.sampled)
      shadowServing.compareLater(x, 'canary', body, { status: answer.status, body: answer.body, latencyMs: performance.now() - x.started }, answer.body === undefined ? 0 : stringifyJson(answer.body).length);
  }

  /** The translated exchange in spans: the gateway hop, the translation, and each upstream call with its own traceparent. */
  function tracedExecute(
    legacyRequest: Parameters<Translator['execute']>[0],
    route: string,
    send: (current: CurrentRequest, headers: Record<string, string>) => Promise<CurrentResponse>,
  ): Promise<LegacyResponse> {
    const parent = typeof legacyRequest.headers.traceparent === 'string' ? legacyRequest.headers.traceparent : undefined;
    const attributes = { 'paybridge.route': route, 'http.request.method': legacyRequest.method };
    return tracing.span(`paybridge ${route}`, parent, attributes, (hop) =>
      tracing.span(`translate ${route}`, hop, attributes, (translation) =>
        translator.execute(legacyRequest, (current) =>
          tracing.span(`upstream ${current.method}`, translation, { 'http.request.method': current.method, 'url.path': current.path.split('?')[0]! }, (call) => send(current, tracing.headersOf(call)), 'client'),
        ),
      ), 'server');
  }

  /** A sampled shadow exchange: the legacy upstream answers the client; the comparison runs afterwards. */
  async function shadowed(x: Exchange): Promise<void> {
    const body = hasBody(x.req) ? (await readBody(x.req, config.bodyLimitBytes))?.toString('utf8') : undefined;
    let answer;
    try {
      answer = await shadowServing.primary(x, body);
    } catch (err) {
      throw upstreamFailed(x.decision!.route, x.id, err, 'shadow primary call failed');
    }
    const latencyMs = performance.now() - x.started;
    write(x, answer.status, answer.headers, answer.text === '' ? undefined : answer.text);
    shadowServing.compareLater(x, 'shadow', body, { status: answer.status, text: answer.text, contentType: answer.headers['content-type'], latencyMs }, answer.text.length);
  }

  let shadowServing: ReturnType<typeof createShadowServing>;

  /** The node:http handler of all traffic. */
  function handle(req: IncomingMessage, res: ServerResponse): void {
    const headers = headerRecord(req.rawHeaders);
    const x: Exchange = { req, res, id: requestIdOf(headers), method: req.method ?? 'GET', url: req.url ?? '/', headers, started: performance.now() };
    let work: Promise<void>;
    try {
      if (x.url.includes('%')) checkPercentEncoding(x.url);
      const decision = classifier.classify(x.method, x.url, headers, (d) => (x.decision = d));
      work = decision.upstream
        ? passthrough(x, decision as Decision & { upstream: string })
        : decision.mode === 'shadow'
          ? shadowed(x)
          : translate(x, decision);
    } catch (err) {
      work = Promise.reject(err);
    }
    work.catch((err) => sendError(x, err)).catch((err) => lastResort(x, err));
  }

  /** An answer that could not even be written as an error: logged, and the connection closed. */
  function lastResort(x: Exchange, err: unknown): void {
    log.error({ requestId: x.id, err }, 'request failed and its error answer could not be written');
    x.res.destroy();
  }

  return {
    handle,
    callCurrent,
    /** Wires the shadow side in (it needs callCurrent, so it is built after). */
    useShadow(serving: ReturnType<typeof createShadowServing>): void {
      shadowServing = serving;
    },
  };
}

/** A path with a malformed percent-encoding is refused before anything else looks at it. */
function checkPercentEncoding(url: string): void {
  const q = url.indexOf('?');
  try {
    decodeURIComponent(q < 0 ? url : url.slice(0, q));
  } catch {
    throw new PaybridgeError('invalid_request', 'path: malformed percent-encoding');
  }
}
