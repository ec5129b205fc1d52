/**
 * The gateway: a node:http server whose traffic (legacy requests translated to the current API,
 * current-generation requests and `legacy` mode forwarded unchanged, shadow exchanges) is served by
 * the traffic handler; fastify serves only the gateway's own paths (health, metrics, the operator
 * pages, OpenAPI). Upstreams are chosen by the credential's environment prefix.
 */
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import PinoPretty from 'pino-pretty';
import type { Config } from '../config.js';
import { PaybridgeError } from '../errors.js';
import { createTranslator, type Translator } from '../translate/index.js';
import type { Shadow } from '../shadow/engine.js';
import { createMetrics, type Metrics } from '../observability/metrics.js';
import { scrub } from '../observability/redact.js';
import { createTracing } from '../observability/tracing.js';
import { gatewayLogging } from './logging.js';
import { requestIdOf } from './requests.js';
import { legacyClientError, refusalRecorder, refuseConnect } from './client-error.js';
import { registerOwnPaths, sendOwnError } from './own-paths.js';
import { createCorpus } from '../shadow/corpus.js';
import { createLiveConfig, type LiveConfig } from './live-config.js';
import { createRouteControl, type RouteControl } from './route-control.js';
import { createTraffic } from './traffic.js';
import { createUpstream, type Upstream } from './upstream.js';

/** The gateway's own paths, served by fastify; everything else is traffic. */
const OWN_PATH = /^\/(?:healthz|readyz|metrics|favicon\.ico)(?:\?|$)|^\/_paybridge\//;

export interface GatewayOptions {
  config: Config;
  /** A translator to use instead of one built from the config (tests, library users). */
  translator?: Translator;
  /** Log destination (pino); default stdout. */
  logStream?: NodeJS.WritableStream;
  /** Reads a merchant's public key for merchant tokens instead of Get Merchant (the embedded sandbox's store). */
  lookupMerchantKey?: (merchantId: string) => Promise<string>;
  /** The configuration file the route table is set in: reloads apply its table, the operator API refuses changes. */
  configFile?: string;
  /** The configuration as the operator gave it, before the embedded sandbox was laid in (its hash is the replicas' common one). */
  declaredConfig?: Config;
}

export interface Gateway {
  app: FastifyInstance;
  metrics: Metrics;
  translator: Translator;
  upstream: Upstream;
  shadow: Shadow;
  /** Starts listening; resolves with the base URL. */
  listen(): Promise<string>;
  /**
   * Drains (serves on with /readyz at 503 for timeouts.drainMs), stops accepting, finishes in-flight
   * requests, runs queued comparisons until `deadline` (epoch ms; default: all), records the rest as
   * skipped, and closes upstream connections.
   */
  close(deadline?: number): Promise<void>;
  /** Writes buffered log lines now (logs are otherwise flushed every second). */
  flushLogs(): void;
  /** The log lines are for a person (a terminal), not JSON for a collector. */
  prettyLogs: boolean;
  /** The live route table: modes and sample rates, changed by the operator API or a reloaded configuration. */
  routes: RouteControl;
  /** The configuration in force, and what reloads did with a configuration read again. */
  live: LiveConfig;
}

