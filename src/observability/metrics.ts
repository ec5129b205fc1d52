/**
 * A small Prometheus registry: counters and one latency histogram, labelled by route id and status.
 * Written here rather than pulled in: a few label maps on the hot path and the text format.
 */
type Labels = Record<string, string>;

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labelText = (labels: Labels) => {
  const keys = Object.keys(labels);
  return keys.length === 0 ? '' : `{${keys.map((k) => `${k}="${escape(labels[k]!)}"`).join(',')}}`;
};

/** Series key without escaping: label values joined by a separator no label value contains. */
const keyOf = (labels: Labels) => {
  let key = '';
  for (const k in labels) key += `${labels[k]}\u0001`;
  return key;
};

class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels);
    const entry = this.values.get(key);
    if (entry) entry.value += by;
    else this.values.set(key, { labels, value: by });
  }

  get(labels: Labels = {}): number {
    return this.values.get(keyOf(labels))?.value ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) lines.push(`${this.name}${labelText(labels)} ${value}`);
    return lines.join('\n');
  }
}

class Gauge {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly read: () => number,
  ) {}

  render(): string {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`, `${this.name} ${this.read()}`].join('\n');
  }
}

/** Latency buckets in seconds. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  observe(labels: Labels, seconds: number): void {
    const key = keyOf(labels);
    let s = this.series.get(key);
    if (!s) {
      s = { labels, counts: new Array<number>(BUCKETS.length).fill(0), sum: 0, count: 0 };
      this.series.set(key, s);
    }
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) s.counts[i]!++;
    s.sum += seconds;
    s.count++;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.series.values()) {
      BUCKETS.forEach((le, i) => lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(le) })} ${s.counts[i]}`));
      lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
      lines.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`);
      lines.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return lines.join('\n');
  }
}

export function createMetrics() {
  const gauges: Gauge[] = [];
  const metrics = {
    requests: new Counter('paybridge_requests_total', 'Requests answered, by legacy route id (or current, unmapped), mode and HTTP status.'),
    latency: new Histogram('paybridge_request_duration_seconds', 'Time to answer, by route id and mode.'),
    upstreamErrors: new Counter('paybridge_upstream_errors_total', 'Upstream calls that failed or timed out, by route id, error code and the status answered (502, 504).'),
    droppedFields: new Counter('paybridge_dropped_fields_total', 'Legacy fields dropped as unknown to the contract, by route id.'),
    merchantKeyLookups: new Counter('paybridge_merchant_key_lookups_total', 'Get Merchant calls made to resolve merchant tokens (cache misses).'),
    merchantKeyRequests: new Counter('paybridge_merchant_token_requests_total', 'Requests that carried a merchant token.'),
    gauge(name: string, help: string, read: () => number) {
      gauges.push(new Gauge(name, help, read));
    },
    counter(name: string, help: string) {
      const c = new Counter(name, help);
      extra.push(c);
      return c;
    },
    render(): string {
      const all = [metrics.requests, metrics.latency, metrics.upstreamErrors, metrics.droppedFields, metrics.merchantKeyLookups, metrics.merchantKeyRequests, ...extra, ...gauges];
      return `${all.map((m) => m.render()).join('\n')}\n`;
    },
  };
  const extra: Counter[] = [];
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
