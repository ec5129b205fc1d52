/**
 * legacy request -> current request, and current response -> legacy response, for one compiled
 * mapping. Pure apart from the optional merchant-token look-up; no HTTP server anywhere.
 */
import { hasIdForm, ID_PREFIX } from '../contract/ids.js';
import { parseJsonBody } from '../contract/json.js';
import { describeIssues } from '../contract/zod-helpers.js';
import { legacyErrorBody, PaybridgeError } from '../errors.js';
import { legacyCredential, type Headers, type MerchantKeyResolver } from './credentials.js';
import { AnswerIncomplete, isWriteRoute, LegacyAnswer, type ParamTarget } from './define.js';
import type { CompiledMapping, RouteMatch, Router } from './router.js';
import { isObj, type Obj } from './shape.js';
import { unknownFields } from './unknown-fields.js';
import { errorResponse, legacyError } from './answers.js';
import { lowerCaseName } from './headers.js';
import type {
  CurrentResponse,
  LegacyRequest,
  LegacyResponse,
  TranslatedRequest,
  TranslationContext,
} from './messages.js';
import { traceContext } from './trace-context.js';
import { toCurrentKey } from './vocabulary.js';

export interface EngineOptions {
  router: Router;
  merchantKeys?: MerchantKeyResolver;
  onDroppedFields?: (routeId: string, fields: readonly string[]) => void;
  newRequestId: () => string;
}

function parseBody(body: unknown): unknown {
  if (typeof body === 'string') return parseJsonBody(body);
  if (body instanceof Uint8Array) return parseJsonBody(Buffer.from(body).toString('utf8'));
  return body;
}

