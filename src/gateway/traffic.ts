/**
 * The gateway's traffic on node:http, outside fastify's request pipeline: every request that is not
 * one of the gateway's own paths, classified once and handed to its route: translated (routes/
 * translated.ts), passed through (routes/passthrough.ts) or shadowed (routes/shadow.ts). Each answer
 * is read whole under the request's deadline and written with its headers in one write (answers.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { PaybridgeError } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';
import type { Tracing } from '../observability/tracing.js';
import { newRequestId } from '../contract/ids.js';
import type { Corpus } from '../shadow/corpus.js';
import { isLegacyRequest } from '../translate/credentials.js';
import { headerRecord } from '../translate/headers.js';
import type { Translator } from '../translate/index.js';
import { createAnswers, type AnswersDeps, type Exchange } from './answers.js';
import { hasBody, readBody } from './body.js';
import { keyFromBody, keyFromPath, merchantKey, servedByTranslation } from './canary.js';
import { createClassifier } from './classify.js';
import { createMerchants } from './merchants.js';
import { trustedProxies } from './proxies.js';
import { requestIdOf, soleCredential, type Decision } from './requests.js';
import { hasMerchantModes, type RouteTable } from './route-control.js';
import { createPassthrough } from './routes/passthrough.js';
import { createShadowRoute } from './routes/shadow.js';
import { createCurrentCaller, createTranslated } from './routes/translated.js';
import type { Upstream } from './upstream.js';

export interface TrafficDeps extends AnswersDeps {
  config: Config;
  /** The live route table (modes, sample rates). */
  routes: { readonly table: RouteTable };
  /** The replay corpus (shadow.corpus), when one is kept. */
  corpus?: Corpus | undefined;
  translator: Translator;
  upstream: Upstream;
  metrics: Metrics;
  tracing: Tracing;
  log: FastifyBaseLogger;
}

