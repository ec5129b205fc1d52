/**
 * One table of every error code paybridge (gateway, translator, sandbox) can answer with.
 * A code without a status or message fails to compile; tests assert on the code.
 */
export const ERRORS = {
  // taken, but its answer could not be read in full: the call must not be repeated
  answer_incomplete: {
    status: 202,
    message:
      'The payment service took the call, but its answer could not be read in full; do not repeat the call: read the resource',
  },
  // client errors
  invalid_request: { status: 400, message: 'The request is invalid' },
  invalid_credentials: { status: 400, message: 'The request carries conflicting credentials' },
  currency_mismatch: { status: 400, message: 'The currency differs from the transaction currency' },
  do_not_honor: { status: 400, message: 'The payment was declined' },
  card_blocked: { status: 400, message: 'The card is blocked for this merchant' },
  refund_exceeds_amount: { status: 400, message: 'The refund exceeds the refundable amount' },
  capture_exceeds_amount: { status: 400, message: 'The capture exceeds the authorised amount' },
  transfer_exceeds_amount: { status: 400, message: 'The transfer exceeds the transferable amount' },
  pay_plan_limit_exceeded: { status: 400, message: 'The pay plan exceeds the customer limit' },
  missing_credentials: { status: 401, message: 'No credentials were supplied' },
  unauthenticated: { status: 401, message: 'The credentials are not valid' },
  unsupported_credentials: { status: 401, message: 'The credential scheme is not supported' },
  forbidden: { status: 403, message: 'The credentials are not authorised for this action' },
  not_found: { status: 404, message: 'The resource was not found' },
  route_not_mapped: { status: 404, message: 'The route is not known' },
  order_already_paid: { status: 409, message: 'The order is already paid' },
  order_cancelled: { status: 409, message: 'The order is cancelled' },
  order_not_cancellable: { status: 409, message: 'The order cannot be cancelled' },
  agreement_not_active: { status: 409, message: 'The agreement is not active' },
  token_already_used: { status: 409, message: 'The payment token was already used' },
  threeds_not_pending: { status: 409, message: 'The 3DS authorisation is not pending' },
  transaction_not_refundable: { status: 409, message: 'The transaction cannot be refunded' },
  transaction_not_capturable: { status: 409, message: 'The transaction cannot be captured' },
  transaction_not_cancellable: { status: 409, message: 'The authorisation cannot be cancelled' },
  transfer_not_reversible: { status: 409, message: 'The transfer cannot be reversed' },
  source_not_usable: { status: 409, message: 'The payment source cannot be used' },
  request_timeout: { status: 408, message: 'The request was not received in time' },
  payload_too_large: { status: 413, message: 'The request body is too large' },
  // server side
  internal_error: { status: 500, message: 'An internal error occurred' },
  upstream_error: { status: 502, message: 'The upstream service failed' },
  upstream_timeout: { status: 504, message: 'The upstream service timed out' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

/** The error object of the current API; the legacy shape is the same without errorTypeDescription. */
export interface CurrentErrorBody {
  statusCode: number;
  errorCode: string;
  message: string;
  tracer: string;
  detail: string;
  errorTypeDescription: string;
}

/** The legacy error: the current shape, errorTypeDescription included (legacy-api.md section 5, reference). */
export type LegacyErrorBody = CurrentErrorBody;

/** A failure with a code from ERRORS and a detail naming what was wrong (a field, a header, an id). */
export class PaybridgeError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail: string;

  constructor(code: ErrorCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = 'PaybridgeError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.detail = detail;
  }
}

/** undici's timeout errors by code (an AbortSignal.timeout() abort is told by its name, TimeoutError). */
const UPSTREAM_TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * An upstream call's failure (an undici error, an abort) as the error answered, the gateway's and
 * the library's alike: a timeout is a 504 `upstream_timeout`, anything else a 502 `upstream_error`;
 * a PaybridgeError stays as it is.
 */
export function fromUpstreamError(err: unknown): PaybridgeError {
  if (err instanceof PaybridgeError) return err;
  const { code, name, message } = (err ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
  const id = typeof code === 'string' && code !== '' ? code : undefined;
  if ((id !== undefined && UPSTREAM_TIMEOUTS.has(id)) || name === 'TimeoutError')
    return new PaybridgeError('upstream_timeout', `the upstream did not answer in time (${id ?? 'TimeoutError'})`);
  return new PaybridgeError(
    'upstream_error',
    `the upstream call failed: ${id ?? (typeof message === 'string' ? message : String(err))}`,
  );
}

export function errorTypeDescription(status: number): string {
  if (status < 300) return 'The request was taken; its outcome must be read back.';
  if (status === 401) return 'Authentication failed: the credentials are missing or not valid.';
  if (status === 403) return 'Authorisation failed: the credentials may not perform this action.';
  if (status === 404) return 'The requested resource does not exist or is not visible to the caller.';
  if (status === 409) return 'The request conflicts with the current state of the resource.';
  if (status >= 400 && status < 500) return 'A client-side error, such as malformed syntax or values in the request.';
  return 'A server-side error; the request may be retried later if it is safe to do so.';
}

/**
 * Legacy-shaped error body (statusCode, errorCode, message, detail, tracer, errorTypeDescription): the
 * published legacy reference's error is the current one; a gateway failure's errorTypeDescription is
 * the sentence for its status class.
 */
export function legacyErrorBody(code: ErrorCode, detail: string, tracer: string): LegacyErrorBody {
  const { status, message } = ERRORS[code];
  return {
    statusCode: status,
    errorCode: code,
    message,
    detail,
    tracer,
    errorTypeDescription: errorTypeDescription(status),
  };
}

/** Current-API error body: the legacy keys plus errorTypeDescription. */
export function currentErrorBody(code: ErrorCode, detail: string, tracer: string): CurrentErrorBody {
  const { status, message } = ERRORS[code];
  return {
    statusCode: status,
    errorCode: code,
    message,
    tracer,
    detail,
    errorTypeDescription: errorTypeDescription(status),
  };
}
