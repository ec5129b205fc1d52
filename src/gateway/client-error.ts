import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { legacyErrorBody, type ErrorCode } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';

const REASONS: Record<number, string> = { 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** What Node's HTTP parser refused, in words a client can act on. */
function describe(err: Error & { code?: string }): { status: number; code: ErrorCode; detail: string } {
  switch (err.code) {
    case 'HPE_INVALID_HEADER_TOKEN':
    case 'HPE_LF_EXPECTED':
    case 'HPE_CR_EXPECTED':
      return { status: 400, code: 'invalid_request', detail: 'headers: a header name or value contains a forbidden character (CR, LF or a control character)' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'invalid_request', detail: 'headers: the request headers are too large' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, code: 'invalid_request', detail: 'method: not an HTTP method' };
    case 'HPE_INVALID_URL':
      return { status: 400, code: 'invalid_request', detail: 'path: not a valid request target' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'request_timeout', detail: 'request: the headers and body were not received in time; the connection is closed' };
    default:
      return { status: 400, code: 'invalid_request', detail: `request: malformed HTTP (${err.code ?? 'parse error'})` };
  }
}

/** A request Node's parser refused, as answered: for the log line and the count. */
export interface ClientRefusal {
  tracer: string;
  status: number;
  code: ErrorCode;
  detail: string;
}

/**
 * Fastify's clientErrorHandler: a request Node's parser refuses still gets a legacy-shaped error
 * (statusCode, errorCode, message, detail, tracer), then the connection is closed. `refused` hears
 * of each answer written, so that its tracer is in the log.
 */
export function legacyClientError(err: Error & { code?: string }, socket: Socket, refused?: (refusal: ClientRefusal) => void): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, code, detail } = describe(err);
  const tracer = randomUUID();
  refused?.({ tracer, status, code, detail });
  const body = JSON.stringify({ ...legacyErrorBody(code, detail, tracer), statusCode: status });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

/**
 * What the gateway does with each request Node's parser refused: counted
 * (`paybridge_client_refusals_total{status,code}`) and logged at warn with the tracer the client got.
 */
export function refusalRecorder(metrics: Metrics, warn: (obj: object, msg: string) => void): (refusal: ClientRefusal) => void {
  const refusals = metrics.counter('paybridge_client_refusals_total', "Requests Node's HTTP parser refused (malformed HTTP, headers too large, a client too slow), by status and error code.", ['status', 'code']);
  return ({ tracer, status, code, detail }) => {
    refusals.inc({ status: String(status), code });
    warn({ requestId: tracer, status, errorCode: code, detail }, 'request refused by the HTTP parser');
  };
}
