/**
 * The gateway's Prometheus metrics on prom-client (one registry per gateway): request counts and
 * latency by route id, upstream errors, dropped legacy fields, merchant-key look-ups, the shadow
 * queue, and prom-client's default process metrics (CPU, memory, event-loop lag, GC) prefixed
 * `paybridge_`.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';

/** Latency buckets in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'paybridge_' });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    /** One request answered: counted by route, mode and status, its time in the latency histogram. */
    answered: requestMetrics(registry),
    upstreamErrors: counter('paybridge_upstream_errors_total', 'Upstream calls that failed or timed out, by route id, error code and the status answered (502, 504).', ['route', 'code', 'status']),
    droppedFields: counter('paybridge_dropped_fields_total', 'Legacy fields dropped as unknown to the contract, by route id.', ['route']),
    counter,
    /** A counter kept elsewhere (a running total), read when scraped. */
    total(name: string, help: string, read: () => number) {
      let seen = 0;
      new Counter({
        name, help, registers: [registry],
        collect() {
          const now = read();
          if (now > seen) this.inc(now - seen);
          seen = now;
        },
      });
    },
    gauge(name: string, help: string, read: () => number) {
      new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
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
}

/**
 * paybridge_requests_total and paybridge_request_duration_seconds, kept as plain numbers per label set
 * and handed to the registry when scraped: prom-client hashes and validates the labels of every
 * inc() and observe(), a few microseconds per request on the gateway's hottest path.
 */
function requestMetrics(registry: Registry) {
  const requests = new Map<string, Series>();
  const timings = new Map<string, Timings>();
  const counter = 'paybridge_requests_total';
  const histogram = 'paybridge_request_duration_seconds';
  const register = (name: string, help: string, type: 'counter' | 'histogram', values: () => object[]) =>
    registry.registerMetric({ name, help, type, get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) } as never);
  register(counter, 'Requests answered, by legacy route id (or current, unmapped), mode and HTTP status.', 'counter', () =>
    [...requests.values()].map((s) => ({ labels: s.labels, value: s.count })),
  );
  register(histogram, 'Time to answer, by route id and mode.', 'histogram', () =>
    [...timings.values()].flatMap((t) => {
      let cumulative = 0;
      return [
        ...BUCKETS.map((le, i) => ({ labels: { le, ...t.labels }, value: (cumulative += t.buckets[i]!), metricName: `${histogram}_bucket` })),
        { labels: { le: '+Inf', ...t.labels }, value: t.count, metricName: `${histogram}_bucket` },
        { labels: t.labels, value: t.sum, metricName: `${histogram}_sum` },
        { labels: t.labels, value: t.count, metricName: `${histogram}_count` },
      ];
    }),
  );
  return (route: string, mode: string, status: number, seconds: number): void => {
    const key = `${route} ${mode} ${status}`;
    let series = requests.get(key);
    if (!series) requests.set(key, (series = { labels: { route, mode, status: String(status) }, count: 0 }));
    series.count++;
    const timingKey = `${route} ${mode}`;
    let timing = timings.get(timingKey);
    if (!timing) timings.set(timingKey, (timing = { labels: { route, mode }, buckets: new Array<number>(BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    timing.buckets[i]!++;
    timing.sum += seconds;
    timing.count++;
  };
}
