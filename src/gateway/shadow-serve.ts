/**
 * The gateway's side of shadow and canary modes: the primary call of a sampled shadow exchange
 * (the legacy upstream answers the client), and the hand-over of every sampled exchange to the
 * comparison queue once the client has its answer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { createShadow } from '../shadow/engine.js';
import type { Answer, RawAnswer as RawPrimary } from '../shadow/exchange.js';
import { answerBody } from '../translate/answers.js';
import type { CurrentRequest, CurrentResponse, LegacyRequest, Translator } from '../translate/index.js';
import type { Metrics } from '../observability/metrics.js';
import { paramsOf, soleCredential } from './requests.js';
import type { Exchange } from './traffic.js';
import type { RawAnswer, Upstream } from './upstream.js';

export interface ShadowServingDeps {
  config: Config;
  translator: Translator;
  metrics: Metrics;
  upstream: Upstream;
  log: FastifyBaseLogger;
  upstreamFor: (credential: string | undefined, generation: 'current' | 'legacy') => string;
  callCurrent: (current: CurrentRequest, requestId: string, route: string) => Promise<CurrentResponse>;
}

export function createShadowServing(deps: ShadowServingDeps) {
  const { config, metrics, upstream, upstreamFor } = deps;

  /** One legacy call forwarded unchanged to the legacy upstream of its credential. */
  async function callLegacy(request: LegacyRequest): Promise<CurrentResponse> {
    const headers = request.headers as Record<string, string | string[]>;
    const answer = await upstream.forward(upstreamFor(soleCredential(headers), 'legacy'), {
      method: request.method,
      path: request.path,
      headers,
      ...(typeof request.body === 'string' ? { body: request.body } : {}),
    }, request.requestId ?? '');
    return { status: answer.status, body: answerBody(answer.text, answer.headers['content-type']) };
  }

  const shadow = createShadow({
    config,
    translator: deps.translator,
    metrics,
    callCurrent: (current, requestId) => deps.callCurrent(current, requestId, 'shadow'),
    callLegacy,
    log: deps.log,
  });

  /** Queues the comparison of an exchange the client already has the answer to. */
  function compareLater(x: Exchange, mode: 'shadow' | 'canary', body: string | undefined, primary: Answer | RawPrimary, primaryBytes: number): void {
    const decision = x.decision!;
    shadow.enqueue({
      bytes: (body?.length ?? 0) + primaryBytes,
      mode,
      route: decision.route,
      requestId: x.id,
      compiled: decision.match!.compiled,
      params: paramsOf(decision.match!),
      request: { method: x.method, path: x.url, headers: decision.headers, ...(body !== undefined ? { body } : {}) },
      primary,
    });
  }

  /** The primary call of a sampled shadow exchange: forwarded to the legacy upstream, its answer whole (served, then compared). */
  async function primary(x: Exchange, body: string | undefined): Promise<RawAnswer> {
    const decision = x.decision!;
    const answer = await upstream.forward(upstreamFor(soleCredential(decision.headers), 'legacy'), {
      method: x.method,
      path: x.url,
      headers: decision.headers,
      ...(body !== undefined ? { body } : {}),
    }, x.id);
    return answer;
  }

  return { shadow, compareLater, primary };
}
