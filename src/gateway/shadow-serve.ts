/**
 * The gateway's side of shadow and canary modes: the primary call of a sampled shadow exchange
 * (the legacy upstream answers the client), and the hand-over of every sampled exchange to the
 * comparison queue once the client has its answer.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { createShadow } from '../shadow/engine.js';
import { answerBody } from '../translate/engine.js';
import type { CurrentRequest, CurrentResponse, LegacyRequest, Translator } from '../translate/index.js';
import { readBody } from './body.js';
import type { Metrics } from '../observability/metrics.js';
import { paramsOf, soleCredential } from './requests.js';
import { toPaybridgeError, type Upstream } from './upstream.js';

export interface ShadowServingDeps {
  config: Config;
  translator: Translator;
  metrics: Metrics;
  upstream: Upstream;
  log: FastifyBaseLogger;
  upstreamFor: (credential: string | undefined, generation: 'current' | 'legacy') => string;
  callCurrent: (current: CurrentRequest, requestId: string, route: string) => Promise<CurrentResponse>;
  /** Sets the headers every answer carries. */
  stamp: (reply: FastifyReply) => FastifyReply;
}

export function createShadowServing(deps: ShadowServingDeps) {
  const { config, metrics, upstream, upstreamFor } = deps;

  /** One legacy call forwarded unchanged to the legacy upstream of its credential. */
  async function callLegacy(request: LegacyRequest): Promise<CurrentResponse> {
    const headers = request.headers as Record<string, string | string[]>;
    const answer = await upstream.forward(upstreamFor(soleCredential(headers), 'legacy'), {
      method: request.method,
      path: request.path,
      headers: { ...headers, 'x-request-id': request.requestId ?? '' },
      ...(typeof request.body === 'string' ? { body: request.body } : {}),
    });
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
  function compareLater(
    request: FastifyRequest, mode: 'shadow' | 'canary', body: string | undefined, primary: { status: number; body: unknown; latencyMs: number }, primaryBytes: number,
  ): void {
    const decision = request.decision!;
    shadow.enqueue({
      bytes: (body?.length ?? 0) + primaryBytes,
      mode,
      route: decision.route,
      requestId: String(request.id),
      compiled: decision.match!.compiled,
      params: paramsOf(decision.match!),
      request: { method: request.method, path: request.url, headers: decision.headers, ...(body !== undefined ? { body } : {}) },
      primary,
    });
  }

  /** A sampled shadow exchange: the legacy upstream answers the client; the comparison runs afterwards. */
  async function serveShadow(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const started = performance.now();
    const body = await readBody(request, config.bodyLimitBytes);
    const decision = request.decision!;
    let answer;
    try {
      answer = await upstream.forward(upstreamFor(soleCredential(decision.headers), 'legacy'), {
        method: request.method,
        path: request.url,
        headers: { ...decision.headers, 'x-request-id': String(request.id) },
        ...(body !== undefined ? { body } : {}),
      });
    } catch (err) {
      const error = toPaybridgeError(err);
      metrics.upstreamErrors.inc({ route: decision.route, code: error.code, status: String(error.status) });
      throw err;
    }
    const latencyMs = performance.now() - started;
    const sent = deps.stamp(reply).code(answer.status).headers(answer.headers).send(answer.text === '' ? undefined : answer.text);
    compareLater(request, 'shadow', body, { status: answer.status, body: answerBody(answer.text, answer.headers['content-type']), latencyMs }, answer.text.length);
    return sent;
  }

  return { shadow, compareLater, serveShadow };
}
