/** What a mapping is: one legacy route described as data (the mapping is the route), checked when the router compiles. */
import type { z } from 'zod';
import type { IdKind } from '../contract/ids.js';
import type { Obj, Shape, ShapeSpec } from './shape.js';

/** Where a legacy path id (or a body field) goes in the current call. */
export type ParamTarget =
  | { readonly to: 'header'; readonly name: 'Marketplace-Id' | 'Merchant-Id' | 'Customer-Id'; readonly kind: IdKind }
  | { readonly to: 'path'; readonly name: string; readonly kind: IdKind }
  | { readonly to: 'query'; readonly name: string; readonly kind: IdKind }
  /** Into the current body, inside the action wrapper (`{SetMerchantPrimaryBankAccount: {bankAccountId}}`). */
  | { readonly to: 'body'; readonly name: string; readonly kind: IdKind };

export const toHeader = (name: 'Marketplace-Id' | 'Merchant-Id' | 'Customer-Id', kind: IdKind): ParamTarget => ({
  to: 'header',
  name,
  kind,
});
export const toPath = (name: string, kind: IdKind): ParamTarget => ({ to: 'path', name, kind });
export const toQuery = (name: string, kind: IdKind): ParamTarget => ({ to: 'query', name, kind });
export const toBody = (name: string, kind: IdKind): ParamTarget => ({ to: 'body', name, kind });

/** A legacy answer whose status differs from the current one (the 403 of a 3DS challenge). */
export class LegacyAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export interface RequestSpec {
  /** The discriminator key wrapping the current body, or a function choosing it from the legacy body. */
  wrap?: string | ((legacyBody: Obj) => string);
  /** How the legacy body becomes the current one; per wrapper when wrap is a function. */
  shape?: ShapeSpec | Record<string, ShapeSpec>;
  /** Legacy body fields that leave the body for the path, a header or the query. */
  move?: Record<string, ParamTarget>;
  /**
   * Values for current fields the legacy call has no counterpart for or may leave out, used where the
   * translated body has none (L20's currency; L24's `setAsPrimary`, true unless the client said false).
   */
  add?: Readonly<Obj>;
}

/**
 * The odd small function: the current answer (with the legacy body sent and the preflight's answer) to
 * the legacy answer. Made by `readAnswer`, which types the answer from the zod schemas of the forms it
 * reads, so a field renamed in src/contract fails to compile wherever a mapping reads it.
 */
export interface AnswerMap {
  /** The current answer's forms this map reads: schemas the current operation answers with (checked at load). */
  readonly reads: readonly z.ZodType[];
  readonly map: (currentBody: never, legacyBody: never, preflightAnswer: never) => unknown;
}

export type ResponseSpec =
  | { readonly empty: true }
  /** The shape applied backward to the current body, or to the object at a dotted path of it. */
  | { readonly at?: string; readonly shape: ShapeSpec | Shape }
  | AnswerMap;

/**
 * A map from the current answer to the legacy one, its argument typed as the union of `reads`' outputs
 * (both forms where the seed and the reference differ). Lists reach it as the bare array they are.
 */
export function readAnswer<const S extends readonly z.ZodType[], L = unknown, P = undefined>(
  reads: S,
  map: (current: z.output<S[number]>, legacyBody: L, preflightAnswer: P) => unknown,
): AnswerMap {
  return { reads, map };
}

/**
 * Thrown by an answer map when a 2xx answer lacks what the legacy answer needs (the guide's pay answer
 * has no surchargeAmount): the translator completes it by reading the resource (`completion`), never
 * answers it as a 5xx.
 */
export class AnswerIncomplete extends Error {
  constructor(readonly missing: string) {
    super(`the answer has no ${missing}`);
    this.name = 'AnswerIncomplete';
  }
}

/**
 * A money write's answer completed by a read (design.md: a 2xx to a money write is never a 5xx): when the
 * answer lacks what the legacy answer needs, `path` (from the answer and the call's path values) is read
 * and `adapt` turns that read's answer into a form the mapping's answer map reads.
 */
export interface Completion {
  /** The current read's path, or undefined when neither the answer nor the path names the resource. */
  readonly path: (answer: unknown, pathValues: Readonly<Record<string, string>>) => string | undefined;
  /** The read's answer as a form of the write's answer (default: as it is). */
  readonly adapt?: (read: unknown, pathValues: Readonly<Record<string, string>>) => unknown;
}

