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
import { endToEnd, headerList } from '../headers.js';
import type { Upstream } from '../upstream.js';

export interface PassthroughDeps {
  config: Config;
  upstream: Upstream;
  tracing: Tracing;
  answers: Answers;
}

export function createPassthrough({ config, upstream, tracing, answers }: PassthroughDeps) {
  /** The exchange once the body (if any) is read: forwarded, its answer written. */
  function send(x: Exchange, decision: Decision & { upstream: string }, body: Buffer | undefined): Promise<void> {
    let extra = forwardedHeaders(decision.headers, x.req);
    if (tracing.enabled) {
      x.span = tracing.start(
        `paybridge ${decision.route}`,
        typeof decision.headers.traceparent === 'string' ? decision.headers.traceparent : undefined,
        { 'paybridge.route': decision.route, 'http.request.method': x.method },
      );
      extra = Object.assign(extra, tracing.headersOf(x.span.ctx));
    }
    const request = { method: x.method, path: x.url, headers: headerList(decision.headers, extra, x.id), body };
    return upstream.exchange(decision.upstream, request, x.deadline).then(
      (answer) => {
        const out: OutgoingHttpHeaders = endToEnd(answer.headers);
        const bodiless = x.method === 'HEAD' || answer.status === 204 || answer.status === 304;
        if (bodiless && answer.headers['content-length'] !== undefined)
          out['content-length'] = answer.headers['content-length'];
        answers.write(x, answer.status, out, bodiless ? undefined : answer.body);
      },
      (err: unknown) => {
        throw answers.upstreamFailed(decision.route, x.id, err, 'passthrough upstream call failed');
      },
    );
  }

  // a promise chain, not an async function: its every await is paid per request
  /** `read`: the body, when the gateway already read it (a percentage canary looks into it to choose a side). */
  return function passthrough(
    x: Exchange,
    decision: Decision & { upstream: string },
    read?: { body: Buffer | undefined },
  ): Promise<void> {
    if (read) return send(x, decision, read.body);
    if (!hasBody(x.req)) return send(x, decision, undefined);
    return readBody(x.req, config.bodyLimitBytes).then((body) => send(x, decision, body));
  };
}
