/**
 * Comparison records in, a per-route report out: match rate, top differing paths, latency of each side
 * and a readiness verdict. The same ledger serves the live gateway report and `paybridge report FILE...`.
 */
import { Acceptances, type AcceptedRecord } from './accepted.js';
import { generalise, type Difference } from './diff.js';
import { NoiseRules, type IgnoreRule, type LearnedNoise, type NoiseReason } from './noise.js';
import { durationMs } from '../observability/rules.js';
import {
  answeredBy,
  breakdown,
  kindOf,
  newest,
  stateOf,
  verdictOf,
  type Breakdown,
  type Judged,
  type RouteState,
} from './verdict.js';

export type { Breakdown, RouteState } from './verdict.js';
export type { AcceptedRecord } from './accepted.js';

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
  /** The path kind of the legacy answer: its status class and error code (`2xx`, `4xx not_found`). */
  kind?: string | undefined;
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

export type ShadowRecord = ComparisonRecord | NoiseRecord | SkippedRecord | ServedRecord | AcceptedRecord;

/** One line of a record file as a record; undefined when it is not JSON or not a record (`why` says which). */
export function parseRecordLine(line: string): { record?: ShadowRecord; why?: 'not JSON' | 'not a shadow record' } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { why: 'not JSON' };
  }
  const type = (value as { type?: unknown } | null)?.type;
  return typeof value === 'object' &&
    value !== null &&
    (type === 'comparison' || type === 'noise' || type === 'skipped' || type === 'served' || type === 'accepted')
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
  explained: { path: string; reason: NoiseReason | 'accepted'; count: number }[];
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
  /**
   * What the verdict read: the comparisons of the window (`shadow.readyWindow`) up to the route's
   * newest, by path kind (status class and error code of the legacy answer), with the paths left
   * unexplained on each.
   */
  window: {
    from: string;
    to: string;
    compared: number;
    answered: number;
    unexplained: number;
    kinds: Record<string, { compared: number; unexplained: number; paths: string[] }>;
  };
  /** The differences operators accepted on this route: who, when, on which replica, the path and the values. */
  accepted: AcceptedRecord[];
}

export interface ShadowReport {
  generatedAt: string;
  readyAfter: number;
  /** The window a verdict reads, before each route's newest comparison (shadow.readyWindow). */
  readyWindow: string;
  routes: RouteReport[];
  totals: { compared: number; matched: number; skipped: number; dropped: number };
}

/** What the report needs of a comparison: no request, at most 20 differences, long values cut. */
type Kept = Pick<
  ComparisonRecord,
  | 'time'
  | 'route'
  | 'requestId'
  | 'mode'
  | 'method'
  | 'primary'
  | 'candidate'
  | 'differences'
  | 'tracers'
  | 'merchant'
  | 'client'
  | 'instance'
  | 'notComparable'
> & {
  kind: string;
  /** Epoch ms of `time`. */
  at: number;
};

const MAX_KEPT_DIFFERENCES = 20;
const MAX_VALUE_CHARS = 200;

function compactValue(v: unknown): unknown {
  if (v === undefined || v === null || typeof v === 'number' || typeof v === 'boolean') return v;
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  if (text.length <= MAX_VALUE_CHARS) return v;
  return `${text.slice(0, MAX_VALUE_CHARS)}... (${text.length} chars)`;
}

function compact(record: ComparisonRecord): Kept {
  const {
    time,
    route,
    requestId,
    mode,
    method,
    primary,
    candidate,
    tracers,
    merchant,
    client,
    instance,
    notComparable,
  } = record;
  const kind = record.kind ?? kindOf(primary.status);
  const differences = record.differences.slice(0, MAX_KEPT_DIFFERENCES).map((d) => {
    const out: Difference = { path: d.path };
    if ('primary' in d) out.primary = compactValue(d.primary);
    if ('candidate' in d) out.candidate = compactValue(d.candidate);
    if (d.noise) out.noise = d.noise;
    return out;
  });
  return {
    time,
    route,
    requestId,
    mode,
    method,
    primary,
    candidate,
    differences,
    tracers,
    merchant,
    client,
    instance,
    notComparable,
    kind,
    at: Date.parse(time),
  };
}

interface RouteRecords {
  comparisons: Kept[];
  /** Older comparisons folded into counts once the list is full. */
  foldedCompared: number;
  foldedMatched: number;
  /** The newest time (epoch ms) of a folded comparison, and of a folded one left unexplained, by path kind: they still count in the window. */
  foldedLast: number;
  foldedUnexplained: Map<string, number>;
  skipped: Record<string, number>;
  /** A percentage canary's requests, by the side that answered. */
  served?: { percent: number; translation: number; legacy: number };
}

/** A percentile in whole milliseconds with one decimal. */
/** shadow.readyWindow's default. */
const DEFAULT_WINDOW = '1h';

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? 0
    : Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;

