/**
 * The gateway's Prometheus metrics on prom-client (one registry per gateway): request counts and
 * latency by route id, upstream errors, dropped legacy fields, merchant-key look-ups, the shadow
 * queue, and prom-client's default process metrics (CPU, memory, event-loop lag, GC) prefixed
 * `paybridge_`.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'paybridge_' });
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  return {
    registry,
    requests: counter('paybridge_requests_total', 'Requests answered, by legacy route id (or current, unmapped), mode and HTTP status.', ['route', 'mode', 'status']),
    latency: new Histogram<'route' | 'mode'>({ name: 'paybridge_request_duration_seconds', help: 'Time to answer, by route id and mode.', labelNames: ['route', 'mode'], buckets: BUCKETS, registers: [registry] }),
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
