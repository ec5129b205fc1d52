/**
 * The gateway's own paths, served by fastify beside the traffic: health and readiness, Prometheus
 * metrics, the OpenAPI documents of both generations and the operator's shadow report. Their errors
 * come from the error table like every other answer.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import type { Config } from '../config.js';
import type { Metrics } from '../observability/metrics.js';
import { currentDocument, legacyDocument, packageVersion } from '../openapi/documents.js';
import type { Shadow } from '../shadow/engine.js';
import type { Translator } from '../translate/index.js';
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
  return reply.code(error.status).header('x-request-id', reply.request.id).type('application/json; charset=utf-8').send(legacyErrorBody(error.code, error.detail, String(reply.request.id)));
}

export function registerOwnPaths(app: FastifyInstance, deps: OwnPathDeps): void {
  const { metrics, translator, shadow } = deps;
  app.setErrorHandler((err, request, reply) => {
    if (err instanceof PaybridgeError) return sendOwnError(reply, err);
    request.log.error({ err }, 'request failed');
    return sendOwnError(reply, new PaybridgeError('internal_error', 'the gateway failed to handle the request'));
  });

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
    if (which !== 'legacy' && which !== 'current') throw new PaybridgeError('not_found', 'generation: legacy.json or current.json');
    documents ??= { legacy: legacyDocument(translator.routes, packageVersion()), current: currentDocument(packageVersion()) };
    return documents[which];
  });

  const tokens: Record<string, string> = { ...deps.config.operatorTokens, ...(deps.config.operatorToken ? { operator: deps.config.operatorToken } : {}) };
  registerOperatorRoutes(app, {
    tokens,
    report: () => ({ ...shadow.report(), instance: shadow.instance, modes: deps.routes.table.modes }),
    find: (id) => shadow.ledger.find(id),
    live: deps.live,
    routes: deps.routes,
    routeRows: () => translator.routes.mappings.map(({ mapping }) => ({ route: mapping.route, legacy: mapping.legacy, current: mapping.current })),
    writeSafety: (route) => deps.config.shadow.writeSafety[route] ?? deps.config.shadow.writeSafety['*'] ?? 'readback',
    instance: shadow.instance,
  });
}
