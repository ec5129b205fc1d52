/**
 * A route's verdict from its comparisons: the state (collecting, mismatch, ready, validated), per
 * merchant or kind of client too, and the sentence that names the evidence the state rests on.
 */
import type { CompareMethod } from './ledger.js';

/**
 * A route's verdict: not enough comparisons of answers yet, an unexplained mismatch among the last N,
 * ready (N comparisons of answers, none mismatched among the last N), or validated only (translations
 * checked against the current API's schema, no answer compared: never ready).
 */
export const ROUTE_STATES = ['collecting', 'mismatch', 'ready', 'validated'] as const;
export type RouteState = (typeof ROUTE_STATES)[number];

export interface Breakdown {
  compared: number;
  matched: number;
  state: RouteState;
}

/**
 * The verdict of a run of comparisons (oldest first; `unexplained` true where a difference is not
 * explained, `answered` true where answers were compared, not only a translation validated): a
 * mismatch among the last n, ready after n comparisons of answers, validated only, or too few.
 */
export function stateOf(unexplained: readonly boolean[], answered: readonly boolean[], n: number, folded = 0): RouteState {
  if (unexplained.slice(-n).some(Boolean)) return 'mismatch';
  const compared = folded + answered.filter(Boolean).length;
  if (compared >= n) return 'ready';
  return compared === 0 && answered.length > 0 ? 'validated' : 'collecting';
}

/** Whether a comparison compared answers (a read, a readback, a send, a translation refused) rather than only validating a translation. */
export const answeredBy = (method: CompareMethod) => method !== 'validate';

/** The verdict per value of `key` (a merchant, a kind of client) over the kept comparisons. */
export function breakdown<C extends { method: CompareMethod }>(kept: readonly C[], flags: readonly boolean[], key: (c: C) => string | undefined, n: number): Record<string, Breakdown> {
  const groups = new Map<string, [boolean, boolean][]>();
  kept.forEach((c, i) => {
    const k = key(c);
    if (k === undefined) return;
    const list = groups.get(k) ?? [];
    list.push([flags[i]!, answeredBy(c.method)]);
    groups.set(k, list);
  });
  return Object.fromEntries(
    [...groups].map(([k, list]) => [k, { compared: list.length, matched: list.filter(([f]) => !f).length, state: stateOf(list.map(([f]) => f), list.map(([, a]) => a), n) }]),
  );
}

/** The verdict's sentence: what the state rests on, and where it compared less, that it did. */
export function verdictOf(
  state: RouteState,
  n: number,
  counts: { validatedOnly: number; answered: number; recentMismatches: number; lastN: number; readBackOnly: boolean },
): string {
  if (state === 'ready')
    return counts.readBackOnly
      ? `ready, read back only: the last ${n} read-backs of the resource match; the write's own answer and effect were not compared`
      : `ready: the last ${n} comparisons match`;
  if (state === 'validated') return `validated, not compared: ${counts.validatedOnly} translations checked against the current API's schema, no answer compared`;
  if (state === 'collecting')
    return `collecting: ${n - counts.answered} more comparisons of answers needed, none mismatched${counts.validatedOnly > 0 ? ` (${counts.validatedOnly} validated only, not counted)` : ''}`;
  return `mismatch: ${counts.recentMismatches} unexplained in the last ${Math.min(n, counts.lastN)}`;
}
