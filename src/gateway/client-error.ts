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
      return {
        status: 400,
        code: 'invalid_request',
        detail: 'headers: a header name or value contains a forbidden character (CR, LF or a control character)',
      };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'invalid_request', detail: 'headers: the request headers are too large' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, code: 'invalid_request', detail: 'method: not an HTTP method' };
    case 'HPE_INVALID_URL':
      return { status: 400, code: 'invalid_request', detail: 'path: not a valid request target' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        code: 'request_timeout',
        detail: 'request: the headers and body were not received in time; the connection is closed',
      };
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

/** Parser errors that mean the client went away mid-request (the connection closed or reset): nobody to answer. */
const CLIENT_GONE = new Set(['HPE_INVALID_EOF_STATE', 'ECONNRESET', 'EPIPE']);

/**
 * Fastify's clientErrorHandler: a request Node's parser refuses still gets a legacy-shaped error
 * (statusCode, errorCode, message, detail, tracer), then the connection is closed. `refused` hears
 * of each answer written, so that its tracer is in the log; `gone` of a client that went away mid-request.
 */
export function legacyClientError(
  err: Error & { code?: string },
  socket: Socket,
  refused?: (refusal: ClientRefusal) => void,
  gone?: (code: string) => void,
): void {
  if (!socket.writable || CLIENT_GONE.has(err.code ?? '')) {
    if (CLIENT_GONE.has(err.code ?? '')) gone?.(err.code!);
    socket.destroy();
    return;
  }
  const { status, code, detail } = describe(err);
  refuseOnSocket(socket, status, code, detail, refused);
}

/** A legacy-shaped error written straight to a socket, which is then closed: for requests no handler may see. */
function refuseOnSocket(
  socket: Socket,
  status: number,
  code: ErrorCode,
  detail: string,
  refused?: (refusal: ClientRefusal) => void,
): void {
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
 * A `CONNECT` request (RFC 9110 section 9.3.6), which Node hands to no request handler: the gateway
 * is no forward proxy, so it is a legacy 400 naming the method, and the connection is closed (a
 * tunnel is never opened, whatever the target).
 */
export function refuseConnect(socket: Socket, refused?: (refusal: ClientRefusal) => void): void {
  if (!socket.writable) return void socket.destroy();
  refuseOnSocket(socket, 400, 'invalid_request', 'method: CONNECT is not served; the gateway is not a proxy', refused);
}

/**
 * What the gateway does with each request Node's parser refused: counted
 * (`paybridge_client_refusals_total{status,code}`) and logged at warn with the tracer the client got.
 */
export function refusalRecorder(
  metrics: Metrics,
  warn: (obj: object, msg: string) => void,
): (refusal: ClientRefusal) => void {
  const refusals = metrics.counter(
    'paybridge_client_refusals_total',
    "Requests Node's HTTP parser refused (malformed HTTP, headers too large, a client too slow, CONNECT), by status and error code.",
    ['status', 'code'],
  );
  return ({ tracer, status, code, detail }) => {
    refusals.inc({ status: String(status), code });
    warn({ requestId: tracer, status, errorCode: code, detail }, 'request refused by the HTTP parser');
  };
}
