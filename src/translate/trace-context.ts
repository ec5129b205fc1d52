/** W3C trace context (`traceparent`, `tracestate`) as it crosses the translation. */
import type { Headers } from './credentials.js';

const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

/** The request's W3C trace context (`traceparent`, and `tracestate` beside it), when well-formed. */
export function traceContext(headers: Headers): Record<string, string> | undefined {
  const parent = headers.traceparent;
  if (
    typeof parent !== 'string' ||
    !TRACEPARENT.test(parent.trim().toLowerCase()) ||
    /^[\da-f]{2}-0{32}-/.test(parent.trim())
  )
    return undefined;
  const state = headers.tracestate;
  return {
    traceparent: parent.trim().toLowerCase(),
    ...(typeof state === 'string' && state.length <= 512 ? { tracestate: state } : {}),
  };
}

/** The trace id of a request's `traceparent`, for its log lines. */
export const traceIdOf = (headers: Headers): string | undefined => traceContext(headers)?.traceparent?.slice(3, 35);
