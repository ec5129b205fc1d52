/**
 * The gateway's pino logger: JSON lines, secrets redacted per line, buffered 4 KiB at a time (one
 * write per line would be a syscall per request) and flushed every second and on close.
 */
import { pino } from 'pino';
import { redactValue, scrub } from '../observability/redact.js';

export function gatewayLogging(level: string, stream?: NodeJS.WritableStream) {
  const destination = stream ? undefined : pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const timer = destination ? setInterval(() => destination.flush(), 1000).unref() : undefined;
  return {
    options: {
      level,
      // Redaction runs per log line (pino's own redact would run on every per-request child logger).
      formatters: { log: (record: Record<string, unknown>) => redactValue(record) as Record<string, unknown> },
      serializers: {
        err: (err: Error & { code?: string }) => ({ type: err.name, code: err.code, message: scrub(err.message ?? ''), stack: scrub(err.stack ?? '') }),
      },
      stream: stream ?? destination,
    },
    flush(): void {
      destination?.flushSync();
    },
    close(): void {
      clearInterval(timer);
      destination?.flushSync();
    },
  };
}
