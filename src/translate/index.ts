/**
 * The translation core as a library: legacy request -> current request, current response -> legacy
 * response, with the route table compiled from mappings/.
 */
import { ALL_MAPPINGS } from '../../mappings/index.js';
import { newRequestId } from '../contract/ids.js';
import { PaybridgeError } from '../errors.js';
import { MerchantKeyResolver } from './credentials.js';
import type { Mapping } from './define.js';
import { createEngine } from './engine.js';
import type {
  CurrentRequest,
  CurrentResponse,
  LegacyRequest,
  LegacyResponse,
  TranslatedRequest,
  TranslationContext,
} from './messages.js';
import { errorResponse } from './answers.js';
import { merchantKeyLookup } from './merchant-lookup.js';
import { createServiceScope } from './service-key.js';
import { compileRouter, type RouteMatch } from './router.js';

interface Logger {
  warn(obj: object, msg?: string): void;
  error?(obj: object, msg?: string): void;
}

export interface TranslatorOptions {
  /** The mappings to compile; default: every file of mappings/. */
  mappings?: readonly Mapping[];
  /** Merchant token -> merchant id, the operator's table. */
  merchantTokens?: Readonly<Record<string, string>>;
  /** With currentUrl: the marketplace API key the translator reads merchants' public keys with. */
  serviceKey?: string;
  currentUrl?: string;
  /** The most one Get Merchant look-up may take (default 5 s). */
  merchantLookupTimeoutMs?: number;
  /** Replaces the Get Merchant look-up (tests, custom stores). */
  lookupMerchantKey?: (merchantId: string) => Promise<string>;
  merchantKeyCache?: { max?: number; ttlMs?: number };
  /** Receives a warning per request that carried legacy fields the contract does not know. */
  logger?: Logger;
  /** Called per request with the legacy fields dropped as unknown (for metrics). */
  onDroppedFields?: (routeId: string, fields: readonly string[]) => void;
}

export interface Translator {
  /** The current request for a legacy one; rejects with a PaybridgeError (a legacy error) when it cannot. */
  toCurrent(request: LegacyRequest): Promise<TranslatedRequest>;
  /** The legacy answer for the current answer to a translated request. */
  toLegacy(response: CurrentResponse, context: TranslationContext): LegacyResponse;
  /** Null when the call may go on after its preflight read; else the legacy answer to give instead. */
  checkPreflight(response: CurrentResponse, context: TranslationContext): LegacyResponse | null;
  /**
   * The whole exchange: translate, run the preflight if any, send, translate back. `send` performs one
   * current call; every failure becomes a legacy error answer. `matched`: the route the caller already
   * matched for this request's method and path (routes.match), so it is not matched twice.
   */
  execute(
    request: LegacyRequest,
    send: (current: CurrentRequest) => Promise<CurrentResponse>,
    matched?: RouteMatch,
  ): Promise<LegacyResponse>;
  /** The rest of execute for a request toCurrent already translated: preflight, send, translate back. */
  complete(
    translated: TranslatedRequest,
    send: (current: CurrentRequest) => Promise<CurrentResponse>,
  ): Promise<LegacyResponse>;
  readonly routes: ReturnType<typeof compileRouter>;
  /**
   * Dropped (unknown) legacy fields seen so far: route id -> field path -> count. At most
   * MAX_DROPPED_PATHS paths a route; later new ones are counted together under `(other paths)`.
   */
  droppedFields(): Record<string, Record<string, number>>;
  readonly merchantKeys: MerchantKeyResolver | undefined;
  /**
   * A send that makes each call the current API refuses to a merchant key (Query Customers, Get Payment
   * Source) with the operator's marketplace key, scoped to the caller's own merchant (service-key.ts).
   */
  sendScoped(
    send: (current: CurrentRequest) => Promise<CurrentResponse>,
  ): (current: CurrentRequest) => Promise<CurrentResponse>;
}

/** Distinct dropped-field paths counted per route (droppedFields). */
export const MAX_DROPPED_PATHS = 200;
const OTHER_PATHS = '(other paths)';

/**
 * Creates the translator.
 * @example
 * const translator = createTranslator();
 * const current = await translator.toCurrent({ method: 'GET', path: '/transactions/tran_1', headers: { 'limepay-secretkey': key } });
 */
