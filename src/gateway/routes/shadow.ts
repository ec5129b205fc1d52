/**
 * The gateway's side of shadow and canary modes: a sampled shadow exchange (the legacy upstream
 * answers the client, its answer whole), and the hand-over of every sampled exchange to the
 * comparison queue once the client has its answer.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Metrics } from '../../observability/metrics.js';
import { createShadow } from '../../shadow/engine.js';
import { clientKindOf, type Answer, type RawAnswer as RawPrimary } from '../../shadow/exchange.js';
import { answerBody } from '../../translate/answers.js';
import type { CurrentResponse, LegacyRequest, Translator } from '../../translate/index.js';
import type { Answers, Exchange } from '../answers.js';
import { hasBody, readBody } from '../body.js';
import { forwardedHeaders, paramsOf, soleCredential } from '../requests.js';
import type { Corpus } from '../../shadow/corpus.js';
import type { WriteTicket } from '../../shadow/write-order.js';
import { isWriteRoute } from '../../translate/define.js';
import type { Upstream } from '../upstream.js';
import type { CallCurrent } from './translated.js';

export interface ShadowRouteDeps {
  config: Config;
  translator: Translator;
  metrics: Metrics;
  upstream: Upstream;
  log: FastifyBaseLogger;
  answers: Answers;
  upstreamFor: (credential: string | undefined, generation: 'current' | 'legacy') => string;
  callCurrent: CallCurrent;
  corpus?: Corpus | undefined;
}

export function createShadowRoute(deps: ShadowRouteDeps) {
  const { config, metrics, upstream, upstreamFor, answers } = deps;

  /** One legacy request forwarded unchanged to the legacy upstream of its credential, its answer whole. */
  function forwardLegacy(
    method: string,
    path: string,
    headers: Record<string, string | string[]>,
    body: string | undefined,
    requestId: string,
    deadline?: number,
    forwarded?: Record<string, string>,
  ) {
    return upstream.forward(
      upstreamFor(soleCredential(headers), 'legacy'),
      { method, path, headers, body },
      requestId,
      deadline,
      forwarded,
    );
  }

  /** A comparison's own legacy call (a canary's candidate, a read again to learn noise), its answer parsed. */
  async function callLegacy(request: LegacyRequest): Promise<CurrentResponse> {
    const body = typeof request.body === 'string' ? request.body : undefined;
    const answer = await forwardLegacy(
      request.method,
      request.path,
      request.headers as Record<string, string | string[]>,
      body,
      request.requestId ?? '',
    );
    return { status: answer.status, body: answerBody(answer.text, answer.headers['content-type']) };
  }

  const shadow = createShadow({
    config,
    translator: deps.translator,
    metrics,
    callCurrent: (current, requestId) => deps.callCurrent(current, requestId, 'shadow'),
    callLegacy,
    log: deps.log,
    corpus: deps.corpus,
  });

  /** Queues the comparison of an exchange the client already has the answer to. */
  function compareLater(
    x: Exchange,
    mode: 'shadow' | 'canary',
    body: string | undefined,
    primary: Answer | RawPrimary,
    primaryBytes: number,
    ticket?: WriteTicket,
  ): void {
    const decision = x.decision!;
    shadow.enqueue({
      bytes: (body?.length ?? 0) + primaryBytes,
      mode,
      route: decision.route,
      requestId: x.id,
      compiled: decision.match!.compiled,
      params: paramsOf(decision.match!),
      request: { method: x.method, path: x.url, headers: decision.headers, body },
      primary,
      merchant: decision.merchant,
      client: clientKindOf(decision.headers['user-agent']),
      ticket,
    });
  }

  /**
   * A sampled shadow exchange: the legacy upstream answers the client; the comparison runs afterwards.
   * `read`: the body, when the gateway already read it (a percentage canary looks into it).
   */
  async function shadowed(x: Exchange, read?: { body: Buffer | undefined }): Promise<void> {
    const decision = x.decision!;
    const raw = read ? read.body : hasBody(x.req) ? await readBody(x.req, config.bodyLimitBytes) : undefined;
    const body = raw?.toString('utf8');
    let answer;
    // a write's place among the writes of its resources, so its comparison tells a race by order
    const ticket = isWriteRoute(decision.match!.compiled.mapping) ? shadow.writes.begins(x.url, body) : undefined;
    try {
      // under the request's deadline, which started before its body was read
      answer = await forwardLegacy(
        x.method,
        x.url,
        decision.headers,
        body,
        x.id,
        x.deadline,
        forwardedHeaders(decision.headers, x.req),
      );
    } catch (err) {
      if (ticket) shadow.writes.ends(ticket);
      const error = answers.upstreamFailed(decision.route, x.id, err, 'shadow primary call failed');
      shadow.primaryFailed(decision.route, x.id, error);
      throw error;
    }
    if (ticket) shadow.writes.ends(ticket);
    const latencyMs = performance.now() - x.started;
    answers.write(x, answer.status, answer.headers, answer.text === '' ? undefined : answer.text);
    compareLater(
      x,
      'shadow',
      body,
      { status: answer.status, text: answer.text, contentType: answer.headers['content-type'], latencyMs },
      answer.text.length,
      ticket,
    );
  }

  return { shadow, compareLater, shadowed };
}

export type ShadowRoute = ReturnType<typeof createShadowRoute>;
