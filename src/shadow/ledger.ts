/**
 * Comparison records in, a per-route report out: match rate, top differing paths, latency of each side
 * and a readiness verdict. The same ledger serves the live gateway report and `paybridge report FILE...`.
 */
import { generalise, type Difference } from './diff.js';
import { NoiseRules, type IgnoreRule, type LearnedNoise, type NoiseReason } from './noise.js';
import { answeredBy, breakdown, stateOf, verdictOf, type Breakdown, type RouteState } from './verdict.js';

export type { Breakdown, RouteState } from './verdict.js';

/**
 * How a comparison was made: the same read through both; a write's state, effect and answer checked
 * (`write`); a readback of the resource a write touched; a validation only; a send to an isolated
 * candidate; or the translator's refusal.
 */
export type CompareMethod = 'compare' | 'write' | 'readback' | 'validate' | 'send' | 'translate';

export interface ComparisonRecord {
  type: 'comparison';
  time: string;
  route: string;
  requestId: string;
  mode: 'shadow' | 'canary';
  /** How the candidate was obtained: the same read, a readback of a write, a validation, or a send to an isolated candidate. */
  method: CompareMethod;
  primary: { status: number; latencyMs: number };
  candidate: { status: number; latencyMs: number } | null;
  differences: Difference[];
  /** The redacted legacy request; its headers only in a comparison that did not match. */
  request: { method: string; path: string; headers?: Record<string, unknown> | undefined; body?: unknown };
  /** The upstreams' own tracers (from error answers), which a customer may quote: searchable like requestId. */
  tracers?: { primary?: string; candidate?: string };
  note?: string;
  /** Fields the translated write sets that nothing the current API shows can confirm, each with why (effect.ts). */
  notComparable?: string[] | undefined;
  instance?: string;
  /** The merchant the credential belongs to, when the gateway knew it. */
  merchant?: string | undefined;
  /** The client's kind by its User-Agent: wordpress, magento, dotnet, other. */
  client?: string | undefined;
}

export interface NoiseRecord extends LearnedNoise {
  type: 'noise';
  time: string;
  instance?: string;
}

export interface SkippedRecord {
  type: 'skipped';
  time: string;
  route: string;
  requestId: string;
  reason: string;
  instance?: string;
}

/**
 * The requests of a percentage canary route (`canary:N%`) each side answered since the last such
 * record: the share the translation served, beside the share configured.
 */
export interface ServedRecord {
  type: 'served';
  time: string;
  route: string;
  /** The percent configured for the translation (the route's `canary:N%`) when these were served. */
  percent: number;
  translation: number;
  legacy: number;
  instance?: string;
}

export type ShadowRecord = ComparisonRecord | NoiseRecord | SkippedRecord | ServedRecord;

/** One line of a record file as a record; undefined when it is not JSON or not a record (`why` says which). */
export function parseRecordLine(line: string): { record?: ShadowRecord; why?: 'not JSON' | 'not a shadow record' } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { why: 'not JSON' };
  }
  const type = (value as { type?: unknown } | null)?.type;
  return typeof value === 'object' && value !== null && (type === 'comparison' || type === 'noise' || type === 'skipped' || type === 'served')
    ? { record: value as ShadowRecord }
    : { why: 'not a shadow record' };
}

export interface PathSummary {
  path: string;
  count: number;
  example: { requestId: string; primary?: unknown; candidate?: unknown };
}

export interface RouteReport {
  route: string;
  modes: string[];
  compared: number;
  matched: number;
  /** matched / compared, 0-1. */
  matchRate: number;
  /** Comparisons with at least one difference no noise rule explains. */
  unexplained: number;
  /** Of the kept comparisons, how many left each field of the translated write not comparable (and why). */
  notComparable: Record<string, number>;
  /** Of `compared`, those that only validated the translation (no answer compared): not evidence of readiness. */
  validatedOnly: number;
  ready: boolean;
  state: RouteState;
  verdict: string;
  methods: Partial<Record<CompareMethod, number>>;
  skipped: Record<string, number>;
  topDiffs: PathSummary[];
  explained: { path: string; reason: NoiseReason; count: number }[];
  learnedNoise: LearnedNoise[];
  latencyMs: { primary: { p50: number; p99: number }; candidate: { p50: number; p99: number } | null };
  /** The same verdict over one merchant's comparisons, or one kind of client's (a route can be ready for one and not another). */
  byMerchant: Record<string, Breakdown>;
  byClient: Record<string, Breakdown>;
  /** The gateway instances whose records these are, and the modes they compared in. */
  instances: Record<string, string[]>;
  /**
   * A percentage canary's requests by the side that answered them, and the share the translation
   * served (0-1) beside the percent configured (the last one seen); absent for a route never so split.
   */
  canary?: { percent: number; translation: number; legacy: number; served: number };
}