export function createTranslator(options: TranslatorOptions = {}): Translator {
  const routes = compileRouter(options.mappings ?? ALL_MAPPINGS);
  const lookup =
    options.lookupMerchantKey ??
    (options.currentUrl && options.serviceKey
      ? merchantKeyLookup({
          currentUrl: options.currentUrl,
          serviceKey: options.serviceKey,
          ...(options.merchantLookupTimeoutMs ? { timeoutMs: options.merchantLookupTimeoutMs } : {}),
        })
      : undefined);
  const merchantKeys =
    options.merchantTokens && lookup
      ? new MerchantKeyResolver({ tokens: options.merchantTokens, lookup, ...options.merchantKeyCache })
      : undefined;
  const dropped = new Map<string, Map<string, number>>();
  const service = createServiceScope({ serviceKey: options.serviceKey });
  const engine = createEngine({
    router: routes,
    ...(merchantKeys ? { merchantKeys } : {}),
    newRequestId,
    onDroppedFields: (routeId, fields) => {
      const counts = dropped.get(routeId) ?? new Map<string, number>();
      // the paths come from clients' bodies: a client's own keys must not grow the gateway's memory
      for (const f of fields) {
        const path = counts.has(f) || counts.size < MAX_DROPPED_PATHS ? f : OTHER_PATHS;
        counts.set(path, (counts.get(path) ?? 0) + 1);
      }
      dropped.set(routeId, counts);
      options.logger?.warn({ routeId, droppedFields: fields }, 'legacy fields unknown to the contract were dropped');
      options.onDroppedFields?.(routeId, fields);
    },
  });

  // the current call without its context, as a literal (a rest pattern copies through the runtime)
  const stripContext = (t: TranslatedRequest): CurrentRequest => ({
    method: t.method,
    path: t.path,
    headers: t.headers,
    body: t.body,
  });

  // exclusive preflights: the tail of the chain of calls per resource path
  const exclusive = new Map<string, Promise<unknown>>();
  async function oneAtATime<T>(key: string, run: () => Promise<T>): Promise<T> {
    const before = exclusive.get(key) ?? Promise.resolve();
    const mine = before.then(run, run);
    const tail = mine.catch(() => undefined);
    exclusive.set(key, tail);
    try {
      return await mine;
    } finally {
      if (exclusive.get(key) === tail) exclusive.delete(key);
    }
  }

  function failed(err: unknown, requestId: string): LegacyResponse {
    if (!(err instanceof PaybridgeError)) options.logger?.error?.({ err, requestId }, 'translation failed');
    return errorResponse(err, requestId);
  }

  /** The legacy answer to a current one, or the legacy error when it cannot be translated back. */
  function answered(answer: CurrentResponse, context: TranslationContext): LegacyResponse {
    try {
      return engine.toLegacy(answer, context);
    } catch (err) {
      return failed(err, context.requestId);
    }
  }

  /**
   * A money write's answer that lacked what the legacy answer needs, completed by a read of the
   * resource (a read, never the write again); the 202 fallback stands when the read cannot complete it.
   */
  async function completed(
    first: LegacyResponse,
    answer: CurrentResponse,
    translated: TranslatedRequest,
    send: (current: CurrentRequest) => Promise<CurrentResponse>,
  ): Promise<LegacyResponse> {
    const { context } = translated;
    const completion = context.compiled.mapping.completion!;
    const path = completion.path(answer.body, context.pathValues);
    if (path === undefined) return first;
    try {
      const read = await send({ method: 'GET', path, headers: withoutBody(translated.headers) });
      if (read.status >= 300) return first;
      const body = completion.adapt ? completion.adapt(read.body, context.pathValues) : read.body;
      const legacy = engine.toLegacy({ status: answer.status, body }, context);
      return legacy.incomplete === undefined ? legacy : first;
    } catch (err) {
      options.logger?.warn(
        { err, requestId: context.requestId, route: context.routeId },
        'the read completing a money write failed',
      );
      return first;
    }
  }

  function answeredOrCompleted(
    answer: CurrentResponse,
    translated: TranslatedRequest,
    send: (current: CurrentRequest) => Promise<CurrentResponse>,
  ): LegacyResponse | Promise<LegacyResponse> {
    const legacy = answered(answer, translated.context);
    if (legacy.incomplete === undefined) return legacy;
    options.logger?.warn(
      { requestId: translated.context.requestId, route: translated.context.routeId, missing: legacy.incomplete },
      'a money write answered 2xx without what the legacy answer needs: reading the resource',
    );
    return completed(legacy, answer, translated, send);
  }

  // Without a preflight (every read, most writes) one promise chain, not a chain of async functions:
  // each await costs a promise and a microtask per request on the gateway's hot path.
  function complete(
    translated: TranslatedRequest,
    sendAsCalled: (current: CurrentRequest) => Promise<CurrentResponse>,
  ): Promise<LegacyResponse> {
    const { context } = translated;
    const send = service.sendScoped(sendAsCalled);
    if (context.preflight) return completeWithPreflight(translated, send);
    let sent: Promise<CurrentResponse>;
    try {
      const paged = context.compiled.mapping.paged;
      sent = paged ? readEveryPage(stripContext(translated), paged.filters, send) : send(stripContext(translated));
    } catch (err) {
      return Promise.resolve(failed(err, context.requestId));
    }
    return sent.then(
      (answer) => answeredOrCompleted(answer, translated, send),
      (err: unknown) => failed(err, context.requestId),
    );
  }

  async function completeWithPreflight(
    translated: TranslatedRequest,
    send: (current: CurrentRequest) => Promise<CurrentResponse>,
  ): Promise<LegacyResponse> {
    const { context } = translated;
    try {
      const preflight = context.preflight!;
      const exchange = async () => {
        const stop = engine.checkPreflight(await send(preflight), context);
        return stop ?? (await answeredOrCompleted(await send(stripContext(translated)), translated, send));
      };
      return context.compiled.mapping.preflight?.exclusive
        ? await oneAtATime(`${preflight.method} ${preflight.path}`, exchange)
        : await exchange();
    } catch (err) {
      return failed(err, context.requestId);
    }
  }

  return {
    toCurrent: engine.toCurrent,
    toLegacy: engine.toLegacy,
    checkPreflight: engine.checkPreflight,
    routes,
    merchantKeys,
    sendScoped: service.sendScoped,
    droppedFields: () => Object.fromEntries([...dropped].map(([route, counts]) => [route, Object.fromEntries(counts)])),
    execute(request, send, matched) {
      const requestId = request.requestId ?? newRequestId();
      let pending: TranslatedRequest | Promise<TranslatedRequest>;
      try {
        // synchronous unless a merchant token is looked up
        pending = engine.translate(
          request.requestId === undefined ? Object.assign({}, request, { requestId }) : request,
          matched,
        );
      } catch (err) {
        return Promise.resolve(failed(err, requestId));
      }
      return pending instanceof Promise
        ? pending.then(
            (translated) => complete(translated, send),
            (err: unknown) => failed(err, requestId),
          )
        : complete(pending, send);
    },
    complete,
  };
}