export function createTraffic(deps: TrafficDeps) {
  const { config, translator, upstream, tracing } = deps;
  const answers = createAnswers(deps);
  // a sampled shadow exchange is compared only when the queue has room; else it is served as unsampled
  const classifier = createClassifier(config, translator, deps.routes, (route) => shadowRoute.shadow.admit(route));
  const callCurrent = createCurrentCaller({ classifier, upstream, answers });
  const merchants = createMerchants({
    merchantTokens: config.merchantTokens,
    call: (current, deadline) => callCurrent(current, newRequestId(), 'merchant', undefined, deadline),
  });
  const shadowRoute = createShadowRoute({ ...deps, answers, upstreamFor: classifier.upstreamFor, callCurrent });
  const translate = createTranslated({
    config,
    translator,
    tracing,
    answers,
    callCurrent,
    compareLater: shadowRoute.compareLater,
    corpus: deps.corpus,
  });
  const passthrough = createPassthrough({ config, upstream, tracing, answers });
  const fromTrustedProxy = trustedProxies(config.trustedProxies);

  /** The node:http handler of all traffic. */
  function handle(req: IncomingMessage, res: ServerResponse): void {
    let headers: Record<string, string | string[]> = {};
    let unreadable: { thrown: unknown } | undefined;
    try {
      headers = headerRecord(req.rawHeaders);
    } catch (err) {
      unreadable = { thrown: err };
    }
    // a forwarded host or scheme is a trusted proxy's word, or no one's: the URLs built from it send shoppers there
    if (
      (headers['x-forwarded-host'] !== undefined || headers['x-forwarded-proto'] !== undefined) &&
      !fromTrustedProxy(req.socket.remoteAddress)
    ) {
      delete headers['x-forwarded-host'];
      delete headers['x-forwarded-proto'];
    }
    const x: Exchange = {
      req,
      res,
      id: requestIdOf(headers),
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers,
      started: performance.now(),
      deadline: Date.now() + config.timeouts.requestMs,
    };
    if (x.url === '*' && x.method === 'OPTIONS') {
      // the server as a whole (RFC 9110 section 9.3.7): answered here, nothing upstream has to say
      x.decision = { generation: 'current', headers, route: 'server', mode: 'passthrough' };
      return answers.write(x, 204, { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' });
    }
    let work: Promise<void>;
    try {
      if (unreadable !== undefined) throw unreadable.thrown;
      checkTarget(x.method, x.url);
      // modes set per merchant: the credential's merchant first (known, or asked of the current API once)
      const credential =
        hasMerchantModes(deps.routes.table) && isLegacyRequest(headers) ? soleCredential(headers) : undefined;
      const merchant = merchants.known(credential);
      work =
        merchant === undefined
          ? merchants.resolve(credential!, x.deadline).then((found) => dispatch(x, found ?? undefined))
          : dispatch(x, merchant ?? undefined);
    } catch (err) {
      work = Promise.reject(err);
    }
    work.then(undefined, (err: unknown) => {
      try {
        answers.sendError(x, err);
      } catch (failed) {
        answers.lastResort(x, failed);
      }
    });
  }

  /** The request classified (under the route table in force now) and handed to its route. */
  function dispatch(x: Exchange, merchant: string | undefined): Promise<void> {
    const decision = classifier.classify(x.method, x.url, x.headers, (d) => (x.decision = d), merchant);
    return decision.upstream
      ? passthrough(x, decision as Decision & { upstream: string })
      : decision.canary
        ? split(x, decision)
        : decision.mode === 'shadow'
          ? shadowRoute.shadowed(x)
          : translate(x, decision);
  }

  /**
   * A percentage canary's request: the side that answers it chosen by what it is about (named on its
   * path, else in its body, which is then read first; else its merchant), so one order's calls take
   * one path. The translation's share is served as in canary mode; the rest as in shadow mode.
   */
  function split(x: Exchange, decision: Decision): Promise<void> {
    const { key } = decision.canary!;
    const onPath = key === 'merchant' ? merchantKey(decision) : keyFromPath(key, decision, x.url);
    if (onPath !== undefined || key === 'request' || !hasBody(x.req))
      return serve(x, decision, onPath ?? (key === 'request' ? undefined : merchantKey(decision)));
    return readBody(x.req, config.bodyLimitBytes).then((body) =>
      serve(x, decision, keyFromBody(key, body?.toString('utf8')) ?? merchantKey(decision), { body }),
    );
  }

  function serve(
    x: Exchange,
    decision: Decision,
    key: string | undefined,
    read?: { body: Buffer | undefined },
  ): Promise<void> {
    const { percent } = decision.canary!;
    const side = servedByTranslation(percent, key) ? 'translation' : 'legacy';
    shadowRoute.shadow.served(decision.route, side, percent);
    if (side === 'translation') return translate(x, decision, read);
    // answered by the legacy upstream: compared as a shadow exchange when sampled and the queue has room
    if (decision.sampled && shadowRoute.shadow.admit(decision.route)) return shadowRoute.shadowed(x, read);
    decision.sampled = false;
    decision.upstream = classifier.upstreamFor(soleCredential(decision.headers), 'legacy');
    return passthrough(x, decision as Decision & { upstream: string }, read);
  }

  return { handle, shadow: shadowRoute.shadow };
}

/** A `.` or `..` path segment, also percent-encoded (`%2e`), which a server behind us may resolve. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * The request target is refused before anything else looks at it unless it is a path an upstream
 * reads as we do (RFC 9112 section 3.2): origin-form only (no absolute-form `http://host/...`; the
 * asterisk-form `OPTIONS *` is answered before this), percent-encoding well formed, no dot segments
 * (`/sandbox/../orders` would be routed as one path here and resolved to another there).
 */
function checkTarget(method: string, url: string): void {
  if (url.charCodeAt(0) !== 47 /* / */)
    throw new PaybridgeError(
      'invalid_request',
      `path: ${method} needs a path starting with /, not an absolute or other form of target`,
    );
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (path.includes('%')) {
    try {
      decodeURIComponent(path);
    } catch {
      throw new PaybridgeError('invalid_request', 'path: malformed percent-encoding');
    }
  }
  if (path.includes('.') || path.includes('%'))
    if (DOT_SEGMENT.test(path))
      throw new PaybridgeError('invalid_request', 'path: dot segments (. or ..) are not accepted');
}
