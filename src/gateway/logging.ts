/**
 * The gateway's pino logger: JSON lines, secrets redacted per line, to stdout in large writes
 * (observability/lines.ts), flushed every second and on close. The access
 * line of each request, the one line written per request, is built here in pino's own format
 * (level, time, pid, hostname, fields, msg) and written to the same destination: pino's general
 * path (formatter, serializers, per-key checks) costs several microseconds a line, a tenth of a
 * proxied request.
 */
import { hostname } from 'node:os';
import { pino } from 'pino';
import { lineWriter } from '../observability/lines.js';
import { redactValue, scrub } from '../observability/redact.js';

/** The fields of one access line. */
export interface AccessFields {
  requestId: string;
  /** The id came from the client (scrubbed like any client text); else the gateway made it. */
  clientRequestId: boolean;
  route: string;
  mode: string;
  method: string;
  url: string;
  status: number;
  /** Time to answer in milliseconds (written to a tenth). */
  ms: number;
  traceId?: string | undefined;
}

/**
 * Milliseconds to a tenth as JSON writes them (`12`, `12.3`), from integers: a double's shortest
 * text costs 300 ns, a small integer's is cached.
 */
export function tenths(ms: number): string {
  const t = Math.round(ms * 10);
  const whole = Math.floor(t / 10);
  const tenth = t - whole * 10;
  return tenth === 0 ? String(whole) : `${whole}.${tenth}`;
}

export function gatewayLogging(level: string, stream?: NodeJS.WritableStream) {
  const stdout = stream ? undefined : lineWriter(1);
  const out = (stream ?? stdout)!;
  const prefix = `{"level":30,"time":`;
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  // the time of the last access line as text: lines written in the same millisecond share it
  let clock = 0;
  let clockText = '0';
  // `","route":"L6","mode":"current","method":"GET","url":` made once for each route, mode and method:
  // all three come from fixed sets (the route table, five modes, the methods Node's parser knows)
  const middles = new Map<string, Map<string, Map<string, string>>>();
  const middle = (route: string, mode: string, method: string): string => {
    let byMode = middles.get(route);
    if (byMode === undefined) middles.set(route, (byMode = new Map<string, Map<string, string>>()));
    let byMethod = byMode.get(mode);
    if (byMethod === undefined) byMode.set(mode, (byMethod = new Map<string, string>()));
    let text = byMethod.get(method);
    if (text === undefined) {
      text = `","route":${JSON.stringify(route)},"mode":${JSON.stringify(mode)},"method":${JSON.stringify(method)},"url":`;
      byMethod.set(method, text);
    }
    return text;
  };
  const accessOn =
    level !== 'silent' && (pino.levels.values[level] ?? pino.levels.values.info!) <= pino.levels.values.info!;
  return {
    options: {
      level,
      // Redaction runs per log line (pino's own redact would run on every per-request child logger).
      formatters: { log: (record: Record<string, unknown>) => redactValue(record) as Record<string, unknown> },
      serializers: {
        err: (err: Error & { code?: string }) => ({
          type: err.name,
          code: err.code,
          message: scrub(err.message ?? ''),
          stack: scrub(err.stack ?? ''),
        }),
      },
      stream: out,
      // fastify announces its address; the gateway's own start line (with its upstreams and modes) says it once
      hooks: {
        logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void): void {
          if (typeof args[0] === 'string' && args[0].startsWith('Server listening at ')) return;
          method.apply(this, args);
        },
      },
    },
    /**
     * One request's access line (`"msg":"request"`), at info level; the client's strings scrubbed. A
     * request id needs no JSON escaping (a UUID, or a client's id of [A-Za-z0-9._:-] only, see
     * requestIdOf, scrubbed into the same characters); route ids, modes and methods (the HTTP parser's
     * tokens) are few and quoted once each.
     */
    access(this: void, f: AccessFields): void {
      if (!accessOn) return;
      const now = Date.now();
      if (now !== clock) {
        clock = now;
        // a time in ms is past 2^31, a heap number, which String() writes by V8's slow double-to-text
        // path: written as two small integers instead
        const high = Math.floor(now / 1_000_000);
        const low = now - high * 1_000_000;
        clockText = high > 0 && Number.isInteger(now) ? `${high}${String(low).padStart(6, '0')}` : String(now);
      }
      out.write(
        `${prefix}${clockText}${base},"requestId":"${f.clientRequestId ? scrub(f.requestId) : f.requestId}${middle(f.route, f.mode, f.method)}${JSON.stringify(scrub(f.url))},"status":${f.status},"ms":${tenths(f.ms)}${f.traceId ? `,"traceId":"${f.traceId}"` : ''},"msg":"request"}\n`,
      );
    },
    flush(): void {
      stdout?.flushSync();
    },
    close(): void {
      void stdout?.close();
    },
  };
}
