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
import type { CurrentRequest, CurrentResponse, LegacyRequest, LegacyResponse, TranslatedRequest, TranslationContext } from './messages.js';
import { errorResponse } from './answers.js';
import { merchantKeyLookup } from './merchant-lookup.js';
import { compileRouter, type RouteMatch } from './router.js';

export interface Logger {
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
  execute(request: LegacyRequest, send: (current: CurrentRequest) => Promise<CurrentResponse>, matched?: RouteMatch): Promise<LegacyResponse>;
  /** The rest of execute for a request toCurrent already translated: preflight, send, translate back. */
  complete(translated: TranslatedRequest, send: (current: CurrentRequest) => Promise<CurrentResponse>): Promise<LegacyResponse>;
  readonly routes: ReturnType<typeof compileRouter>;
  /**
   * Dropped (unknown) legacy fields seen so far: route id -> field path -> count. At most
   * MAX_DROPPED_PATHS paths a route; later new ones are counted together under `(other paths)`.
   */
  droppedFields(): Record<string, Record<string, number>>;
  readonly merchantKeys: MerchantKeyResolver | undefined;
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
      ? merchantKeyLookup({ currentUrl: options.currentUrl, serviceKey: options.serviceKey, ...(options.merchantLookupTimeoutMs ? { timeoutMs: options.merchantLookupTimeoutMs } : {}) })
      : undefined);
  const merchantKeys =
    options.merchantTokens && lookup
      ? new MerchantKeyResolver({ tokens: options.merchantTokens, lookup, ...options.merchantKeyCache })
      : undefined;
  const dropped = new Map<string, Map<string, number>>();
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
  const stripContext = (t: TranslatedRequest): CurrentRequest => ({ method: t.method, path: t.path, headers: t.headers, body: t.body });

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

  // Without a preflight (every read, most writes) one promise chain, not a chain of async functions:
  // each await costs a promise and a microtask per request on the gateway's hot path.
  function complete(translated: TranslatedRequest, send: (current: CurrentRequest) => Promise<CurrentResponse>): Promise<LegacyResponse> {
    const { context } = translated;
    if (context.preflight) return completeWithPreflight(translated, send);
    let sent: Promise<CurrentResponse>;
    try {
      sent = send(stripContext(translated));
    } catch (err) {
      return Promise.resolve(failed(err, context.requestId));
    }
    return sent.then((answer) => answered(answer, context), (err: unknown) => failed(err, context.requestId));
  }

  async function completeWithPreflight(translated: TranslatedRequest, send: (current: CurrentRequest) => Promise<CurrentResponse>): Promise<LegacyResponse> {
    const { context } = translated;
    try {
      const preflight = context.preflight!;
      const exchange = async () => {
        const stop = engine.checkPreflight(await send(preflight), context);
        return stop ?? engine.toLegacy(await send(stripContext(translated)), context);
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
    droppedFields: () =>
      Object.fromEntries([...dropped].map(([route, counts]) => [route, Object.fromEntries(counts)])),
    execute(request, send, matched) {
      const requestId = request.requestId ?? newRequestId();
      let pending: TranslatedRequest | Promise<TranslatedRequest>;
      try {
        // synchronous unless a merchant token is looked up
        pending = engine.translate(request.requestId === undefined ? Object.assign({}, request, { requestId }) : request, matched);
      } catch (err) {
        return Promise.resolve(failed(err, requestId));
      }
      return pending instanceof Promise
        ? pending.then((translated) => complete(translated, send), (err: unknown) => failed(err, requestId))
        : complete(pending, send);
    },
    complete,
  };
}

export type { CurrentRequest, CurrentResponse, LegacyRequest, LegacyResponse, TranslatedRequest, TranslationContext };
export { isLegacyRequest } from './credentials.js';