export interface Preflight {
  /** A read made before the call, e.g. `GET /transactions/{transactionId}`. */
  readonly current: string;
  /** The schema of the read's answer (one of the operation's answers, checked at load). */
  readonly reads: z.ZodType;
  /**
   * Throws a PaybridgeError (nothing is sent) when the legacy call must not go ahead; may return fields
   * that complete the current body inside its action wrapper (L27: the transfer the gateway chose).
   */
  readonly check: (answer: never, legacyBody: never) => Obj | void;
  /**
   * The read and the call run one at a time per resource in a translator, so that the answer can be
   * told apart from the read before it (a refund's id: the one new in the answer).
   */
  readonly exclusive?: true;
}

/** A read before the call, its answer typed from the schema it reads. */
export function readFirst<S extends z.ZodType, L = unknown>(
  current: string,
  reads: S,
  check: (answer: z.output<S>, legacyBody: L) => Obj | void,
  options: { exclusive?: true } = {},
): Preflight {
  return { current, reads, check, ...options };
}

/** What a readback knows of a legacy write that succeeded: its path ids, body and answer. */
export interface WriteOutcome {
  params: Readonly<Record<string, string>>;
  body: unknown;
  answer: unknown;
  /**
   * The legacy bodies of the earlier writes of the same resource this gateway forwarded, oldest first
   * (a 3DS completion's first call): what a field the call does not repeat was asked for.
   */
  earlier?: readonly unknown[];
}

/** The string at a dotted path of a legacy body or answer (a readback's id), or undefined. */
export function stringAt(value: unknown, path: string): string | undefined {
  const at = valueAt(value, path);
  return typeof at === 'string' ? at : undefined;
}

/** The value at a dotted path of an object, or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let at = value;
  for (const part of path.split('.'))
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined;
  return at;
}

/** A field where the current state departs from what the translated request asks for. */
export interface EffectMismatch {
  /** The field, as the current state names it (`amount`, `status`). */
  field: string;
  /** What the translated current request asks for. */
  asked: unknown;
  /** What the legacy write left, read through the current API. */
  found: unknown;
}

/** A current answer, with the state before the call where the mapping's answer needs it (L7's refund id). */
export interface CurrentView {
  status: number;
  body: unknown;
  before?: unknown;
}

/** What a field rule is given: the translated action's fields, the state (undefined where none is read), the outcome. */
export interface FieldContext<S> {
  /** The field's value in the translated action (undefined: the call leaves it unset). */
  asked: unknown;
  /** The fields of the translated action (inside its wrapper). */
  action: Obj;
  /** The wrapper's name (`PayByCard`), or undefined for a body without one. */
  wrapper: string | undefined;
  state: S | undefined;
  outcome: WriteOutcome;
}

/**
 * How one field of the translated action is judged against the state: `[asked, found]` compared (a
 * mismatch when unlike), a sentence saying why it cannot be (`not comparable`, named in the verdict),
 * or undefined when the call leaves nothing to judge (the field unset, its absence meaning nothing).
 */
export type FieldRule<S = never> = (ctx: FieldContext<S>) => [asked: unknown, found: unknown] | string | undefined;

/**
 * What the state a write left must hold, derived from the translated request: every field the call
 * sets is looked for at the same path of `at(state)` (where the state holds the action's fields under
 * the names the request gives them), unless `fields` names another rule for it or a field above it;
 * a field the state does not show at all is named `not comparable`, never passed silently. The
 * action's other fields (from the current request schema) are judged by `unset`: `absent` (a create:
 * the state must hold none of them), `kept` (an update: left as they were); either way one the client
 * asked for under the same name is a mismatch (dropped). `fields`' rules also run for a field the call
 * leaves unset (L9's capture: no amount asks for the whole authorisation).
 */
export interface EffectSpec<S = never> {
  readonly at: (state: S, outcome: WriteOutcome) => unknown;
  /**
   * Per dotted field: a rule judging it, or why the current API shows it nowhere (`the current API
   * shows no e-mail sent`): then named `not comparable` in the verdict wherever the call or the client
   * asks it, and held to what the client asked under the same name.
   */
  readonly fields?: Readonly<Record<string, FieldRule<S> | string>>;
  readonly unset?: 'absent' | 'kept';
  /** What the call asks of the state beyond its fields (L12's cancelled order), as mismatches. */
  readonly also?: (state: S, outcome: WriteOutcome) => EffectMismatch[];
}

