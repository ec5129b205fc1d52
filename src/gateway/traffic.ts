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
import { headerRecord } from '../translate/headers.js';
import type { Translator } from '../translate/index.js';
import { createAnswers, type AnswersDeps, type Exchange } from './answers.js';
import { createClassifier } from './classify.js';
import { requestIdOf, type Decision } from './requests.js';
import { createPassthrough } from './routes/passthrough.js';
import { createShadowRoute } from './routes/shadow.js';
import { createCurrentCaller, createTranslated } from './routes/translated.js';
import type { Upstream } from './upstream.js';

export interface TrafficDeps extends AnswersDeps {
  config: Config;
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
  const classifier = createClassifier(config, translator, (route) => shadowRoute.shadow.admit(route));
  const callCurrent = createCurrentCaller({ classifier, upstream, answers });
  const shadowRoute = createShadowRoute({ ...deps, answers, upstreamFor: classifier.upstreamFor, callCurrent });
  const translate = createTranslated({ config, translator, tracing, answers, callCurrent, compareLater: shadowRoute.compareLater });
  const passthrough = createPassthrough({ config, upstream, tracing, answers });

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
          ? shadowRoute.shadowed(x)
          : translate(x, decision);
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

  return { handle, shadow: shadowRoute.shadow };
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
