/**
 * A passthrough (current-generation calls, `legacy` mode, unsampled shadow exchanges, the sandbox's
 * own paths): the request forwarded as it came, the answer read whole and sent as it came.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Config } from '../../config.js';
import type { Tracing } from '../../observability/tracing.js';
import type { Answers, Exchange } from '../answers.js';
import { hasBody, readBody } from '../body.js';
import { forwardedHeaders, type Decision } from '../requests.js';
import { endToEnd, type Upstream } from '../upstream.js';

export interface PassthroughDeps {
  config: Config;
  upstream: Upstream;
  tracing: Tracing;
  answers: Answers;
}

export function createPassthrough({ config, upstream, tracing, answers }: PassthroughDeps) {
  return async function passthrough(x: Exchange, decision: Decision & { upstream: string }): Promise<void> {
    const deadline = Date.now() + config.timeouts.requestMs;
    const body = hasBody(x.req) ? await readBody(x.req, config.bodyLimitBytes) : undefined;
    if (tracing.enabled)
      x.span = tracing.start(`paybridge ${decision.route}`, typeof decision.headers.traceparent === 'string' ? decision.headers.traceparent : undefined, { 'paybridge.route': decision.route, 'http.request.method': x.method });
    const headers = Object.assign(endToEnd(decision.headers), forwardedHeaders(decision.headers, x.req), tracing.headersOf(x.span?.ctx));
    headers['x-request-id'] = x.id;
    let answer;
    try {
      answer = await upstream.exchange(decision.upstream, { method: x.method, path: x.url, headers, body }, deadline);
    } catch (err) {
      throw answers.upstreamFailed(decision.route, x.id, err, 'passthrough upstream call failed');
    }
    const out: OutgoingHttpHeaders = endToEnd(answer.headers);
    const bodiless = x.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    if (bodiless && answer.headers['content-length'] !== undefined) out['content-length'] = answer.headers['content-length'];
    answers.write(x, answer.status, out, bodiless ? undefined : answer.body);
  };
}
