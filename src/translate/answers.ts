/** Current answers as legacy answers: the body as read, and every error in the legacy shape. */
import { parseJsonValue } from '../contract/json.js';
import { errorTypeDescription, legacyErrorBody, PaybridgeError, type LegacyErrorBody } from '../errors.js';
import type { CurrentResponse, LegacyResponse } from './messages.js';
import { isObj } from './shape.js';

/** An upstream answer body: parsed when declared and well-formed JSON, else the text; undefined when empty. */
export function answerBody(text: string, contentType: unknown): unknown {
  if (text === '') return undefined;
  if (typeof contentType === 'string' && contentType.includes('json')) {
    try {
      return parseJsonValue(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The legacy error for a current error answer; a 5xx or an answer without an error object is a 502. */
export function legacyError(response: CurrentResponse, requestId: string): LegacyResponse {
  const body = response.body;
  if (response.status >= 500)
    return errorResponse(
      new PaybridgeError(
        'upstream_error',
        `the current API answered ${response.status}${isObj(body) && typeof body.errorCode === 'string' ? ` ${body.errorCode}` : ''}`,
      ),
      requestId,
    );
  if (!isObj(body) || typeof body.errorCode !== 'string')
    return errorResponse(
      new PaybridgeError('upstream_error', `the current API answered ${response.status} without an error object`),
      requestId,
    );
  const error: LegacyErrorBody = {
    statusCode: response.status,
    errorCode: body.errorCode,
    message: typeof body.message === 'string' ? body.message : '',
    detail: typeof body.detail === 'string' ? body.detail : '',
    tracer: typeof body.tracer === 'string' ? body.tracer : requestId,
    // the current API's own sentence when it gives one (the legacy reference carries it), else the class's
    errorTypeDescription:
      typeof body.errorTypeDescription === 'string' ? body.errorTypeDescription : errorTypeDescription(response.status),
  };
  return { status: response.status, body: error };
}

/** Any failure as a legacy error answer: a PaybridgeError keeps its code; anything else is a 500 internal_error. */
export function errorResponse(err: unknown, requestId: string): LegacyResponse {
  const error = err instanceof PaybridgeError ? err : new PaybridgeError('internal_error', 'the translation failed');
  return { status: error.status, body: legacyErrorBody(error.code, error.detail, requestId) };
}