/**
 * How shadow mode checks a write the legacy upstream served, on the store both generations front:
 * the state the write left (a current read), what the translated request asks of it (the effect),
 * and the answer the mapping gives for that state (the answer a client gets after cut-over).
 */
export interface WriteCheck {
  /** The current read showing the write's result (a path), or undefined when the current API shows none (a 3DS challenge in progress). */
  readonly state: (outcome: WriteOutcome) => string | undefined;
  /** The read's answer schema: one of that current operation's answers (checked at load). */
  readonly reads: z.ZodType;
  /** The current answer the translated call would have had for this result (state undefined: from the legacy answer alone). */
  readonly answer: (state: never, outcome: WriteOutcome) => CurrentView;
  /** What the state must hold of the translated request (absent: no state to judge it on, every field it sets named not comparable). */
  readonly effect?: EffectSpec<unknown>;
  /**
   * The check judges the write's own effect whatever later writes of the resource did (a refund: its
   * own entry in the timeline): never raced. Otherwise a later write of the resource the gateway
   * forwarded before the state was read makes the comparison raced (not judged, counted).
   */
  readonly isolated?: true;
  /**
   * Whether the state shows a write after this one (its version moved: a later `updatedAt`, another
   * event in the timeline): a later write the gateway forwarded makes the comparison raced only when
   * it shows; without it, any such write does. Never told from ids or amounts.
   */
  readonly moved?: (state: never, outcome: WriteOutcome) => boolean;
  /** The write removes the resource: its state read must answer 404 (the answer is then built from the legacy outcome). */
  readonly removes?: true;
  /** The fields a preflight would have completed the translated body with (L27's transfer), from the state. */
  readonly completes?: (state: never, outcome: WriteOutcome) => Obj | undefined;
}

/** A write check, its state typed from the schema it reads. */
export function checkWrite<S extends z.ZodType>(spec: {
  state: (outcome: WriteOutcome) => string | undefined;
  reads: S;
  answer: (state: z.output<S> | undefined, outcome: WriteOutcome) => CurrentView;
  effect: EffectSpec<z.output<S>>;
  isolated?: true;
  moved?: (state: z.output<S>, outcome: WriteOutcome) => boolean;
  removes?: true;
  completes?: (state: z.output<S>, outcome: WriteOutcome) => Obj | undefined;
}): WriteCheck {
  return spec as unknown as WriteCheck;
}

/** A write check for a write whose result the current API shows nowhere to read (a token, a sign-in): its answer alone. */
export function checkAnswer(answer: (outcome: WriteOutcome) => CurrentView): WriteCheck {
  return { state: () => undefined, reads: NO_STATE, answer: (_state: never, outcome) => answer(outcome) };
}
const NO_STATE = Object.freeze({}) as z.ZodType;

/** A value as JSON with object keys in order: two values alike whatever order their keys came in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value ?? null, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );

/** The fields whose asked value the state does not hold (absent and null alike), each named by `field`. */
export function unlike(pairs: Record<string, [asked: unknown, found: unknown]>): EffectMismatch[] {
  const out: EffectMismatch[] = [];
  for (const [field, [asked, found]] of Object.entries(pairs))
    if (canonical(asked) !== canonical(found)) out.push({ field, asked, found });
  return out;
}

