/**
 * A route's verdict from its comparisons: the state (collecting, mismatch, ready, validated), per
 * merchant or kind of client too, and the sentence that names the evidence the state rests on. One
 * definition, which the report, the live page and the Prometheus rules (`paybridge rules`) all give.
 */
import type { CompareMethod } from './ledger.js';

/**
 * A route's verdict over its window (the `shadow.readyWindow` before its newest comparison): an
 * unexplained difference among any of the window's comparisons, whatever path kind it was on
 * (mismatch); at least `readyAfter` comparisons of answers, none unexplained (ready); translations
 * only validated against the current API's schema, no answer compared (validated: never ready); or
 * too few (collecting).
 */
export const ROUTE_STATES = ['collecting', 'mismatch', 'ready', 'validated'] as const;
export type RouteState = (typeof ROUTE_STATES)[number];

export interface Breakdown {
  compared: number;
  matched: number;
  state: RouteState;
}

/** One comparison as the verdict sees it: when, whether answers were compared, whether a difference is left unexplained. */
export interface Judged {
  /** Epoch milliseconds of the comparison (its record's time). */
  at: number;
  answered: boolean;
  unexplained: boolean;
}

export const newest = (judged: readonly Pick<Judged, 'at'>[]): number =>
  judged.reduce((max, j) => (j.at > max ? j.at : max), Number.NEGATIVE_INFINITY);

/**
 * The state of the comparisons of one window (the readyWindow that ends at the route's newest
 * comparison, so a route that stops comparing keeps the verdict its last comparisons gave, as
 * Prometheus's over flat counters does): the one definition of ready.
 */
export function stateOf(window: readonly Judged[], n: number): RouteState {
  if (window.some((j) => j.unexplained)) return 'mismatch';
  const answered = window.filter((j) => j.answered).length;
  if (answered >= n) return 'ready';
  return answered === 0 && window.length > 0 ? 'validated' : 'collecting';
}

/** Whether a comparison compared answers (a read, a readback, a send, a translation refused) rather than only validating a translation. */
export const answeredBy = (method: CompareMethod) => method !== 'validate';

/**
 * The path kind of a comparison: the status class of the legacy answer (the primary's in shadow mode)
 * and its error code, `2xx`, `4xx not_found`: a rarer path (an unknown id, a declined card) is judged
 * with the rest of the route, and the report shows each kind's comparisons apart.
 */
export const kindOf = (status: number, errorCode?: unknown): string =>
  `${Math.floor(status / 100)}xx${typeof errorCode === 'string' && status >= 300 ? ` ${errorCode}` : ''}`;

/** The verdict per value of `key` (a merchant, a kind of client) over the window's comparisons. */
export function breakdown<C extends { method: CompareMethod }>(
  window: readonly C[],
  judged: readonly Judged[],
  key: (c: C) => string | undefined,
  n: number,
): Record<string, Breakdown> {
  const groups = new Map<string, Judged[]>();
  window.forEach((c, i) => {
    const k = key(c);
    if (k === undefined) return;
    const list = groups.get(k) ?? [];
    list.push(judged[i]!);
    groups.set(k, list);
  });
  return Object.fromEntries(
    [...groups].map(([k, list]) => [
      k,
      { compared: list.length, matched: list.filter((j) => !j.unexplained).length, state: stateOf(list, n) },
    ]),
  );
}

/** The verdict's sentence: what the state rests on, and where it compared less, that it did. */
export function verdictOf(
  state: RouteState,
  n: number,
  counts: {
    window: string;
    validatedOnly: number;
    answered: number;
    unexplained: number;
    kinds: string[];
    readBackOnly: boolean;
  },
): string {
  const within = `in the ${counts.window} up to the last comparison`;
  if (state === 'ready')
    return counts.readBackOnly
      ? `ready, read back only: ${counts.answered} read-backs of the resource ${within} match (${n} needed); the write's own answer and effect were not compared`
      : `ready: ${counts.answered} comparisons ${within}, none unexplained (${n} needed)`;
  if (state === 'validated')
    return `validated, not compared: ${counts.validatedOnly} translations checked against the current API's schema, no answer compared`;
  if (state === 'collecting')
    return `collecting: ${n - counts.answered} more comparisons of answers needed ${within}, none mismatched${counts.validatedOnly > 0 ? ` (${counts.validatedOnly} validated only, not counted)` : ''}`;
  return `mismatch: ${counts.unexplained} unexplained ${within} (${counts.kinds.join(', ')}); the route stays so until the window passes them or an operator accepts them`;
}
