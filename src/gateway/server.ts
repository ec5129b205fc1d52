/**
 * The gateway: legacy requests translated to the current API; current-generation requests and
 * routes in `legacy` mode forwarded unchanged through @fastify/http-proxy. Upstreams are chosen by
 * the credential's environment prefix.
 */
import httpProxy from '@fastify/http-proxy';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { stringifyJson } from '../contract/json.js';
import { currentErrorBody, legacyErrorBody, PaybridgeError } from '../errors.js';
import { foreignScheme, isLegacyRequest } from '../translate/credentials.js';
import { createTranslator, type Translator } from '../translate/index.js';
import { traceIdOf, type CurrentRequest, type CurrentResponse, type LegacyResponse } from '../translate/engine.js';
import type { Shadow } from '../shadow/engine.js';
import { currentDocument, legacyDocument, packageVersion } from '../openapi/documents.js';
import { registerOperatorRoutes } from './operator.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { scrub } from '../observability/redact.js';
import { createTracing, type Tracing } from '../observability/tracing.js';
import { gatewayLogging } from './logging.js';
import { forwardedHeaders, headerRecord, requestIdOf, soleCredential, type Decision } from './requests.js';
import { createShadowServing } from './shadow-serve.js';
import { readBody } from './body.js';
import { legacyClientError } from './client-error.js';
import { environmentOf, type Environment } from './environments.js';
import { createUpstream, toPaybridgeError, type Upstream } from './upstream.js';

/** Largest answer a passthrough reads, like a translated call's. */
const MAX_PROXIED_ANSWER_BYTES = 16 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The deadline of a proxied request. */
    deadlineTimer?: NodeJS.Timeout;
    /** The upstream answer a proxied request is reading. */
    upstreamAnswer?: { destroy(err?: Error): void };
    /** The span of a proxied request, when tracing is on. */
    span?: ReturnType<Tracing['start']>;
  }
}

export interface GatewayOptions {
  config: Config;
  /** A translator to use instead of one built from the config (tests, library users). */
  translator?: Translator;
  /** Log destination (pino); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** Reads a merchant's public key for merchant tokens instead of Get Merchant (the embedded sandbox's store). */
  lookupMerchantKey?: (merchantId: string) => Promise<string>;
}

export interface Gateway {
  app: FastifyInstance;
  metrics: Metrics;
  translator: Translator;
  upstream: Upstream;
  shadow: Shadow;
  /** Starts listening; resolves with the base URL. */
  listen(): Promise<string>;
  /** Stops accepting, finishes in-flight requests, closes upstream connections. */
  close(): Promise<void>;
  /** Writes buffered log lines now (logs are otherwise flushed every second). */
  flushLogs(): void;
}