export interface ShadowReport {
  generatedAt: string;
  readyAfter: number;
  routes: RouteReport[];
  totals: { compared: number; matched: number; skipped: number; dropped: number };
}

/** What the report needs of a comparison: no request, at most 20 differences, long values cut. */
type Kept = Pick<ComparisonRecord, 'time' | 'route' | 'requestId' | 'mode' | 'method' | 'primary' | 'candidate' | 'differences' | 'tracers' | 'merchant' | 'client' | 'instance' | 'notComparable'>;

const MAX_KEPT_DIFFERENCES = 20;
const MAX_VALUE_CHARS = 200;

function compactValue(v: unknown): unknown {
  if (v === undefined || v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  if (text.length <= MAX_VALUE_CHARS) return v;
  return `${text.slice(0, MAX_VALUE_CHARS)}... (${text.length} chars)`;
}

function compact(record: ComparisonRecord): Kept {
  const { time, route, requestId, mode, method, primary, candidate, tracers, merchant, client, instance, notComparable } = record;
  const differences = record.differences.slice(0, MAX_KEPT_DIFFERENCES).map((d) => {
    const out: Difference = { path: d.path };
    if ('primary' in d) out.primary = compactValue(d.primary);
    if ('candidate' in d) out.candidate = compactValue(d.candidate);
    if (d.noise) out.noise = d.noise;
    return out;
  });
  return { time, route, requestId, mode, method, primary, candidate, differences, tracers, merchant, client, instance, notComparable };
}

interface RouteRecords {
  comparisons: Kept[];
  /** Older comparisons folded into counts once the list is full. */
  foldedCompared: number;
  foldedMatched: number;
  skipped: Record<string, number>;
  /** A percentage canary's requests, by the side that answered. */
  served?: { percent: number; translation: number; legacy: number };
}

/** A percentile in whole milliseconds with one decimal. */
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;

export interface LedgerOptions {
  readyAfter: number;
  ignore?: readonly IgnoreRule[];
  /** Comparisons kept per route for the report (older ones are counted, not kept); default 1000. */
  keepPerRoute?: number;
}

export class ShadowLedger {
  readonly noise: NoiseRules;
  private readonly routes = new Map<string, RouteRecords>();
  /** Comparisons kept per route (older ones folded into counts). */
  readonly keep: number;
  dropped = 0;

  constructor(private readonly options: LedgerOptions) {
    this.noise = new NoiseRules(options.ignore);
    this.keep = Math.max(options.keepPerRoute ?? 1000, options.readyAfter);
  }

  private state(route: string): RouteRecords {
    let s = this.routes.get(route);
    if (!s) {
      s = { comparisons: [], foldedCompared: 0, foldedMatched: 0, skipped: {} };
      this.routes.set(route, s);
    }
    return s;
  }

  /** True when every difference of the comparison is explained by a noise rule. */
  matches(record: Pick<ComparisonRecord, 'route' | 'differences'>): boolean {
    return record.differences.every((d) => this.noise.explain(record.route, d) !== null);
  }

  ingest(record: ShadowRecord): void {
    if (record.type === 'noise') {
      this.noise.remember(record);
      return;
    }
    const s = this.state(record.route);
    if (record.type === 'served') {
      s.served ??= { percent: record.percent, translation: 0, legacy: 0 };
      s.served.percent = record.percent;
      s.served.translation += record.translation;
      s.served.legacy += record.legacy;
      return;
    }
    if (record.type === 'skipped') {
      s.skipped[record.reason] = (s.skipped[record.reason] ?? 0) + 1;
      return;
    }
    s.comparisons.push(compact(record));
    if (s.comparisons.length > this.keep) {
      const old = s.comparisons.shift()!;
      s.foldedCompared++;
      if (this.matches(old)) s.foldedMatched++;
    }
  }

  /** The kept comparisons whose gateway request id or upstream tracer is `id` (a customer quotes either). */
  find(id: string): Kept[] {
    const out: Kept[] = [];
    for (const s of this.routes.values())
      for (const c of s.comparisons)
        if (c.requestId === id || c.requestId.startsWith(`${id}:`) || c.tracers?.primary === id || c.tracers?.candidate === id) out.push(c);
    return out;
  }

  report(): ShadowReport {
    const n = this.options.readyAfter;
    const routes: RouteReport[] = [];
    let compared = 0;
    let matched = 0;
    let skipped = 0;
    for (const [route, s] of [...this.routes].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
      const kept = [...s.comparisons].sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
      const diffCounts = new Map<string, PathSummary>();
      const explainedCounts = new Map<string, { path: string; reason: NoiseReason; count: number }>();
      const methods: Partial<Record<CompareMethod, number>> = {};
      const primaryLatency: number[] = [];
      const candidateLatency: number[] = [];
      let routeMatched = s.foldedMatched;
      const unexplainedFlags: boolean[] = [];
      const notComparable: Record<string, number> = {};
      for (const c of kept) {
        for (const field of c.notComparable ?? []) notComparable[field] = (notComparable[field] ?? 0) + 1;
        methods[c.method] = (methods[c.method] ?? 0) + 1;
        primaryLatency.push(c.primary.latencyMs);
        if (c.candidate) candidateLatency.push(c.candidate.latencyMs);
        let unexplained = false;
        for (const d of c.differences) {
          const reason = this.noise.explain(route, d);
          const path = generalise(d.path);
          if (reason) {
            const e = explainedCounts.get(path) ?? { path, reason, count: 0 };
            e.count++;
            explainedCounts.set(path, e);
            continue;
          }
          unexplained = true;
          const summary = diffCounts.get(path) ?? { path, count: 0, example: { requestId: c.requestId, primary: d.primary, candidate: d.candidate } };
          summary.count++;
          diffCounts.set(path, summary);
        }
        if (!unexplained) routeMatched++;
        unexplainedFlags.push(unexplained);
      }
      const routeCompared = s.foldedCompared + kept.length;
      const lastN = unexplainedFlags.slice(-n);
      const recentMismatches = lastN.filter(Boolean).length;
      const answered = kept.map((c) => answeredBy(c.method));
      const validatedOnly = answered.filter((a) => !a).length;
      const state: RouteState = stateOf(unexplainedFlags, answered, n, s.foldedCompared);
      const ready = state === 'ready';
      const answeredCount = s.foldedCompared + answered.filter(Boolean).length;
      // a write read back only compared the resource, not the write's own answer and effect: said so
      const readBackOnly = (methods.readback ?? 0) > 0 && !methods.write && !methods.send;
      // what the comparisons could not judge is said in the verdict itself, not only beside it
      const unjudged = Object.keys(notComparable);
      const verdict = verdictOf(state, n, { validatedOnly, answered: answeredCount, recentMismatches, lastN: lastN.length, readBackOnly }) + (unjudged.length ? `; not comparable: ${unjudged.join('; ')}` : '');
      primaryLatency.sort((a, b) => a - b);
      candidateLatency.sort((a, b) => a - b);
      routes.push({
        route,
        modes: [...new Set(kept.map((c) => c.mode))],
        compared: routeCompared,
        matched: routeMatched,
        matchRate: routeCompared === 0 ? 0 : routeMatched / routeCompared,
        unexplained: routeCompared - routeMatched,
        notComparable,
        validatedOnly,
        ready,
        state,
        verdict,
        methods,
        skipped: s.skipped,
        topDiffs: [...diffCounts.values()].sort((a, b) => b.count - a.count).slice(0, 10),
        explained: [...explainedCounts.values()].sort((a, b) => b.count - a.count),
        learnedNoise: this.noise.learnedFor(route),
        latencyMs: {
          primary: { p50: percentile(primaryLatency, 50), p99: percentile(primaryLatency, 99) },
          candidate: candidateLatency.length ? { p50: percentile(candidateLatency, 50), p99: percentile(candidateLatency, 99) } : null,
        },
        byMerchant: breakdown(kept, unexplainedFlags, (c) => c.merchant, n),
        byClient: breakdown(kept, unexplainedFlags, (c) => c.client ?? 'other', n),
        instances: Object.fromEntries(
          [...new Set(kept.map((c) => c.instance ?? 'this gateway'))].map((name) => [name, [...new Set(kept.filter((c) => (c.instance ?? 'this gateway') === name).map((c) => c.mode))]]),
        ),
        ...(s.served ? { canary: { ...s.served, served: s.served.translation / Math.max(1, s.served.translation + s.served.legacy) } } : {}),
      });
      compared += routeCompared;
      matched += routeMatched;
      skipped += Object.values(s.skipped).reduce((a, b) => a + b, 0);
    }
    return { generatedAt: new Date().toISOString(), readyAfter: n, routes, totals: { compared, matched, skipped, dropped: this.dropped } };
  }
}