/** Items asked per page of a list read to its end: the reference's largest `limit`. */
const PAGE_LIMIT = 500;
/** Pages read at most for one legacy list (PAGE_LIMIT items each). */
const MAX_PAGES = 200;

/** The current path with `limit` and `page` set. */
function pageOf(path: string, page: number): string {
  const [pathname, search = ''] = path.split('?') as [string, string?];
  const query = new URLSearchParams(search);
  query.set('limit', String(PAGE_LIMIT));
  query.set('page', String(page));
  return `${pathname}?${query.toString()}`;
}

/** The value at a dotted path of an item. */
function valueAt(item: unknown, path: string): unknown {
  let at = item;
  for (const part of path.split('.'))
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined;
  return at;
}

/**
 * A list read to its end: page after page until one is shorter than the limit, or repeats the one
 * before (a service that ignores `page`); then, filter by filter, only the items that carry the
 * filter's value (a service that ignores a filter answers everything). One bare array, as one answer.
 */
async function readEveryPage(
  request: CurrentRequest,
  filters: Readonly<Record<string, string>>,
  send: (current: CurrentRequest) => Promise<CurrentResponse>,
): Promise<CurrentResponse> {
  const items: unknown[] = [];
  let previous: string | undefined;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES)
      throw new PaybridgeError('upstream_error', `the list has more than ${MAX_PAGES * PAGE_LIMIT} items`);
    const answer = await send({ ...request, path: pageOf(request.path, page) });
    if (answer.status >= 300) return answer;
    const body = answer.body as { items?: unknown } | undefined;
    const list: unknown[] | undefined = Array.isArray(answer.body)
      ? (answer.body as unknown[])
      : Array.isArray(body?.items)
        ? (body.items as unknown[])
        : undefined;
    if (!list) return answer;
    const first = list.length > 0 ? JSON.stringify(list[0]) : undefined;
    if (page > 1 && first !== undefined && first === previous) break;
    previous = first;
    items.push(...list);
    if (list.length < PAGE_LIMIT) break;
  }
  const query = new URLSearchParams(request.path.split('?')[1] ?? '');
  const kept = Object.entries(filters).reduce((list, [param, path]) => {
    const wanted = query.getAll(param);
    return wanted.length === 0 ? list : list.filter((item) => wanted.includes(String(valueAt(item, path))));
  }, items);
  return { status: 200, body: kept };
}

const withoutBody = (headers: Record<string, string>): Record<string, string> => {
  const { 'content-type': _type, ...rest } = headers;
  return rest;
};

export type { CurrentRequest, CurrentResponse, LegacyRequest, LegacyResponse, TranslatedRequest, TranslationContext };
export { isLegacyRequest } from './credentials.js';