export interface LedgerOptions {
  readyAfter: number;
  /** The window a verdict reads, before a route's newest comparison: a Prometheus duration (shadow.readyWindow); default 1h. */
  readyWindow?: string;
  /** This gateway's name: the replica of a comparison recorded without one (an acceptance holds for its own replica's comparisons). */
  instance?: string;
  ignore?: readonly IgnoreRule[];
  /** Comparisons kept per route for the report (older ones are counted, not kept); default 1000. */
  keepPerRoute?: number;
}

export class ShadowLedger {
  readonly noise: NoiseRules;
  readonly accepted = new Acceptances();
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
      s = {
        comparisons: [],
        foldedCompared: 0,
        foldedMatched: 0,
        foldedLast: Number.NEGATIVE_INFINITY,
        foldedUnexplained: new Map(),
        skipped: {},
      };
      this.routes.set(route, s);
    }
    return s;
  }

  /** Why a difference of a comparison is not a mismatch (a noise rule, or an acceptance its replica took), or null. */
  explain(route: string, d: Difference, instance: string | undefined): NoiseReason | 'accepted' | null {
    return (
      this.noise.explain(route, d) ??
      (this.accepted.explains(route, d, instance ?? this.options.instance) ? 'accepted' : null)
    );
  }

  /** True when every difference of the comparison is explained by a noise rule or an acceptance. */
  matches(record: Pick<ComparisonRecord, 'route' | 'differences' | 'instance'>): boolean {
    return record.differences.every((d) => this.explain(record.route, d, record.instance) !== null);
  }

  ingest(record: ShadowRecord): void {
    if (record.type === 'noise') {
      this.noise.remember(record);
      return;
    }
    if (record.type === 'accepted') {
      this.accepted.add(record);
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
      s.foldedLast = Math.max(s.foldedLast, old.at);
      if (this.matches(old)) s.foldedMatched++;
      else s.foldedUnexplained.set(old.kind, Math.max(s.foldedUnexplained.get(old.kind) ?? 0, old.at));
    }
  }

  /** The kept comparisons whose gateway request id or upstream tracer is `id` (a customer quotes either). */
  find(id: string): Kept[] {
    const out: Kept[] = [];
    for (const s of this.routes.values())
      for (const c of s.comparisons)
        if (
          c.requestId === id ||
          c.requestId.startsWith(`${id}:`) ||
          c.tracers?.primary === id ||
          c.tracers?.candidate === id
        )
          out.push(c);
    return out;
  }

  /** The window a verdict reads, in milliseconds. */
  get windowMs(): number {
    return durationMs(this.options.readyWindow ?? DEFAULT_WINDOW);
  }

  /** A route's comparisons, oldest first, each judged: answered or validated only, a difference left unexplained or not. */
  private judged(route: string, s: RouteRecords): { kept: Kept[]; judged: Judged[] } {
    const kept = [...s.comparisons].sort((a, b) => a.at - b.at);
    return {
      kept,
      judged: kept.map((c) => ({ at: c.at, answered: answeredBy(c.method), unexplained: !this.matches(c) })),
    };
  }

  /**
   * Per route, what Prometheus needs to give the report's verdict across replicas: the time of the
   * newest comparison, and of the newest one left unexplained, by path kind (epoch ms). The rules
   * compare them over the window; the counts come from the comparison counters.
   */
  readiness(): Map<string, { last: number; unexplained: Map<string, number> }> {
    const out = new Map<string, { last: number; unexplained: Map<string, number> }>();
    for (const [route, s] of this.routes) {
      const { kept, judged } = this.judged(route, s);
      const last = Math.max(s.foldedLast, newest(judged));
      if (!Number.isFinite(last)) continue;
      const unexplained = new Map(s.foldedUnexplained);
      judged.forEach((j, i) => {
        if (j.unexplained) unexplained.set(kept[i]!.kind, Math.max(unexplained.get(kept[i]!.kind) ?? 0, j.at));
      });
      out.set(route, { last, unexplained });
    }
    return out;
  }

  report(): ShadowReport {
    const n = this.options.readyAfter;
    const readyWindow = this.options.readyWindow ?? DEFAULT_WINDOW;
    const routes: RouteReport[] = [];
    let compared = 0;
    let matched = 0;
    let skipped = 0;
    for (const [route, s] of [...this.routes].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
      const { kept, judged } = this.judged(route, s);
      const diffCounts = new Map<string, PathSummary>();
      const explainedCounts = new Map<string, { path: string; reason: NoiseReason | 'accepted'; count: number }>();
      const methods: Partial<Record<CompareMethod, number>> = {};
      const primaryLatency: number[] = [];
      const candidateLatency: number[] = [];
      let routeMatched = s.foldedMatched;
      const unexplainedPaths: string[][] = [];
      const notComparable: Record<string, number> = {};
      for (const c of kept) {
        for (const field of c.notComparable ?? []) notComparable[field] = (notComparable[field] ?? 0) + 1;
        methods[c.method] = (methods[c.method] ?? 0) + 1;
        primaryLatency.push(c.primary.latencyMs);
        if (c.candidate) candidateLatency.push(c.candidate.latencyMs);
        const paths: string[] = [];
        for (const d of c.differences) {
          const reason = this.explain(route, d, c.instance);
          const path = generalise(d.path);
          if (reason) {
            const e = explainedCounts.get(path) ?? { path, reason, count: 0 };
            e.count++;
            explainedCounts.set(path, e);
            continue;
          }
          paths.push(path);
          const summary = diffCounts.get(path) ?? {
            path,
            count: 0,
            example: { requestId: c.requestId, primary: d.primary, candidate: d.candidate },
          };
          summary.count++;
          diffCounts.set(path, summary);
        }
        if (paths.length === 0) routeMatched++;
        unexplainedPaths.push(paths);
      }
      const routeCompared = s.foldedCompared + kept.length;
      // the window: the readyWindow up to the route's newest comparison (a folded one's time counts too)
      const to = Math.max(s.foldedLast, newest(judged));
      const from = to - this.windowMs;
      const window: Judged[] = [];
      const windowKept: Kept[] = [];
      const kinds: RouteReport['window']['kinds'] = {};
      kept.forEach((c, i) => {
        if (judged[i]!.at <= from) return;
        window.push(judged[i]!);
        windowKept.push(c);
        const k = (kinds[c.kind] ??= { compared: 0, unexplained: 0, paths: [] });
        k.compared++;
        if (judged[i]!.unexplained) k.unexplained++;
        for (const p of unexplainedPaths[i]!) if (!k.paths.includes(p)) k.paths.push(p);
      });
      // a folded comparison left unexplained inside the window still holds the route (the live ledger keeps the newest only)
      for (const [kind, at] of s.foldedUnexplained)
        if (at > from) {
          const k = (kinds[kind] ??= { compared: 0, unexplained: 0, paths: [] });
          k.unexplained++;
          window.push({ at, answered: true, unexplained: true });
        }
      const answeredCount = window.filter((j) => j.answered).length;
      const validatedOnly = kept.filter((c) => !answeredBy(c.method)).length;
      const windowUnexplained = window.filter((j) => j.unexplained).length;
      const state: RouteState = stateOf(window, n);
      const ready = state === 'ready';
      // a write read back only compared the resource, not the write's own answer and effect: said so
      const readBackOnly = (methods.readback ?? 0) > 0 && !methods.write && !methods.send;
      // what the comparisons could not judge is said in the verdict itself, not only beside it
      const unjudged = Object.keys(notComparable);
      const verdict =
        verdictOf(state, n, {
          window: readyWindow,
          validatedOnly: window.filter((j) => !j.answered).length,
          answered: answeredCount,
          unexplained: windowUnexplained,
          kinds: Object.entries(kinds)
            .filter(([, k]) => k.unexplained > 0)
            .map(
              ([kind, k]) =>
                `${kind}: ${k.unexplained}${k.paths.length ? ` at ${k.paths.slice(0, 3).join(', ')}` : ''}`,
            ),
          readBackOnly,
        }) + (unjudged.length ? `; not comparable: ${unjudged.join('; ')}` : '');
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
          candidate: candidateLatency.length
            ? { p50: percentile(candidateLatency, 50), p99: percentile(candidateLatency, 99) }
            : null,
        },
        byMerchant: breakdown(windowKept, window, (c) => c.merchant, n),
        byClient: breakdown(windowKept, window, (c) => c.client ?? 'other', n),
        instances: Object.fromEntries(
          [...new Set(kept.map((c) => c.instance ?? 'this gateway'))].map((name) => [
            name,
            [...new Set(kept.filter((c) => (c.instance ?? 'this gateway') === name).map((c) => c.mode))],
          ]),
        ),
        ...(s.served
          ? {
              canary: {
                ...s.served,
                served: s.served.translation / Math.max(1, s.served.translation + s.served.legacy),
              },
            }
          : {}),
        window: {
          from: Number.isFinite(from) ? new Date(from).toISOString() : '',
          to: Number.isFinite(to) ? new Date(to).toISOString() : '',
          compared: window.length,
          answered: answeredCount,
          unexplained: windowUnexplained,
          kinds,
        },
        accepted: this.accepted.forRoute(route),
      });
      compared += routeCompared;
      matched += routeMatched;
      skipped += Object.values(s.skipped).reduce((a, b) => a + b, 0);
    }
    return {
      generatedAt: new Date().toISOString(),
      readyAfter: n,
      readyWindow,
      routes,
      totals: { compared, matched, skipped, dropped: this.dropped },
    };
  }
}
