/** The operator's view of shadow mode: the report as JSON and as an HTML page, behind a bearer token. */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PaybridgeError } from '../errors.js';
import { renderReportHtml } from '../shadow/html.js';
import type { ShadowReport } from '../shadow/ledger.js';

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

/**
 * `GET /_paybridge/report` (JSON) and `GET /_paybridge/` (HTML). The operator token comes as
 * `Authorization: Bearer <token>` or `?token=` (for a browser). Without a configured token both are 404.
 */
export function registerOperatorRoutes(
  app: FastifyInstance,
  options: { token: string | undefined; report: () => ShadowReport; find: (id: string) => unknown[] },
): void {
  // refusals are thrown: the gateway's error handler answers them from the error table, with a tracer
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!options.token) throw new PaybridgeError('not_found', 'the operator report is off: no operator token is configured');
    const given = tokenOf(request);
    if (!given || !same(given, options.token)) {
      reply.header('www-authenticate', 'Bearer');
      throw new PaybridgeError('unauthenticated', 'Authorization: the operator token is missing or wrong');
    }
  };
  // ?find=<id>: the comparisons of a gateway request id or an upstream tracer a customer quotes
  app.get('/_paybridge/report', { preHandler: guard }, async (request) => {
    const find = (request.query as Record<string, unknown> | undefined)?.find;
    return typeof find === 'string' && find !== '' ? { find, comparisons: options.find(find) } : options.report();
  });
  app.get('/_paybridge/', { preHandler: guard }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderReportHtml(options.report())),
  );
}