export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const { config } = options;
  const pretty = options.logStream ? undefined : prettyStream(config);
  const logging = gatewayLogging(config.logLevel, options.logStream ?? pretty);
  const metrics = createMetrics();
  const upstream = createUpstream(config.timeouts);
  metrics.gauge(
    'paybridge_upstream_in_flight',
    'Upstream calls sent or waiting for a connection, not yet answered.',
    upstream.inFlight,
  );
  const tracing = createTracing({ otlpEndpoint: config.otlpEndpoint, serviceName: 'paybridge' });
  let draining = false;
  // the traffic handler, set once its dependencies exist (the server's handler reads it per request)
  const handlers: { traffic?: ReturnType<typeof createTraffic> } = {};
  const clientRefused = refusalRecorder(metrics, (obj, msg) => app.log.warn(obj, msg));
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : (logging.options as object),
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (req) => requestIdOf(req.headers),
    return503OnClosing: true,
    clientErrorHandler: (err, socket) =>
      legacyClientError(err, socket, clientRefused, (code) =>
        app.log.info({ code }, 'client closed the connection mid-request'),
      ),
    forceCloseConnections: 'idle',
    serverFactory: (ownPaths) => {
      const server = createServer(
        // how often Node looks for requests past their timeouts (its default, 30 s, would double them)
        {
          connectionsCheckingInterval: Math.min(
            1_000,
            Math.ceil(Math.min(config.client.headersMs, config.client.requestMs) / 4),
          ),
        },
        (req, res) =>
          handlers.traffic && !OWN_PATH.test(req.url ?? '/') ? handlers.traffic.handle(req, res) : ownPaths(req, res),
      );
      // the client side: a slow client is cut off (a legacy 408) and holds a bounded share of the server
      server.headersTimeout = config.client.headersMs;
      server.requestTimeout = config.client.requestMs;
      server.keepAliveTimeout = config.client.keepAliveMs;
      server.maxRequestsPerSocket = config.client.maxRequestsPerSocket;
      server.maxConnections = config.client.maxConnections;
      // CONNECT reaches no request handler: without this, its connection would be dropped unanswered
      server.on('connect', (_req, socket) => refuseConnect(socket as Socket, clientRefused));
      return server;
    },
    // fastify's own refusals on its paths in the legacy shape
    frameworkErrors: (error, request, reply) =>
      void sendOwnError(
        reply,
        new PaybridgeError(
          'invalid_request',
          error.code === 'FST_ERR_BAD_URL' ? 'path: malformed percent-encoding' : `request: ${scrub(error.message)}`,
        ),
      ),
  });

  const translator = options.translator ?? gatewayTranslator(options, metrics, app.log);
  metrics.total(
    'paybridge_merchant_key_lookups_total',
    'Get Merchant calls made to resolve merchant tokens (cache misses).',
    () => translator.merchantKeys?.lookups ?? 0,
  );
  const routeIds = [...new Set(translator.routes.mappings.map((m) => m.mapping.route))].sort(
    (a, b) => Number(a.slice(1)) - Number(b.slice(1)),
  );
  const routes = createRouteControl(config, routeIds, app.log, metrics, options.configFile);
  const live = createLiveConfig(config, routes, metrics, options.declaredConfig);
  const corpusSettings = config.shadow.corpus;
  const corpusSkipped = metrics.counter(
    'paybridge_corpus_skipped_total',
    'Translated exchanges left out of the replay corpus: nested too deep, too large, or failed to write.',
    ['reason'],
  );
  const corpus = corpusSettings ? createCorpus(corpusSettings, (reason) => corpusSkipped.inc({ reason })) : undefined;
  const traffic = (handlers.traffic = createTraffic({
    config,
    routes,
    corpus,
    translator,
    upstream,
    metrics,
    tracing,
    log: app.log,
    access: logging.access,
    draining: () => draining,
  }));
  const { shadow } = traffic;

  registerOwnPaths(app, { config, metrics, translator, shadow, routes, live, draining: () => draining });

  return {
    app,
    metrics,
    translator,
    upstream,
    async listen() {
      return app.listen({ host: config.listen.host, port: config.listen.port });
    },
    shadow,
    async close(deadline?: number) {
      draining = true;
      if (config.timeouts.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, config.timeouts.drainMs));
      await app.close();
      const cutShort = await shadow.close(deadline);
      if (cutShort > 0)
        app.log.warn({ comparisons: cutShort }, 'shutdown: comparisons not finished in time were recorded as skipped');
      await upstream.close(cutShort > 0);
      await corpus?.close();
      await tracing.close();
      logging.close();
    },
    flushLogs() {
      logging.flush();
    },
    prettyLogs: pretty !== undefined,
    routes,
    live,
  };
}

/** Standard output as lines a person reads, when the configuration asks for them (or, `auto`, when it is a terminal). */
function prettyStream(config: Config): NodeJS.WritableStream | undefined {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  return pretty
    ? PinoPretty({
        destination: 1,
        sync: true,
        colorize: process.stdout.isTTY === true,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
        singleLine: true,
      })
    : undefined;
}

/** The translator a gateway builds from its config: merchant tokens, the service key's Get Merchant look-up, dropped fields counted. */
function gatewayTranslator(options: GatewayOptions, metrics: Metrics, log: FastifyBaseLogger): Translator {
  const { config } = options;
  const serviceEnvironment = config.serviceKey?.startsWith('live_') ? 'live' : 'sandbox';
  return createTranslator({
    merchantTokens: config.merchantTokens,
    ...(options.lookupMerchantKey ? { lookupMerchantKey: options.lookupMerchantKey } : {}),
    // a look-up never outlasts one request's deadline (each request waits for it until its own: engine.ts)
    ...(config.serviceKey && config.upstreams[serviceEnvironment].current
      ? {
          serviceKey: config.serviceKey,
          currentUrl: config.upstreams[serviceEnvironment].current,
          merchantLookupTimeoutMs: config.timeouts.requestMs,
        }
      : {}),
    merchantKeyCache: { max: config.merchantKeyCache.max, ttlMs: config.merchantKeyCache.ttlMs },
    logger: { warn: (obj, msg) => log.warn(obj, msg), error: (obj, msg) => log.error(obj, msg) },
    onDroppedFields: (route, fields) => metrics.droppedFields.inc({ route }, fields.length),
  });
}