export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const { config } = options;
  const logging = gatewayLogging(config.logLevel, options.logStream);
  const metrics = createMetrics();
  const upstream = createUpstream(config.timeouts);
  const tracing = createTracing({ otlpEndpoint: config.otlpEndpoint, serviceName: 'paybridge' });
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : (logging.options as object),
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: requestIdOf,
    bodyLimit: config.bodyLimitBytes,
    return503OnClosing: true,
    clientErrorHandler: legacyClientError,
    forceCloseConnections: 'idle',
    // the client side: a slow client is cut off (a legacy 408) and holds a bounded share of the server
    requestTimeout: config.client.requestMs,
    keepAliveTimeout: config.client.keepAliveMs,
    maxRequestsPerSocket: config.client.maxRequestsPerSocket,
    http: {
      headersTimeout: config.client.headersMs,
      // how often Node looks for requests past their timeouts (its default, 30 s, would double them)
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(Math.min(config.client.headersMs, config.client.requestMs) / 4)),
    },
    // fastify's own refusals (a malformed percent-encoding in the path) in the legacy shape
    frameworkErrors: (error, request, reply) =>
      sendError(request, reply, new PaybridgeError('invalid_request', error.code === 'FST_ERR_BAD_URL' ? 'path: malformed percent-encoding' : `request: ${scrub(error.message)}`)),
  });
  app.server.maxConnections = config.client.maxConnections;

  const serviceEnvironment = config.serviceKey?.startsWith('live_') ? 'live' : 'sandbox';
  const translator =
    options.translator ??
    createTranslator({
      merchantTokens: config.merchantTokens,
      ...(options.lookupMerchantKey ? { lookupMerchantKey: options.lookupMerchantKey } : {}),
      ...(config.serviceKey && config.upstreams[serviceEnvironment].current
        ? { serviceKey: config.serviceKey, currentUrl: config.upstreams[serviceEnvironment].current }
        : {}),
      merchantKeyCache: { max: config.merchantKeyCache.max, ttlMs: config.merchantKeyCache.ttlMs },
      logger: { warn: (obj, msg) => app.log.warn(obj, msg), error: (obj, msg) => app.log.error(obj, msg) },
      onDroppedFields: (route, fields) => metrics.droppedFields.inc({ route }, fields.length),
    });
  metrics.total('paybridge_merchant_key_lookups_total', 'Get Merchant calls made to resolve merchant tokens (cache misses).', () => translator.merchantKeys?.lookups ?? 0);

  let draining = false;
  const defaultEnvironment: Environment =
    config.defaultEnvironment ?? (config.upstreams.sandbox.current || config.upstreams.sandbox.legacy ? 'sandbox' : 'live');

  const modeOf = (route: string): 'current' | 'legacy' | 'shadow' | 'canary' =>
    (config.routes[route] ?? config.routes['*'] ?? 'current') as 'current' | 'legacy' | 'shadow' | 'canary';
  const sampleOf = (route: string): number => config.shadow.sample[route] ?? config.shadow.sample['*'] ?? 1;

  /** The upstream base URL of an environment and generation, or a legacy 401 naming the credential. */
  function upstreamFor(credential: string | undefined, generation: 'current' | 'legacy'): string {
    const environment = environmentOf(credential, defaultEnvironment);
    const url = config.upstreams[environment][generation];
    if (!url)
      throw new PaybridgeError('unauthenticated', `no ${environment} ${generation} upstream is configured for this credential`);
    return url;
  }

  /** Every answer carries its request id; answers finishing while draining close their connection. */
  function stamp(reply: FastifyReply): FastifyReply {
    reply.header('x-request-id', reply.request.id);
    if (draining) reply.header('connection', 'close');
    return reply;
  }

  function sendLegacy(reply: FastifyReply, answer: LegacyResponse): FastifyReply {
    stamp(reply).code(answer.status);
    if (answer.body === undefined) return reply.send();
    return reply.type('application/json; charset=utf-8').send(stringifyJson(answer.body));
  }

  function sendError(request: FastifyRequest, reply: FastifyReply, err: unknown): FastifyReply {
    const error = err instanceof PaybridgeError ? err : new PaybridgeError('internal_error', 'the gateway failed to handle the request');
    if (error.code === 'internal_error') request.log.error({ err }, 'request failed');
    if (error.code === 'payload_too_large') reply.header('connection', 'close');
    const render = request.decision?.generation === 'current' ? currentErrorBody : legacyErrorBody;
    return stamp(reply).code(error.status).type('application/json; charset=utf-8').send(render(error.code, error.detail, String(request.id)));
  }

  app.decorateRequest('decision', undefined);
  app.decorateRequest('deadlineTimer', undefined);
  app.decorateRequest('upstreamAnswer', undefined);
  app.decorateRequest('span', undefined);
  // One hook per request: metrics and the access line. Headers are set where answers are sent.
  app.addHook('onResponse', (request, reply, done) => {
    const decision = request.decision;
    clearTimeout(request.deadlineTimer);
    request.span?.end(reply.statusCode);
    // the gateway's own paths (health, metrics, the operator page, favicon) are not traffic
    if (!decision) return done();
    const route = decision.route;
    const mode = decision.mode;
    const seconds = reply.elapsedTime / 1000;
    metrics.requests.inc({ route, mode, status: String(reply.statusCode) });
    metrics.latency.observe({ route, mode }, seconds);
    const traceId = traceIdOf(decision.headers);
    request.log.info({ route, mode, method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(seconds * 1e4) / 10, ...(traceId ? { traceId } : {}) }, 'request');
    done();
  });
  app.setErrorHandler((err, request, reply) => {
    const e = err as { code?: string; statusCode?: number };
    if (err instanceof PaybridgeError) return sendError(request, reply, err);
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return sendError(request, reply, new PaybridgeError('payload_too_large', `body: exceeds ${config.bodyLimitBytes} bytes`));
    if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500)
      return sendError(request, reply, new PaybridgeError('invalid_request', `request: ${scrub((err as Error).message)}`));
    return sendError(request, reply, err);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  // browsers ask for it when a person opens the 3DS page or the operator page through the gateway
  app.get('/favicon.ico', async (_request, reply) => reply.code(404).send());
  app.get('/readyz', async (_request, reply) => {
    if (draining) return reply.code(503).send({ status: 'draining' });
    return { status: 'ready' };
  });
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.render()));

  /** Decides what happens to a request; a refusal (no upstream for the credential) is thrown. */
  function classify(request: FastifyRequest): void {
    const headers = headerRecord(request.raw);
    const credential = soleCredential(headers);
    const scheme = isLegacyRequest(headers) ? undefined : foreignScheme(headers);
    if (scheme !== undefined) {
      // Basic is the generation before the legacy one: its own legacy upstream, never the current API
      request.decision = { generation: 'legacy', headers, route: 'basic', mode: 'legacy' };
      const environment = environmentOf(credential, defaultEnvironment);
      const url = scheme.toLowerCase() === 'basic' ? config.upstreams[environment].legacy : undefined;
      if (!url)
        throw new PaybridgeError(
          'unsupported_credentials',
          `Authorization: the ${scheme} scheme is not accepted here; use one Limepay-* credential header or Authorization: Bearer`,
        );
      request.decision.upstream = url;
      return;
    }
    if (request.url.startsWith('/sandbox/')) {
      // the sandbox's instruments and pages (card tokens, 3DS page, checkout): its own faces, never live
      const legacy = isLegacyRequest(headers);
      request.decision = { generation: legacy ? 'legacy' : 'current', headers, route: 'sandbox', mode: 'passthrough' };
      if (credential?.startsWith('live_')) throw new PaybridgeError('unauthenticated', 'sandbox instruments take sandbox credentials only');
      const sandbox = config.upstreams.sandbox;
      const url = legacy ? sandbox.legacy : (sandbox.current ?? sandbox.legacy);
      if (!url) throw new PaybridgeError('route_not_mapped', `${request.method} ${request.url.split('?')[0]}: no sandbox upstream is configured`);
      request.decision.upstream = url;
      return;
    }
    if (isLegacyRequest(headers) || headers.authorization === undefined) {
      const q = request.url.indexOf('?');
      const match = translator.routes.match(request.method, q < 0 ? request.url : request.url.slice(0, q));
      const route = match?.compiled.mapping.route ?? 'unmapped';
      const mode = match ? modeOf(route) : config.unmappedRoutes === 'legacy' ? 'legacy' : 'current';
      const decision: Decision = { generation: 'legacy', headers, route, mode, ...(match ? { match } : {}) };
      request.decision = decision;
      if (mode === 'shadow' || mode === 'canary') decision.sampled = Math.random() < sampleOf(route);
      // legacy mode, and shadow exchanges not sampled, go straight through the proxy
      if (mode === 'legacy' || (mode === 'shadow' && !decision.sampled)) decision.upstream = upstreamFor(credential, 'legacy');
      return;
    }
    request.decision = { generation: 'current', headers, route: 'current', mode: 'passthrough' };
    request.decision.upstream = upstreamFor(credential, 'current');
  }

  /** One translated current call for this request, counted and logged when it fails. */
  async function callCurrent(
    current: CurrentRequest, requestId: string, route: string, forwarded?: Record<string, string>, deadline?: number,
  ): Promise<CurrentResponse> {
    const base = upstreamFor(/^Bearer (.+)$/.exec(current.headers.authorization ?? '')?.[1], 'current');
    try {
      return await upstream.call(base, forwarded ? { ...current, headers: { ...current.headers, ...forwarded } } : current, requestId, deadline);
    } catch (err) {
      const error = toPaybridgeError(err);
      metrics.upstreamErrors.inc({ route, code: error.code, status: String(error.status) });
      app.log.warn({ err: error, route, requestId }, 'upstream call failed');
      throw error;
    }
  }

  const { shadow, compareLater, serveShadow } = createShadowServing({
    config, translator, metrics, upstream, log: app.log, upstreamFor, callCurrent, stamp,
  });

  /** A legacy request in current or canary mode: read the body once, translate, call, translate back. */
  async function translate(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const started = performance.now();
    // one deadline for every upstream call of this request (a refund's read and the refund)
    const deadline = Date.now() + config.timeouts.requestMs;
    const body = await readBody(request, config.bodyLimitBytes);
    const decision = request.decision!;
    const requestId = String(request.id);
    const forwarded = forwardedHeaders(request.raw);
    const legacyRequest = { method: request.method, path: request.url, headers: decision.headers, ...(body !== undefined ? { body } : {}), requestId };
    const answer = tracing.enabled
      ? await tracedExecute(legacyRequest, decision.route, (current, headers) => callCurrent(current, requestId, decision.route, { ...forwarded, ...headers }, deadline))
      : await translator.execute(legacyRequest, (current) => callCurrent(current, requestId, decision.route, forwarded, deadline));
    const sent = sendLegacy(reply, answer);
    if (decision.sampled)
      compareLater(request, 'canary', body, { status: answer.status, body: answer.body, latencyMs: performance.now() - started }, answer.body === undefined ? 0 : stringifyJson(answer.body).length);
    return sent;
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

  /** A proxied request's deadline: past it, a 504 upstream_timeout if nothing was sent yet, and the upstream answer dropped. */
  function armDeadline(request: FastifyRequest, reply: FastifyReply): void {
    request.deadlineTimer = setTimeout(() => {
      request.upstreamAnswer?.destroy();
      if (reply.sent) return;
      for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
      const error = new PaybridgeError('upstream_timeout', `the upstream did not answer within the request deadline (${config.timeouts.requestMs} ms)`);
      metrics.upstreamErrors.inc({ route: request.decision?.route ?? 'unknown', code: error.code, status: String(error.status) });
      request.log.warn({ err: error }, 'passthrough upstream call failed');
      sendError(request, reply, error);
    }, config.timeouts.requestMs);
  }

  function bufferAnswer(request: FastifyRequest, reply: FastifyReply, stream: NodeJS.ReadableStream & { destroy(err?: Error): void }): void {
    if (reply.sent) return stream.destroy();
    request.upstreamAnswer = stream;
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PROXIED_ANSWER_BYTES) stream.destroy(new Error(`the upstream answer exceeds ${MAX_PROXIED_ANSWER_BYTES} bytes`));
      else chunks.push(chunk);
    });
    stream.on('end', () => {
      clearTimeout(request.deadlineTimer);
      if (reply.sent) return;
      reply.removeHeader('transfer-encoding');
      reply.header('content-length', String(size));
      reply.send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    stream.on('error', (err: Error) => {
      if (reply.sent) return;
      for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
      const error = toPaybridgeError(err);
      metrics.upstreamErrors.inc({ route: request.decision?.route ?? 'unknown', code: error.code, status: String(error.status) });
      sendError(request, reply, error);
    });
  }

  // both generations described for tools (OpenAPI 3.1), derived from the schemas and mappings
  let documents: { legacy: object; current: object } | undefined;
  app.get('/_paybridge/openapi/:generation', async (request, reply) => {
    const which = (request.params as { generation: string }).generation.replace(/\.json$/, '');
    if (which !== 'legacy' && which !== 'current') return reply.code(404).send({ statusCode: 404, errorCode: 'not_found', message: 'legacy.json or current.json' });
    documents ??= { legacy: legacyDocument(translator.routes, packageVersion()), current: currentDocument(packageVersion()) };
    return documents[which];
  });

  registerOperatorRoutes(app, { token: config.operatorToken, report: () => shadow.ledger.report(), find: (id) => shadow.ledger.find(id) });

  await app.register(httpProxy, {
    upstream: '',
    undici: upstream.agent as never,
    // Legacy requests in current mode are answered here; only passthrough reaches the proxy handler.
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      classify(request);
      const decision = request.decision!;
      if (decision.upstream) {
        if (tracing.enabled) request.span = tracing.start(`paybridge ${decision.route}`, typeof decision.headers.traceparent === 'string' ? decision.headers.traceparent : undefined, { 'paybridge.route': decision.route, 'http.request.method': request.method });
        return armDeadline(request, reply);
      }
      return decision.mode === 'shadow' ? serveShadow(request, reply) : translate(request, reply);
    },
    replyOptions: {
      getUpstream: (request: FastifyRequest) => request.decision?.upstream ?? 'http://127.0.0.1',
      rewriteRequestHeaders: (request: FastifyRequest, headers: Record<string, string>) => ({
        ...headers,
        ...forwardedHeaders(request.raw),
        ...tracing.headersOf(request.span?.ctx),
        'x-request-id': String(request.id),
      }),
      rewriteHeaders: (headers: Record<string, string>, request: FastifyRequest) => ({
        ...headers,
        'x-request-id': String(request.id),
        ...(draining ? { connection: 'close' } : {}),
      }),
      // A GET may be retried once on a connection reset; nothing else is ever sent twice.
      // (a delay of 0 would mean "no retry" to @fastify/reply-from: the retry goes after 1 ms)
      retryDelay: ({ err, req, attempt }: { err?: { code?: string }; req: { method: string }; attempt: number }) =>
        req.method === 'GET' && attempt === 0 && (err?.code === 'ECONNRESET' || err?.code === 'UND_ERR_SOCKET') ? 1 : null,
      // the answer is read whole under the request's deadline (a trickle past it is a 504), then sent
      onResponse: (request: FastifyRequest, reply: FastifyReply, res: { stream: NodeJS.ReadableStream & { destroy(err?: Error): void } }) =>
        bufferAnswer(request, reply, res.stream),
      onError: (reply: FastifyReply, { error }: { error: Error & { cause?: unknown } }) => {
        const cause = error.cause ?? error;
        const mapped = toPaybridgeError(cause);
        metrics.upstreamErrors.inc({ route: reply.request.decision?.route ?? 'unknown', code: mapped.code, status: String(mapped.status) });
        reply.request.log.warn({ err: mapped }, 'passthrough upstream call failed');
        sendError(reply.request, reply, mapped);
      },
    },
  } as never);

  return {
    app,
    metrics,
    translator,
    upstream,
    async listen() {
      return app.listen({ host: config.listen.host, port: config.listen.port });
    },
    shadow,
    async close() {
      draining = true;
      await app.close();
      await shadow.close();
      await upstream.close();
      await tracing.close();
      logging.close();
    },
    flushLogs() {
      logging.flush();
    },
  };
}
