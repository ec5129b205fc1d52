/**
 * The gateway's own paths, served by fastify beside the traffic: health and readiness, Prometheus
 * metrics, the OpenAPI documents of both generations and the operator's shadow report. Their errors
 * come from the error table like every other answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseJsonBody } from '../contract/json.js';
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import type { Config } from '../config.js';
import type { Metrics } from '../observability/metrics.js';
import { scrub } from '../observability/redact.js';
import { currentDocument, legacyDocument } from '../openapi/documents.js';
import { packageVersion } from '../package-version.js';
import type { Shadow } from '../shadow/engine.js';
import { isWriteRoute } from '../translate/define.js';
import type { Translator } from '../translate/index.js';
import { routeNumber } from '../translate/legacy-routes.js';
import { registerOperatorRoutes } from './operator.js';
import type { LiveConfig } from './live-config.js';
import type { RouteControl } from './route-control.js';

export interface OwnPathDeps {
  config: Config;
  metrics: Metrics;
  translator: Translator;
  shadow: Shadow;
  routes: RouteControl;
  live: LiveConfig;
  /** True once the gateway is shutting down: /readyz answers 503. */
  draining: () => boolean;
}

/** An error on an own path, in the legacy shape, its tracer the request id. */
export function sendOwnError(reply: FastifyReply, error: PaybridgeError): FastifyReply {
  return reply
    .code(error.status)
    .header('x-request-id', reply.request.id)
    .type('application/json; charset=utf-8')
    .send(legacyErrorBody(error.code, error.detail, String(reply.request.id)));
}

/**
 * Fastify's own refusals of a request on these paths (its body parser, body limit, media type: a 4xx
 * with a code) as the error table's; undefined for anything else.
 */
function ownRefusal(err: Error & { code?: unknown; statusCode?: unknown }): PaybridgeError | undefined {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new PaybridgeError('payload_too_large', 'body: too large for an operator path');
  if (
    err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    err.name === 'SyntaxError'
  )
    return new PaybridgeError('invalid_request', 'body: malformed JSON');
  if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new PaybridgeError('invalid_request', 'Content-Type: expected application/json');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
    return new PaybridgeError('invalid_request', 'request: refused as malformed');
  return undefined;
}

/** A client that went away mid-request (its body cut short, the connection reset): nothing to answer, and not the gateway's failure. */
const clientAborted = (err: Error & { code?: unknown }, request: FastifyRequest): boolean =>
  (err.code === 'ECONNRESET' && err.message === 'aborted') || request.raw.destroyed;

export function registerOwnPaths(app: FastifyInstance, deps: OwnPathDeps): void {
  const { metrics, translator, shadow } = deps;
  app.setErrorHandler((thrown, request, reply) => {
    if (thrown instanceof PaybridgeError) return sendOwnError(reply, thrown);
    const err = thrown as Error & { code?: unknown; statusCode?: unknown };
    if (clientAborted(err, request)) {
      request.log.info({ path: request.url.split('?')[0] }, 'client closed the connection before the request was read');
      return reply.hijack();
    }
    const refusal = ownRefusal(err);
    if (refusal) return sendOwnError(reply, refusal);
    request.log.error({ err }, 'request failed');
    return sendOwnError(reply, new PaybridgeError('internal_error', 'the gateway failed to handle the request'));
  });
  // an operator body is JSON read as every body the gateway reads (duplicate keys, __proto__, depth: a 400)
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // a path of ours that does not exist: the error shape, the path named without its query (which may hold a token)
  app.setNotFoundHandler((request, reply) =>
    sendOwnError(
      reply,
      new PaybridgeError(
        'not_found',
        `${request.method} ${scrub(request.url.split('?')[0] ?? '')}: not one of the gateway's own paths`,
      ),
    ),
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  // browsers ask for it when a person opens the 3DS page or the operator page through the gateway
  app.get('/favicon.ico', async (_request, reply) => reply.code(404).send());
  app.get('/readyz', async (_request, reply) => {
    if (deps.draining()) return reply.code(503).send({ status: 'draining' });
    return { status: 'ready' };
  });
  app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.render()));

  // both generations described for tools (OpenAPI 3.1), derived from the schemas and mappings
  let documents: { legacy: object; current: object } | undefined;
  app.get('/_paybridge/openapi/:generation', async (request) => {
    const which = (request.params as { generation: string }).generation.replace(/\.json$/, '');
    if (which !== 'legacy' && which !== 'current')
      throw new PaybridgeError('not_found', 'generation: legacy.json or current.json');
    documents ??= {
      legacy: legacyDocument(translator.routes, packageVersion()),
      current: currentDocument(packageVersion()),
    };
    return documents[which];
  });

  const writeRoutes = new Set(
    translator.routes.mappings.filter(({ mapping }) => isWriteRoute(mapping)).map(({ mapping }) => mapping.route),
  );
  const tokens: Record<string, string> = {
    ...deps.config.operatorTokens,
    ...(deps.config.operatorToken ? { operator: deps.config.operatorToken } : {}),
  };
  registerOperatorRoutes(app, {
    tokens,
    report: () => ({ ...shadow.report(), instance: shadow.instance, modes: deps.routes.table.modes }),
    find: (id) => shadow.ledger.find(id),
    accept: shadow.accept,
    accepted: () => shadow.ledger.report().routes.flatMap((r) => r.accepted),
    live: deps.live,
    routes: deps.routes,
    routeRows: () =>
      translator.routes.mappings
        .map(({ mapping }) => ({ route: mapping.route, legacy: mapping.legacy, current: mapping.current }))
        .sort((a, b) => routeNumber(a.route) - routeNumber(b.route)),
    // a read has no write safety: shadow compares it by reading through both generations
    writeSafety: (route) =>
      writeRoutes.has(route)
        ? (deps.config.shadow.writeSafety[route] ?? deps.config.shadow.writeSafety['*'] ?? 'readback')
        : undefined,
    instance: shadow.instance,
  });
}