function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!search) return out;
  for (const [key, value] of new URLSearchParams(search)) {
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

function fill(template: string[], values: Record<string, string>): string {
  let out = '';
  for (const part of template) out += part.startsWith('{') ? encodeURIComponent(values[part.slice(1, -1)]!) : part;
  return out;
}

function appendQuery(path: string, query: [string, string][]): string {
  if (query.length === 0) return path;
  return `${path}?${query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

function checkId(name: string, target: ParamTarget, value: unknown): string {
  if (!hasIdForm(target.kind, value))
    throw new PaybridgeError('invalid_request', `${name}: expected an id with prefix ${ID_PREFIX[target.kind]}`);
  return value;
}

function decodeSegment(name: string, raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new PaybridgeError('invalid_request', `${name}: malformed percent-encoding`);
  }
}

/**
 * The look-up's answer, or a 504 once the request's deadline passes: a look-up shared by several
 * requests (one per merchant, cached) runs on under its own timeouts, each request waits until its own deadline.
 */
function withinDeadline<T>(pending: Promise<T>, deadline: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new PaybridgeError(
            'upstream_timeout',
            'Limepay-MerchantToken: Get Merchant did not answer within the request deadline',
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
    pending.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

export function createEngine(options: EngineOptions) {
  const { router } = options;

  /**
   * The current request for a legacy one, synchronously unless a merchant token must be resolved
   * first (a look-up): the gateway's hot path awaits nothing it does not have to. `matched` is the
   * route the caller already matched for this very method and path.
   */
  function translate(input: LegacyRequest, matched?: RouteMatch): TranslatedRequest | Promise<TranslatedRequest> {
    // a literal, not `{ ...input, headers }`: on Node 20 a key after a spread is defined at run time (README)
    const request = {
      method: input.method,
      path: input.path,
      headers: lowerCaseNames(input.headers),
      body: input.body,
      requestId: input.requestId,
    };
    const requestId = request.requestId ?? options.newRequestId();
    const q = request.path.indexOf('?');
    const pathname = q < 0 ? request.path : request.path.slice(0, q);
    const match = matched ?? router.match(request.method, pathname);
    if (!match)
      throw new PaybridgeError('route_not_mapped', `${request.method.toUpperCase()} ${pathname} is not a legacy route`);
    const alternate = match.compiled.alternate;
    const compiled =
      alternate &&
      hasIdForm(
        alternate.kind,
        decodeSegment(match.compiled.params[alternate.index]!.name, match.values[alternate.index]!),
      )
        ? alternate.compiled
        : match.compiled;
    const { mapping } = compiled;
    const credential = legacyCredential(request.headers);

    const pathValues: Record<string, string> = {};
    const headers: Record<string, string> = { accept: 'application/json' };
    const query: [string, string][] = [];
    const bodyValues: Obj = {};
    const place = (target: ParamTarget, value: string) => {
      if (target.to === 'path') pathValues[target.name] = value;
      else if (target.to === 'header') headers[target.name.toLowerCase()] = value;
      else if (target.to === 'body') bodyValues[target.name] = value;
      else query.push([target.name, value]);
    };
    for (let i = 0; i < compiled.params.length; i++) {
      const { name, target } = compiled.params[i]!;
      place(target, checkId(name, target, decodeSegment(name, match.values[i]!)));
    }

    const dropped: string[] = [];
    const rawQuery = q < 0 ? {} : parseQuery(request.path.slice(q + 1));
    if (mapping.query) {
      for (const field of unknownFields(compiled.queryTree!, rawQuery)) dropped.push(`query.${field}`);
      const parsed = compiled.querySchema!.safeParse(rawQuery);
      if (!parsed.success) throw new PaybridgeError('invalid_request', describeIssues(parsed.error, 'query'));
      const renames = mapping.query.shape ?? {};
      for (const [key, value] of Object.entries(parsed.data as Record<string, unknown>)) {
        if (value === undefined) continue;
        const rule = renames[key];
        const name = typeof rule === 'string' ? rule : toCurrentKey(key);
        for (const v of Array.isArray(value) ? value : [value]) query.push([name, String(v)]);
      }
    } else if (q >= 0) {
      for (const key of Object.keys(rawQuery)) dropped.push(`query.${key}`);
    }

    let legacyBody: unknown;
    if (mapping.body) {
      const raw = parseBody(request.body);
      for (const field of unknownFields(compiled.bodyTree!, raw)) dropped.push(field);
      const parsed = compiled.bodySchema!.safeParse(raw);
      if (!parsed.success) throw new PaybridgeError('invalid_request', describeIssues(parsed.error));
      legacyBody = parsed.data;
    } else if (request.body !== undefined && request.body !== null && request.body !== '') {
      // a route that takes no body (a cancel, a delete, a read) runs on none, `{}` or `null`; anything
      // else is refused before the call acts, never ignored while the write goes ahead
      const raw = parseBody(request.body);
      if (raw !== null && !(isObj(raw) && Object.keys(raw).length === 0))
        throw new PaybridgeError('invalid_request', `body: ${mapping.route} takes no body (send none, or {})`);
    }
    const move = mapping.request?.move;
    // an optional field the client left out moves nowhere (its schema already decided whether it may be absent)
    if (move)
      for (const [field, target] of Object.entries(move))
        if ((legacyBody as Obj)[field] !== undefined) place(target, checkId(field, target, (legacyBody as Obj)[field]));

    return credential.merchantToken
      ? merchantKey(credential.value, input.deadline).then((key) => finish(key))
      : finish(credential.value);

    function finish(bearer: string): TranslatedRequest {
      headers.authorization = `Bearer ${bearer}`;
      // W3C trace context crosses the translation: the current call continues the caller's trace
      const trace = traceContext(request.headers);
      if (trace) Object.assign(headers, trace);
      if (dropped.length > 0) options.onDroppedFields?.(mapping.route, dropped);

      const { body, fields } = buildBody(compiled, legacyBody, bodyValues);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const preflight = compiled.preflight && {
        method: compiled.preflight.method,
        path: fill(compiled.preflight.path, pathValues),
        headers: withoutContentType(headers),
      };
      // literals of one shape for every request (no spread: on Node 20 a spread in a literal defines
      // the keys after it at run time); absent optional members are undefined
      const context: TranslationContext = {
        routeId: mapping.route,
        compiled,
        legacyBody,
        requestId,
        droppedFields: dropped,
        preflight,
        preflightAnswer: undefined,
        bodyFields: fields,
        pathValues,
      };
      return {
        method: compiled.currentMethod,
        path: appendQuery(fill(compiled.currentPath, pathValues), query),
        headers,
        body,
        context,
      };
    }
  }

  async function merchantKey(token: string, deadline: number | undefined): Promise<string> {
    if (!options.merchantKeys)
      throw new PaybridgeError(
        'unauthenticated',
        'Limepay-MerchantToken: merchant tokens are not configured (merchant token table and service key)',
      );
    const key = options.merchantKeys.publicKey(token);
    return deadline === undefined ? key : withinDeadline(key, deadline);
  }

  /** Null when the call may go ahead; otherwise the legacy answer to give instead. */
  function checkPreflight(response: CurrentResponse, context: TranslationContext): LegacyResponse | null {
    if (response.status >= 300) return legacyError(response, context.requestId);
    if (!isObj(response.body))
      return errorResponse(
        new PaybridgeError(
          'upstream_error',
          `the current answer to the ${context.routeId} preflight read is not a JSON object`,
        ),
        context.requestId,
      );
    try {
      // the check's argument types come from the schemas it declares reading (readFirst)
      const completion = context.compiled.mapping.preflight!.check(response.body as never, context.legacyBody as never);
      if (completion) {
        if (!context.bodyFields)
          throw new Error(`the ${context.routeId} preflight completes a body the call does not have`);
        Object.assign(context.bodyFields, completion);
      }
      context.preflightAnswer = response.body;
      return null;
    } catch (err) {
      return errorResponse(err, context.requestId);
    }
  }

  function toLegacy(response: CurrentResponse, context: TranslationContext): LegacyResponse {
    if (response.status >= 300) return legacyError(response, context.requestId);
    const spec = context.compiled.mapping.response;
    try {
      if ('empty' in spec) return { status: 204 };
      // a 204 without a body is an empty answer (a delete the mapping answers from its preflight read)
      const raw = response.status === 204 && response.body === undefined ? {} : response.body;
      if ('map' in spec) {
        if (!isObj(raw) && !Array.isArray(raw))
          throw new AnswerIncomplete(`JSON object or list (the ${response.status} answer is neither)`);
        // the answer read once, at the edge, by the schema of what the map reads (design.md: a tolerant
        // reader): unknown keys kept and ignored, what may be absent optional; a map gets a value that fits
        let value: unknown = raw;
        if (context.compiled.readParser) {
          const parsed = context.compiled.readParser.safeParse(raw);
          if (!parsed.success) throw new AnswerIncomplete(describeIssues(parsed.error, 'answer'));
          value = parsed.data;
        }
        // the map's argument types come from the schemas it declares reading (readAnswer); a list as the bare array it is
        const result = spec.map(value as never, context.legacyBody as never, context.preflightAnswer as never);
        if (response.status === 204 && !(result instanceof LegacyAnswer)) return { status: 200, body: result };
        return result instanceof LegacyAnswer
          ? { status: result.status, body: result.body }
          : { status: response.status, body: result };
      }
      // a shape reads a list (a bare array, the reference) as {items} (an {items} answer reads the same)
      const body = Array.isArray(raw) ? { items: raw } : raw;
      if (!isObj(body)) throw new Error(`the ${response.status} answer is not a JSON object`);
      let target: unknown = body;
      for (const part of context.compiled.responseAt) target = isObj(target) ? target[part] : undefined;
      if (!isObj(target)) throw new Error(`no object at ${spec.at ?? 'the top level'}`);
      return { status: response.status, body: context.compiled.responseShape!.backward(target) };
    } catch (err) {
      // a mapping may answer with a legacy error of its own (L6 given an order that has no transaction)
      if (err instanceof PaybridgeError) return errorResponse(err, context.requestId);
      // a 2xx to a money write: the money has moved, never a 5xx a client would retry; the translator
      // completes the answer with a read of the resource, and this 202 stands only if that fails too
      if (err instanceof AnswerIncomplete && context.compiled.mapping.completion)
        return {
          status: 202,
          body: legacyErrorBody(
            'answer_incomplete',
            `${context.routeId}: the answer has no ${err.missing}`,
            context.requestId,
          ),
          incomplete: err.missing,
        };
      // any other write the service took (an account added, a customer created): a 202 too, never a 5xx
      // a client would repeat; the detail says what could not be read
      if (isWriteRoute(context.compiled.mapping)) {
        const missing =
          err instanceof AnswerIncomplete ? `has no ${err.missing}` : `could not be mapped (${(err as Error).message})`;
        return {
          status: 202,
          body: legacyErrorBody('answer_incomplete', `${context.routeId}: the answer ${missing}`, context.requestId),
        };
      }
      if (err instanceof AnswerIncomplete)
        return errorResponse(
          new PaybridgeError(
            'upstream_error',
            `the current answer to ${context.routeId} could not be read: ${err.missing}`,
          ),
          context.requestId,
        );
      return errorResponse(
        new PaybridgeError(
          'upstream_error',
          `the current answer to ${context.routeId} could not be mapped: ${(err as Error).message}`,
        ),
        context.requestId,
      );
    }
  }

  /** The current request for a legacy one; rejects with a PaybridgeError (a legacy error) when it cannot. */
  const toCurrent = async (input: LegacyRequest): Promise<TranslatedRequest> => translate(input);

  return { toCurrent, translate, toLegacy, checkPreflight };
}

/** Header names in lower case (the same object when they already are); a name given twice in two spellings becomes a list. */
function lowerCaseNames(headers: Headers): Headers {
  let lower = true;
  for (const name in headers) if (name !== lowerCaseName(name)) lower = false;
  if (lower) return headers;
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = lowerCaseName(name);
    const prev = out[key];
    out[key] =
      prev === undefined
        ? value
        : [...(Array.isArray(prev) ? prev : [prev]), ...(Array.isArray(value) ? value : [value])];
  }
  return out;
}

function withoutContentType(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _ct, ...rest } = headers;
  return rest;
}

/** The current body, and the object inside its action wrapper (the body itself when it has none). */
function buildBody(compiled: CompiledMapping, legacyBody: unknown, fromParams: Obj): { body?: Obj; fields?: Obj } {
  const request = compiled.mapping.request;
  const wrap = typeof request?.wrap === 'function' ? request.wrap(legacyBody as Obj) : (request?.wrap ?? '');
  if (legacyBody === undefined) return wrap ? { body: { [wrap]: fromParams }, fields: fromParams } : {};
  const inner = compiled.requestShapes.get(wrap)!.forward(legacyBody as Obj);
  for (const [key, value] of Object.entries(request?.add ?? {})) if (inner[key] === undefined) inner[key] = value;
  Object.assign(inner, fromParams);
  return { body: wrap ? { [wrap]: inner } : inner, fields: inner };
}
