/**
 * The gateway's pino logger: JSON lines, secrets redacted per line, buffered 64 KiB at a time (one
 * write per line would be a syscall per request) and flushed every second and on close. The access
 * line of each request, the one line written per request, is built here in pino's own format
 * (level, time, pid, hostname, fields, msg) and written to the same destination: pino's general
 * path (formatter, serializers, per-key checks) costs several microseconds a line, a tenth of a
 * proxied request. Lines reach the destination once per event-loop turn (TurnBatcher).
 */
import { hostname } from 'node:os';
import { pino } from 'pino';
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
  ms: number;
  traceId?: string | undefined;
}

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

/**
 * Lines written during one turn of the event loop, handed to the destination as one string at its
 * end: sonic-boom measures its pending buffer (Buffer.byteLength of up to 16 KiB) on every write,
 * which made a short line cost 3-5 us; a turn's batch pays it once.
 */
class TurnBatcher {
  private lines: string[] = [];
  private scheduled = false;
  constructor(private readonly destination: { write(data: string): unknown }) {}

  write(line: string): boolean {
    this.lines.push(line);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
    return true;
  }

  readonly drain = (): void => {
    this.scheduled = false;
    if (this.lines.length === 0) return;
    const data = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.destination.write(data);
  };
}

export function gatewayLogging(level: string, stream?: NodeJS.WritableStream) {
  // one write(2) costs ~40 us whatever its size up to tens of KiB: lines go out 64 KiB at a time (and every second)
  const destination = stream ? undefined : pino.destination({ dest: 1, sync: false, minLength: 64 * 1024, maxWrite: 128 * 1024 });
  const batcher = destination ? new TurnBatcher(destination) : undefined;
  const out = (stream ?? batcher)!;
  const timer = destination ? setInterval(() => destination.flush(), 1000).unref() : undefined;
  const prefix = `{"level":30,"time":`;
  const base = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  const accessOn = (LEVELS[level] ?? 30) <= 30;
  return {
    options: {
      level,
      // Redaction runs per log line (pino's own redact would run on every per-request child logger).
      formatters: { log: (record: Record<string, unknown>) => redactValue(record) as Record<string, unknown> },
      serializers: {
        err: (err: Error & { code?: string }) => ({ type: err.name, code: err.code, message: scrub(err.message ?? ''), stack: scrub(err.stack ?? '') }),
      },
      stream: out,
    },
    /** One request's access line (`"msg":"request"`), at info level; the client's strings scrubbed (a method is one of the HTTP parser's tokens). */
    access(f: AccessFields): void {
      if (!accessOn) return;
      out.write(
        `${prefix}${Date.now()}${base},"requestId":${JSON.stringify(f.clientRequestId ? scrub(f.requestId) : f.requestId)},"route":${JSON.stringify(f.route)},"mode":"${f.mode}","method":${JSON.stringify(f.method)},"url":${JSON.stringify(scrub(f.url))},"status":${f.status},"ms":${f.ms}${f.traceId ? `,"traceId":"${f.traceId}"` : ''},"msg":"request"}\n`,
      );
    },
    flush(): void {
      batcher?.drain();
      destination?.flushSync();
    },
    close(): void {
      clearInterval(timer);
      batcher?.drain();
      destination?.flushSync();
    },
  };
}

export type GatewayLogging = ReturnType<typeof gatewayLogging>;
