/**
 * The endpoints a shop's page calls from the shopper's browser (card tokens, saved sources, pay-plan
 * offers, agreement polling), across origins: preflights answered for the origins the sandbox allows
 * (`sandbox.allowedOrigins`, `*` for the embedded demo), and from a page only the credentials a page
 * may hold (a public key, a checkout token, a customer JWT). A secret on a page is refused, never used.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PaybridgeError } from '../errors.js';
import type { PrincipalKind } from './access.js';

export interface BrowserAccess {
  /** Page origins (`https://shop.example`) allowed to call the browser endpoints and frame the card fields; `*` allows any. */
  allowedOrigins: readonly string[];
}

export const OPEN_BROWSER_ACCESS: BrowserAccess = { allowedOrigins: ['*'] };

export interface BrowserEndpoint {
  method: 'GET' | 'POST';
  url: string;
}

/** What a page may hold: nothing that could act for the merchant. */
const PAGE_CREDENTIALS: ReadonlySet<PrincipalKind> = new Set(['publicKey', 'checkoutToken', 'customerJwt']);

const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'customer-id',
  'merchant-id',
  'limepay-publickey',
  'limepay-checkouttoken',
  'limepay-customerjwt',
].join(', ');

function originAllowed(access: BrowserAccess, origin: string): boolean {
  return access.allowedOrigins.includes('*') || access.allowedOrigins.includes(origin);
}

/**
 * The `frame-ancestors` source list for pages the sandbox lets a shop frame (card fields, 3DS): the
 * allowed origins, and the sandbox's own (its demo shop).
 */
export function frameAncestors(access: BrowserAccess): string {
  return access.allowedOrigins.includes('*') ? '*' : ["'self'", ...access.allowedOrigins].join(' ');
}

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
}

/**
 * Preflight routes and CORS answers for `endpoints`; `credentialKind` names the credential a request
 * carries (undefined when it has none or a malformed one: the route's own check then answers).
 */
export function registerBrowserEndpoints(
  app: FastifyInstance,
  access: BrowserAccess,
  endpoints: readonly BrowserEndpoint[],
  credentialKind: (req: FastifyRequest) => Promise<PrincipalKind | undefined>,
): void {
  const methods = new Map<string, Set<string>>();
  for (const e of endpoints) methods.set(e.url, (methods.get(e.url) ?? new Set()).add(e.method));
  const browserRoute = (req: FastifyRequest) =>
    req.method !== 'OPTIONS' && methods.get(req.routeOptions.url ?? '')?.has(req.method) === true;

  for (const [url, allowed] of methods)
    app.options(url, async (req, reply) => {
      const origin = req.headers.origin;
      if (typeof origin !== 'string' || !originAllowed(access, origin))
        throw new PaybridgeError(
          'forbidden',
          `Origin: ${typeof origin === 'string' ? origin : 'none'} is not allowed to call ${url} (sandbox.allowedOrigins)`,
        );
      allowOrigin(reply, origin);
      return reply
        .code(204)
        .header('access-control-allow-methods', [...allowed].join(', '))
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    });

  app.addHook('onRequest', async (req, reply) => {
    const origin = req.headers.origin;
    if (typeof origin === 'string' && browserRoute(req) && originAllowed(access, origin)) allowOrigin(reply, origin);
  });
  app.addHook('preHandler', async (req) => {
    if (req.headers.origin === undefined || !browserRoute(req)) return;
    const kind = await credentialKind(req);
    if (kind !== undefined && !PAGE_CREDENTIALS.has(kind))
      throw new PaybridgeError(
        'forbidden',
        'credential: a web page may send only a public key, a checkout token or a customer JWT; keep secret credentials on the server',
      );
  });
}
