/**
 * What the translator takes and gives: a legacy call and its answer, a current call and its answer,
 * and the context a translated call carries to the mapping of its answer.
 */
import type { Headers } from './credentials.js';
import type { CompiledMapping } from './router.js';
import type { Obj } from './shape.js';

/** A legacy call: header names in any case, `path` with its query string, `body` parsed JSON or a JSON string. */
export interface LegacyRequest {
  method: string;
  path: string;
  headers: Headers;
  body?: unknown;
  /** Used as `tracer` in the errors the translation itself produces. */
  requestId?: string;
  /** The request's deadline (epoch ms): a merchant token's look-up waits no longer (504 upstream_timeout). */
  deadline?: number;
}

export interface CurrentRequest {
  method: string;
  /** With its query string. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: unknown;
}

export interface CurrentResponse {
  status: number;
  /** Parsed JSON; a string when the body was not JSON; undefined when empty. */
  body?: unknown;
}

export interface LegacyResponse {
  status: number;
  /** JSON value to send; undefined for no body (204). */
  body?: unknown;
  /**
   * Set on the answer to a money write whose 2xx current answer lacked what the legacy answer needs
   * (what it lacked): the body is the fallback, which the translator replaces by completing the answer
   * with a read of the resource (the mapping's `completion`).
   */
  incomplete?: string;
}

/** What toLegacy needs to know about the call it answers. */
export interface TranslationContext {
  readonly routeId: string;
  readonly compiled: CompiledMapping;
  readonly legacyBody: unknown;
  readonly requestId: string;
  /** Legacy fields dropped because the legacy contract does not know them. */
  readonly droppedFields: readonly string[];
  /** A read to make, and check, before the call is sent (e.g. a refund's currency). */
  readonly preflight?: CurrentRequest;
  /** The preflight read's answer once checked (the state before the call). */
  preflightAnswer?: unknown;
  /** The current body's fields inside its action wrapper: a preflight check may complete them (L27's transfer id). */
  readonly bodyFields?: Obj;
  /** The current path's parameters (`transactionId`, `orderId`): a money write's completing read names its resource with them. */
  readonly pathValues: Readonly<Record<string, string>>;
}

export interface TranslatedRequest extends CurrentRequest {
  context: TranslationContext;
}
