/** What both sandbox faces share: a fastify app whose every failure is an error object of the face's shape. */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { parseJsonBody, stringifyJson } from '../contract/json.js';
import { z } from 'zod';
import { PaybridgeError, type ErrorCode } from '../errors.js';
import { describeIssues } from '../contract/zod-helpers.js';
import { hasIdForm, ID_PREFIX, type IdKind } from '../contract/ids.js';

const SANDBOX_BODY_LIMIT = 1024 * 1024;

type ErrorRenderer = (code: ErrorCode, detail: string, tracer: string) => object;

/** Maps fastify's own failures (body parser, body limit, content type) to the error table. */
function toPaybridgeError(err: unknown): PaybridgeError {
  if (err instanceof PaybridgeError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || e.statusCode === 413)
    return new PaybridgeError('payload_too_large', `body: exceeds ${SANDBOX_BODY_LIMIT} bytes`);
  if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new PaybridgeError('invalid_request', 'Content-Type: expected application/json');
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500)
    return new PaybridgeError('invalid_request', `request: ${e.message ?? 'malformed'}`);
  return new PaybridgeError('internal_error', 'the sandbox failed to handle the request');
}

export interface FaceAppOptions {
  renderError: ErrorRenderer;
  /** The error for a path the face does not serve. */
  notFound: (method: string, path: string) => PaybridgeError;
}

export function createFaceApp(options: FaceAppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: SANDBOX_BODY_LIMIT,
    genReqId: () => randomUUID(),
    // the URLs the sandbox builds (3DS redirectUrl, magic links) follow the address a proxy was reached at
    trustProxy: true,
    keepAliveTimeout: 65_000,
    forceCloseConnections: true,
  });
  // numbers a double cannot hold (metadata) leave exactly as they came
  app.setReplySerializer((payload) => stringifyJson(payload));
  app.removeAllContentTypeParsers();
  // a body is JSON whatever its declared Content-Type, on both faces: the legacy clients (legacy-api.md
  // section 0) and the official current plugin (current-api-decisions.md) label theirs form-urlencoded
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.setErrorHandler((err, req, reply) => {
    const error = toPaybridgeError(err);
    if (error.code === 'internal_error') req.log.error({ err }, 'sandbox handler failed');
    void reply.code(error.status).send(options.renderError(error.code, error.detail, String(req.id)));
  });
  app.setNotFoundHandler((req, reply) => {
    const error = options.notFound(req.method, req.url.split('?')[0] ?? req.url);
    void reply.code(error.status).send(options.renderError(error.code, error.detail, String(req.id)));
  });
  return app;
}

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/** The schema compiled ahead of time by zod once: same answers and errors, several times faster. */
function compiled<T extends z.ZodType>(schema: T): T {
  let fast = compiledSchemas.get(schema);
  if (!fast) {
    fast = z.compile(schema);
    compiledSchemas.set(schema, fast);
  }
  return fast as T;
}

/** The parsed value, or a 400 invalid_request naming the first offending field. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown, root = ''): z.output<T> {
  const result = compiled(schema).safeParse(value);
  if (!result.success) throw new PaybridgeError('invalid_request', describeIssues(result.error, root));
  return result.data;
}

export type Req = FastifyRequest;

/** A single header value; a repeated header is a 400 naming it. */
export function singleHeader(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  if (Array.isArray(value)) throw new PaybridgeError('invalid_request', `${name}: the header is repeated`);
  return value;
}

/** A path id of the right kind, or 400 naming the parameter. */
export function pathId(kind: IdKind, req: FastifyRequest, param: string): string {
  const value = (req.params as Record<string, string | undefined>)[param];
  if (!hasIdForm(kind, value))
    throw new PaybridgeError('invalid_request', `${param}: expected an id with prefix ${ID_PREFIX[kind]}`);
  return value;
}