export interface MappingDefinition {
  /** Legacy route id of legacy-api.md section 3, e.g. `L7`: the mapping is the route (the registry is the mappings). */
  readonly route: string;
  /** The route table's tier: 1, the payment core (the default), or 2, the rest. */
  readonly tier?: 1 | 2;
  /** What the mapping does, for the changelog; required. */
  readonly description: string;
  /** `METHOD /legacy/path/{param}` exactly as in the route table. */
  readonly legacy: string;
  /**
   * Other legacy calls (`METHOD /path`) translated alike: forms the legacy service is known or likely to
   * have taken as well (L23's `/marketplaces/merchants/{merchantId}`). Their path parameters are a
   * subset of `params`; the route table lists `legacy`, the router and the OpenAPI all of them.
   */
  readonly alsoAt?: readonly string[];
  /** `METHOD /current/path/{param}`. */
  readonly current: string;
  /** Where each legacy path id goes, in path order. */
  readonly params?: Readonly<Record<string, ParamTarget>>;
  /** Legacy query string: validated, then renamed through the shape (or the vocabulary). */
  readonly query?: { readonly schema: z.ZodType; readonly shape?: ShapeSpec };
  /** The legacy request body schema; unknown fields are dropped and reported. */
  readonly body?: z.ZodType;
  readonly request?: RequestSpec;
  readonly preflight?: Preflight;
  readonly response: ResponseSpec;
  /**
   * What a legacy client gets, by HTTP status (legacy-api.md section 4): the answer's schema, or
   * null for no body. Documents the route (the legacy OpenAPI) and is checked against real answers.
   */
  readonly answers: Readonly<Record<number, z.ZodType | null>>;
  /**
   * Shadow mode, for a write: the legacy GET (path) that reads the order or transaction the write
   * affected, so both generations can be compared without sending the write twice.
   */
  readonly readback?: (outcome: WriteOutcome) => string | undefined;
  /**
   * Shadow mode, for a write: what its comparison reads of the current generation and checks, so the
   * write's own translation is compared, not only a read of the resource (docs/shadow.md). Made by `checkWrite`.
   */
  readonly writeCheck?: WriteCheck;
  /** A money write (pay, capture, refund, transfer, cancel): how an incomplete 2xx answer is completed by a read. */
  readonly completion?: Completion;
  /**
   * A list read paged to its end (`limit`, `page` added to the current query): the items of every page
   * reach the answer map as one bare array (current-api-decisions.md: a legacy list is never cut), and
   * no filter is trusted: per current query parameter named in `filters`, only items whose value at the
   * dotted path equals the parameter's are kept (a service that ignores a filter answers everything).
   */
  readonly paged?: { readonly filters: Readonly<Record<string, string>> };
  /** A POST without side effects (a calculation): shadow mode may send it to both generations. */
  readonly readOnly?: true;
  /**
   * Why this legacy GET's current call is not a GET: required for such a mapping to load (a GET is a
   * read to every client, cache, crawler and retry, so a translation that writes is refused by
   * default). Declared only where the legacy generation's own GET acted, or where the current API
   * reads by POST (then `readOnly` too); shadow mode compares such a route as a write unless readOnly.
   */
  readonly unsafeGet?: string;
  /**
   * Another translation of the same legacy route, used when the path parameter `param` holds an id of
   * `kind` (L6 given an order id reads that order's transaction).
   */
  readonly byIdKind?: { readonly param: string; readonly kind: IdKind; readonly mapping: MappingDefinition };
}

/** Whether a route writes (shadow compares it as a write, the live route table shows its write safety): any method but GET, or a GET declared unsafeGet, unless readOnly. */
export function isWriteRoute(mapping: Pick<MappingDefinition, 'legacy' | 'readOnly' | 'unsafeGet'>): boolean {
  // a legacy GET whose translation is declared not to be a read (unsafeGet) is a write too
  return (!mapping.legacy.startsWith('GET ') || mapping.unsafeGet !== undefined) && mapping.readOnly !== true;
}

export interface Mapping extends MappingDefinition {
  /** The file that defined the mapping, for start-up errors and `paybridge routes`. */
  readonly source: string;
}

/** The calling file of defineMapping, from the stack: `mappings/orders.ts`. */
function callerFile(): string {
  const lines = new Error().stack?.split('\n') ?? [];
  for (const line of lines.slice(3)) {
    const m = /(?:file:\/\/)?(\/[^\s():]+?\.[cm]?[jt]s)/.exec(line);
    if (m && !m[1]!.endsWith('/translate/define.js') && !m[1]!.endsWith('/translate/define.ts')) {
      const file = m[1]!;
      const at = file.lastIndexOf('/mappings/');
      return (at >= 0 ? file.slice(at + 1) : file.slice(file.lastIndexOf('/') + 1)).replace(/\.js$/, '.ts');
    }
  }
  return '<unknown file>';
}

/**
 * Declares how one legacy route is translated.
 * @example
 * export const getOrder = defineMapping({ route: 'L3', description: 'Read an order', legacy: 'GET /orders/{merchantOrderId}',
 *   current: 'GET /orders/{orderId}', params: { merchantOrderId: toPath('orderId', 'order') },
 *   response: { at: 'OnlineOrder.order', shape: LEGACY_ORDER } });
 */
export function defineMapping(definition: MappingDefinition): Mapping {
  const source = callerFile();
  const alternate = definition.byIdKind && {
    ...definition.byIdKind,
    mapping: Object.freeze({ ...definition.byIdKind.mapping, source }),
  };
  return Object.freeze({ ...definition, ...(alternate ? { byIdKind: alternate } : {}), source });
}
