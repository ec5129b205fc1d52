/**
 * Every log line and shadow record the suite produces lands in .test-logs/, so the secrets test can
 * scan all of them once the suite has run (npm test clears the folder first).
 */
import { createWriteStream, mkdirSync, readdirSync, readFileSync, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LOG_DIR = fileURLToPath(new URL('../../.test-logs/', import.meta.url));
let counter = 0;

/** A fresh file path in the log folder, named for what writes it. */
export function logPath(name: string, extension = 'log'): string {
  mkdirSync(LOG_DIR, { recursive: true });
  return join(LOG_DIR, `${name}-${process.pid}-${++counter}.${extension}`);
}

/** A stream for a gateway's pino logs. */
export function logStream(name: string): WriteStream {
  return createWriteStream(logPath(name), { flags: 'a' });
}

/** One line of the end-of-suite summary, kept for the secrets test to print last. */
export function writeSummary(part: string, line: string): void {
  mkdirSync(LOG_DIR, { recursive: true });
  writeFileSync(join(LOG_DIR, `summary-${part}.txt`), `${line}\n`);
}

export function readSummaries(): string[] {
  return readdirSync(LOG_DIR)
    .filter((f) => f.startsWith('summary-'))
    .sort()
    .map((f) => readFileSync(join(LOG_DIR, f), 'utf8').trim());
}

/** Log and record files (not summaries). */
export function logFiles(): string[] {
  try {
    return readdirSync(LOG_DIR, { withFileTypes: true })
      .filter((f) => f.isFile() && !f.name.startsWith('summary-'))
      .map((f) => join(LOG_DIR, f.name));
  } catch {
    return [];
  }
}
