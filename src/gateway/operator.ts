/** The operator's paths: the shadow report (JSON and an HTML page), the live route table and the configuration in force, behind a bearer token. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { PaybridgeError } from '../errors.js';
import { REDACTED, redactValue, scrub } from '../observability/redact.js';
import { renderReportHtml } from '../shadow/html.js';
import type { ShadowReport } from '../shadow/ledger.js';
import type { LiveConfig } from './live-config.js';
import { modeOf, sampleOf, type RouteControl } from './route-control.js';

/**
 * The operator token of a request: the one `Authorization: Bearer` value, non-empty. Never the URL: a
 * token in a query string lands in access logs, proxies and browser histories.
 */
function tokenOf(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization;
  return typeof auth === 'string' ? /^\s*Bearer +(\S+)\s*$/i.exec(auth)?.[1] : undefined;
}

/** A token as compared: its SHA-256, so every comparison is of 32 bytes whatever the lengths (timingSafeEqual needs equal ones). */
const digestOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Why a login was refused, for the log line (never the token). */
function refusalOf(request: FastifyRequest): string {
  const auth = request.headers.authorization;
  if (auth === undefined) return 'no Authorization header';
  return /^\s*Bearer(?:\s|$)/i.test(auth)
    ? tokenOf(request) === undefined
      ? 'an empty or malformed Bearer value'
      : 'an unknown token'
    : 'not the Bearer scheme';
}

/** The configuration as it runs, every secret masked: tokens, keys, merchant tokens, credentials in URLs. */
function maskedConfig(config: Config): unknown {
  const masked = redactValue(JSON.parse(JSON.stringify(config))) as Record<string, unknown>;
  masked.merchantTokens = Object.fromEntries(
    Object.values(config.merchantTokens).map((merchantId, i) => [`[redacted token ${i + 1}]`, merchantId]),
  );
  masked.operatorTokens = Object.fromEntries(Object.keys(config.operatorTokens).map((name) => [name, REDACTED]));
  if (config.operatorToken) masked.operatorToken = REDACTED;
  return masked;
}

export interface OperatorOptions {
  /** Operator token by name (`operator` for operatorToken); none: the operator paths are off. */
  tokens: Readonly<Record<string, string>>;
  report: () => unknown;
  find: (id: string) => unknown[];
  /** An operator's acceptance of one shadow difference (route, path, both values), by the token's name. */
  accept: (body: unknown, by: string) => unknown;
  /** The acceptances this replica holds. */
  accepted: () => unknown[];
  /** The configuration in force (the live route table laid in) and what the reloads did. */
  live: LiveConfig;
  routes: RouteControl;
  /** The legacy route table: route id, legacy call, current call. */
  routeRows: () => { route: string; legacy: string; current: string }[];
  /** A write route's write safety; undefined for a read (left out of the table). */
  writeSafety: (route: string) => string | undefined;
  instance: string;
}

/**
 * The operator's paths, behind a bearer token (`Authorization: Bearer <token>` only, compared in
 * constant time; a refusal is logged with its tracer and source address); without a configured token
 * they are 404:
 * - `GET /_paybridge/report` (JSON, `?find=ID`) and `GET /_paybridge/` (HTML): the shadow report;
 * - `GET /_paybridge/routes`: the live route table by route id, each route's mode, sample rate and (a write's) write safety;
 * - `PUT /_paybridge/routes/{route}` `{mode?, sample?}`: changes this replica's table at once;
 *   `{merchant, mode}` sets (`mode: null` removes) one merchant's mode of the route; refused (403)
 *   while a configuration file sets the table, which the next reload would apply over the change;
 * - `POST /_paybridge/accepted` `{route, path, primary, candidate, note?}`: accepts one shadow difference
 *   as not mattering on this replica (audited: a log line and a record naming the token's name);
 *   `GET /_paybridge/accepted` lists this replica's acceptances;
 * - `GET /_paybridge/config`: the configuration in force (after reloads), secrets masked, its hash
 *   and generation, and the settings a reload read but did not apply.
 */
export function registerOperatorRoutes(app: FastifyInstance, options: OperatorOptions): void {
  const named = Object.entries(options.tokens).map(([name, token]) => [name, digestOf(token)] as const);
  // refusals are thrown: the gateway's error handler answers them from the error table, with a tracer.
  // The guard runs as the request arrives, before its body is read: a stranger's body is never parsed.
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (named.length === 0)
      throw new PaybridgeError('not_found', 'the operator paths are off: no operator token is configured');
    const given = tokenOf(request);
    // every configured token compared, whichever matches: the time taken tells nothing of which, or how near
    const digest = digestOf(given ?? '');
    let match: string | undefined;
    for (const [name, token] of named)
      if (timingSafeEqual(digest, token) && given !== undefined && match === undefined) match = name;
    if (match === undefined) {
      request.log.warn(
        {
          source: request.socket.remoteAddress,
          method: request.method,
          path: request.url.split('?')[0],
          reason: refusalOf(request),
        },
        'operator login refused',
      );
      reply.header('www-authenticate', 'Bearer');
      throw new PaybridgeError('unauthenticated', 'Authorization: the operator token is missing or wrong');
    }
    (request as FastifyRequest & { operator?: string }).operator = match;
  };
  // ?find=<id>: the comparisons of a gateway request id or an upstream tracer a customer quotes
  app.get('/_paybridge/report', { onRequest: guard }, async (request) => {
    const find = (request.query as Record<string, unknown> | undefined)?.find;
    return typeof find === 'string' && find !== ''
      ? { find: scrub(find), comparisons: redactValue(options.find(find)) }
      : redactValue(options.report());
  });
  app.get('/_paybridge/', { onRequest: guard }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(renderReportHtml(options.report() as ShadowReport)),
  );

  const routeTable = () => {
    const table = options.routes.table;
    return {
      instance: options.instance,
      scope:
        options.routes.managedBy !== undefined
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
      routes: options.routeRows().map((row) => ({
        ...row,
        mode: modeOf(table, row.route),
        sample: sampleOf(table, row.route),
        writeSafety: options.writeSafety(row.route),
      })),
    };
  };
  app.get('/_paybridge/routes', { onRequest: guard }, async () => routeTable());
  app.put('/_paybridge/routes/:route', { onRequest: guard }, async (request) => {
    const route = (request.params as { route: string }).route;
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new PaybridgeError('invalid_request', 'body: expected {mode?, sample?}');
    const unknown = Object.keys(body).find((key) => key !== 'mode' && key !== 'sample' && key !== 'merchant');
    if (unknown !== undefined)
      throw new PaybridgeError('invalid_request', `${unknown}: unknown field (mode, sample, merchant)`);
    const { mode, sample, merchant } = body as { mode?: unknown; sample?: unknown; merchant?: unknown };
    options.routes.change(
      [{ route, mode, sample, ...(merchant !== undefined ? { merchant } : {}) }],
      `operator ${(request as FastifyRequest & { operator?: string }).operator}`,
    );
    return routeTable();
  });
  app.get('/_paybridge/accepted', { onRequest: guard }, async () => ({
    instance: options.instance,
    accepted: redactValue(options.accepted()),
  }));
  app.post('/_paybridge/accepted', { onRequest: guard }, async (request, reply) => {
    const done = options.accept(request.body, (request as FastifyRequest & { operator?: string }).operator!);
    return reply.status(201).send({ instance: options.instance, ...(done as object) });
  });
  app.get('/_paybridge/config', { onRequest: guard }, async () => ({
    instance: options.instance,
    ...options.live.status(),
    config: maskedConfig(options.live.inForce()),
  }));
}
