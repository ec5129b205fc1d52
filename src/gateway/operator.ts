/** The operator's paths: the shadow report (JSON and an HTML page), the live route table and the configuration in force, behind a bearer token. */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { PaybridgeError } from '../errors.js';
import { REDACTED, redactValue } from '../observability/redact.js';
import { renderReportHtml } from '../shadow/html.js';
import type { ShadowReport } from '../shadow/ledger.js';
import type { LiveConfig } from './live-config.js';
import { modeOf, sampleOf, type RouteControl } from './route-control.js';

function tokenOf(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+/i.test(auth)) return auth.replace(/^Bearer\s+/i, '').trim();
  const query = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof query === 'string' ? query : undefined;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The configuration as it runs, every secret masked: tokens, keys, merchant tokens, credentials in URLs. */
function maskedConfig(config: Config): unknown {
  const masked = redactValue(JSON.parse(JSON.stringify(config))) as Record<string, unknown>;
  masked.merchantTokens = Object.fromEntries(Object.values(config.merchantTokens).map((merchantId, i) => [`[redacted token ${i + 1}]`, merchantId]));
  masked.operatorTokens = Object.fromEntries(Object.keys(config.operatorTokens).map((name) => [name, REDACTED]));
  if (config.operatorToken) masked.operatorToken = REDACTED;
  return masked;
}

export interface OperatorOptions {
  /** Operator token by name (`operator` for operatorToken); none: the operator paths are off. */
  tokens: Readonly<Record<string, string>>;
  report: () => unknown;
  find: (id: string) => unknown[];
  /** The configuration in force (the live route table laid in) and what the reloads did. */
  live: LiveConfig;
  routes: RouteControl;
  /** The legacy route table: route id, legacy call, current call. */
  routeRows: () => { route: string; legacy: string; current: string }[];
  writeSafety: (route: string) => string;
  instance: string;
}

/**
 * The operator's paths, behind a bearer token (`Authorization: Bearer <token>` or `?token=` for a
 * browser); without a configured token they are 404:
 * - `GET /_paybridge/report` (JSON, `?find=ID`) and `GET /_paybridge/` (HTML): the shadow report;
 * - `GET /_paybridge/routes`: the live route table, each route's mode, sample rate and write safety;
 * - `PUT /_paybridge/routes/{route}` `{mode?, sample?}`: changes this replica's table at once;
 *   `{merchant, mode}` sets (`mode: null` removes) one merchant's mode of the route; refused (403)
 *   while a configuration file sets the table, which the next reload would apply over the change;
 * - `GET /_paybridge/config`: the configuration in force (after reloads), secrets masked, its hash
 *   and generation, and the settings a reload read but did not apply.
 */
export function registerOperatorRoutes(app: FastifyInstance, options: OperatorOptions): void {
  const named = Object.entries(options.tokens);
  // refusals are thrown: the gateway's error handler answers them from the error table, with a tracer
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (named.length === 0) throw new PaybridgeError('not_found', 'the operator paths are off: no operator token is configured');
    const given = tokenOf(request);
    const match = given === undefined ? undefined : named.find(([, token]) => same(given, token));
    if (!match) {
      reply.header('www-authenticate', 'Bearer');
      throw new PaybridgeError('unauthenticated', 'Authorization: the operator token is missing or wrong');
    }
    (request as FastifyRequest & { operator?: string }).operator = match[0];
  };
  // ?find=<id>: the comparisons of a gateway request id or an upstream tracer a customer quotes
  app.get('/_paybridge/report', { preHandler: guard }, async (request) => {
    const find = (request.query as Record<string, unknown> | undefined)?.find;
    return typeof find === 'string' && find !== '' ? { find, comparisons: options.find(find) } : options.report();
  });
  app.get('/_paybridge/', { preHandler: guard }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderReportHtml(options.report() as ShadowReport)),
  );

  const routeTable = () => {
    const table = options.routes.table;
    return {
      instance: options.instance,
      scope: options.routes.managedBy !== undefined
        ? `set by the configuration file ${options.routes.managedBy} (a ConfigMap: every replica); changes here are refused`
        : 'this replica: a change made here applies to this gateway only (no configuration file sets the table)',
      hash: options.live.hash(),
      version: table.version,
      changedAt: table.changedAt,
      source: table.source,
      default: { mode: modeOf(table, '*'), sample: sampleOf(table, '*') },
      /** What a canary:N% route's choice sticks to. */
      canaryKey: table.canaryKey,
      /** Modes set for one merchant, over the route's: merchant id -> route id -> mode. */
      merchants: table.merchants,
      routes: options.routeRows().map((row) => ({ ...row, mode: modeOf(table, row.route), sample: sampleOf(table, row.route), writeSafety: options.writeSafety(row.route) })),
    };
  };
  app.get('/_paybridge/routes', { preHandler: guard }, async () => routeTable());
  app.put('/_paybridge/routes/:route', { preHandler: guard }, async (request) => {
    // a change is made with the header only: a token in a URL ends up in histories and proxies' logs
    if (typeof request.headers.authorization !== 'string') throw new PaybridgeError('unauthenticated', 'Authorization: a route change takes the operator token in the Authorization header');
    const route = (request.params as { route: string }).route;
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new PaybridgeError('invalid_request', 'body: expected {mode?, sample?}');
    const unknown = Object.keys(body).find((key) => key !== 'mode' && key !== 'sample' && key !== 'merchant');
    if (unknown !== undefined) throw new PaybridgeError('invalid_request', `${unknown}: unknown field (mode, sample, merchant)`);
    const { mode, sample, merchant } = body as { mode?: unknown; sample?: unknown; merchant?: unknown };
    options.routes.change([{ route, mode, sample, ...(merchant !== undefined ? { merchant } : {}) }], `operator ${(request as FastifyRequest & { operator?: string }).operator}`);
    return routeTable();
  });
  app.get('/_paybridge/config', { preHandler: guard }, async () => ({ instance: options.instance, ...options.live.status(), config: maskedConfig(options.live.inForce()) }));
}
