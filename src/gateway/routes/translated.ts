/**
 * A legacy request in `current` or `canary` mode: the body read once, translated, sent to the current
 * API under the request's deadline, the answer translated back; a sampled canary exchange is then
 * handed to the comparison queue.
 */
import type { Config } from '../../config.js';
import { stringifyJson } from '../../contract/json.js';
import type { Tracing } from '../../observability/tracing.js';
import type { CurrentRequest, CurrentResponse, LegacyResponse } from '../../translate/messages.js';
import type { Translator } from '../../translate/index.js';
import type { Answers, Exchange } from '../answers.js';
import { hasBody, readBody } from '../body.js';
import type { createClassifier } from '../classify.js';
import { forwardedHeaders, type Decision } from '../requests.js';
import type { Corpus } from '../../shadow/corpus.js';
import type { ShadowRoute } from './shadow.js';
import type { Upstream } from '../upstream.js';

type CorpusCalls = { request: CurrentRequest; answer: CurrentResponse }[];

/** One translated current call, sent to the current upstream of its Bearer's environment. */
export type CallCurrent = (
  current: CurrentRequest,
  requestId: string,
  route: string,
  forwarded?: Record<string, string>,
  deadline?: number,
) => Promise<CurrentResponse>;

/** Current calls for the gateway (and the shadow comparisons), counted and logged when they fail. */
export function createCurrentCaller(deps: {
  classifier: ReturnType<typeof createClassifier>;
  upstream: Upstream;
  answers: Answers;
}): CallCurrent {
  const { classifier, upstream, answers } = deps;
  // a promise chain, not an async function: the translated path's every await is paid per request
  return (current, requestId, route, forwarded, deadline) => {
    const authorization = current.headers.authorization;
    let base: string;
    try {
      base = classifier.upstreamFor(
        authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined,
        'current',
      );
    } catch (err) {
      return Promise.reject(err);
    }
    // a call that fails as it starts (a synchronous throw) is an upstream failure like one that fails later
    let sent: Promise<CurrentResponse>;
    try {
      sent = upstream.call(base, current, requestId, deadline, forwarded);
    } catch (err) {
      sent = Promise.reject(err);
    }
    return sent.then(undefined, (err: unknown) => {
      throw answers.upstreamFailed(route, requestId, err, 'upstream call failed');
    });
  };
}

export interface TranslatedDeps {
  config: Config;
  translator: Translator;
  tracing: Tracing;
  answers: Answers;
  callCurrent: CallCurrent;
  compareLater: ShadowRoute['compareLater'];
  /** The replay corpus (shadow.corpus), when one is kept. */
  corpus?: Corpus | undefined;
}

export function createTranslated(deps: TranslatedDeps) {
  const { config, translator, tracing, answers, callCurrent } = deps;

  /** The translated exchange in spans: the gateway hop, the translation, and each upstream call with its own traceparent. */
  function tracedExecute(
    legacyRequest: Parameters<Translator['execute']>[0],
    route: string,
    send: (current: CurrentRequest, headers: Record<string, string>) => Promise<CurrentResponse>,
  ): Promise<LegacyResponse> {
    const parent =
      typeof legacyRequest.headers.traceparent === 'string' ? legacyRequest.headers.traceparent : undefined;
    const attributes = { 'paybridge.route': route, 'http.request.method': legacyRequest.method };
    return tracing.span(
      `paybridge ${route}`,
      parent,
      attributes,
      (hop) =>
        tracing.span(`translate ${route}`, hop, attributes, (translation) =>
          translator.execute(legacyRequest, (current) =>
            tracing.span(
              `upstream ${current.method}`,
              translation,
              { 'http.request.method': current.method, 'url.path': current.path.split('?')[0]! },
              (call) => send(current, tracing.headersOf(call)),
              'client',
            ),
          ),
        ),
      'server',
    );
  }

  /** The exchange once the body (if any) is read: translated, sent, its answer written. */
  function exchange(x: Exchange, decision: Decision, body: string | undefined): Promise<void> {
    const forwarded = forwardedHeaders(decision.headers, x.req);
    // one deadline for every upstream call of this request (a merchant token's look-up, a refund's read and the refund)
    const { deadline } = x;
    const legacyRequest = { method: x.method, path: x.url, headers: decision.headers, requestId: x.id, body, deadline };
    // a sampled exchange for the replay corpus: each current call and its answer, kept as they pass
    const calls = deps.corpus?.sampled() ? ([] as CorpusCalls) : undefined;
    const kept = (current: CurrentRequest, sent: Promise<CurrentResponse>) =>
      calls ? sent.then((got) => (calls.push({ request: current, answer: got }), got)) : sent;
    const answer = tracing.enabled
      ? tracedExecute(legacyRequest, decision.route, (current, headers) =>
          kept(current, callCurrent(current, x.id, decision.route, Object.assign({}, forwarded, headers), deadline)),
        )
      : translator.execute(
          legacyRequest,
          (current) => kept(current, callCurrent(current, x.id, decision.route, forwarded, deadline)),
          decision.match,
        );
    // the translator answers every failure as a legacy error (an upstream's 502 or 504 included): a
    // sampled canary exchange that failed is compared as it was answered, a mismatch at $status
    return answer.then((legacy) => {
      answers.sendLegacy(x, legacy);
      if (calls) deps.corpus!.write(decision.route, legacyRequest, legacy, calls);
      if (decision.sampled)
        deps.compareLater(
          x,
          'canary',
          body,
          { status: legacy.status, body: legacy.body, latencyMs: performance.now() - x.started },
          legacy.body === undefined ? 0 : stringifyJson(legacy.body).length,
        );
    });
  }

  /**
   * A translated request (a throw here is the caller's rejection: traffic.ts answers it); `read`: its
   * body, when the gateway already read it (a percentage canary looks into it to choose a side).
   */
  return function translate(x: Exchange, decision: Decision, read?: { body: Buffer | undefined }): Promise<void> {
    if (read) return exchange(x, decision, read.body?.toString('utf8'));
    if (!hasBody(x.req)) return exchange(x, decision, undefined);
    return readBody(x.req, config.bodyLimitBytes).then((body) => exchange(x, decision, body?.toString('utf8')));
  };
}
