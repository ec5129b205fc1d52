/**
 * The gateway's Prometheus metrics on prom-client (one registry per gateway): request counts and
 * latency by route id, upstream errors, dropped legacy fields, merchant-key look-ups, the shadow
 * queue, and prom-client's default process metrics (CPU, memory, event-loop lag, GC) under their
 * standard names (`process_`, `nodejs_`).
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

/** Latency buckets in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics() {
  const registry = new Registry();
  // under their standard names (process_cpu_user_seconds_total, nodejs_eventloop_lag_seconds): what the
  // common Node.js dashboards and alerts read
  collectDefaultMetrics({ register: registry });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    /** One request answered: counted by route, mode and status, its time in the latency histogram. */
    answered: requestMetrics(registry),
    upstreamErrors: counter(
      'paybridge_upstream_errors_total',
      'Upstream calls that failed or timed out, by route id, error code and the status answered (502, 504).',
      ['route', 'code', 'status'],
    ),
    droppedFields: counter(
      'paybridge_dropped_fields_total',
      'Legacy fields dropped as unknown to the contract, by route id.',
      ['route'],
    ),
    counter,
    /** A counter kept elsewhere (a running total), read when scraped. */
    total(name: string, help: string, read: () => number) {
      let seen = 0;
      new Counter({
        name,
        help,
        registers: [registry],
        collect() {
          const now = read();
          if (now > seen) this.inc(now - seen);
          seen = now;
        },
      });
    },
    gauge(name: string, help: string, read: () => number) {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    },
    /** A gauge of several series, read when scraped: each `[labels, value]` pair `read` gives, and only those. */
    series<L extends string>(
      name: string,
      help: string,
      labelNames: readonly L[],
      read: () => Iterable<[Record<L, string>, number]>,
    ) {
      new Gauge<L>({
        name,
        help,
        labelNames,
        registers: [registry],
        collect() {
          this.reset();
          for (const [labels, value] of read()) this.set(labels as never, value);
        },
      });
    },
    /** An info metric: one series at 1 whose labels (read when scraped) say what is in force, as kube-state-metrics' `_info` series do. */
    info(name: string, help: string, labelNames: readonly string[], read: () => Record<string, string>) {
      new Gauge({
        name,
        help,
        labelNames,
        registers: [registry],
        collect() {
          this.reset();
          this.set(read(), 1);
        },
      });
    },
    /** The Prometheus text exposition. */
    render(): Promise<string> {
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

interface Series {
  labels: Record<string, string>;
  count: number;
}

interface Timings {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative), the last one past the largest bound. */
  buckets: number[];
  sum: number;
  count: number;
  /** The request counts of this route and mode, by status. */
  statuses: Map<number, Series>;
}

/**
 * paybridge_requests_total and paybridge_request_duration_seconds, kept as plain numbers per label set
 * and handed to the registry when scraped: prom-client hashes and validates the labels of every
 * inc() and observe(), a few microseconds per request on the gateway's hottest path. Series are found
 * by route, then mode, then status (maps keyed by the strings and numbers as they come): a key built
 * by concatenation is a new string to hash on every request (300 ns a request against 35).
 */
function requestMetrics(registry: Registry) {
  const byRoute = new Map<string, Map<string, Timings>>();
  const all = function* (): Generator<Timings> {
    for (const byMode of byRoute.values()) yield* byMode.values();
  };
  const counter = 'paybridge_requests_total';
  const histogram = 'paybridge_request_duration_seconds';
  const register = (name: string, help: string, type: 'counter' | 'histogram', values: () => object[]) =>
    registry.registerMetric({
      name,
      help,
      type,
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    } as never);
  register(
    counter,
    'Requests answered, by legacy route id (or current, unmapped, refused: before a route was known), mode and HTTP status.',
    'counter',
    () => [...all()].flatMap((t) => [...t.statuses.values()].map((s) => ({ labels: s.labels, value: s.count }))),
  );
  register(histogram, 'Time to answer, by route id and mode.', 'histogram', () =>
    [...all()].flatMap((t) => {
      let cumulative = 0;
      return [
        ...BUCKETS.map((le, i) => ({
          labels: { le, ...t.labels },
          value: (cumulative += t.buckets[i]!),
          metricName: `${histogram}_bucket`,
        })),
        { labels: { le: '+Inf', ...t.labels }, value: t.count, metricName: `${histogram}_bucket` },
        { labels: t.labels, value: t.sum, metricName: `${histogram}_sum` },
        { labels: t.labels, value: t.count, metricName: `${histogram}_count` },
      ];
    }),
  );
  return (route: string, mode: string, status: number, seconds: number): void => {
    let byMode = byRoute.get(route);
    if (!byMode) byRoute.set(route, (byMode = new Map<string, Timings>()));
    let timing = byMode.get(mode);
    if (!timing)
      byMode.set(
        mode,
        (timing = {
          labels: { route, mode },
          buckets: new Array<number>(BUCKETS.length + 1).fill(0),
          sum: 0,
          count: 0,
          statuses: new Map(),
        }),
      );
    let series = timing.statuses.get(status);
    if (!series) timing.statuses.set(status, (series = { labels: { route, mode, status: String(status) }, count: 0 }));
    series.count++;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    timing.buckets[i]!++;
    timing.sum += seconds;
    timing.count++;
  };
}
