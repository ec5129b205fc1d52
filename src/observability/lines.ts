/**
 * JSON lines out of the process in large writes: log lines (stdout) and shadow records (a file). One
 * write(2) through libuv's thread pool costs 40-90 us of CPU on this kind of machine whatever its
 * size up to tens of KiB, and sonic-boom measures (Buffer.byteLength) the whole of its pending buffer
 * on every write it is handed: fed a line at a time, or a turn's lines at a time, that scan (and the
 * flattening of the concatenated buffer it forces) cost about 20,000 instructions per access line
 * (valgrind, test/bench/instructions.mjs), a tenth of a proxied request. So lines are held here and
 * handed on 64 KiB at a time, and at least every second.
 */
import { closeSync, openSync, write } from 'node:fs';
import { pino } from 'pino';

const BATCH_BYTES = 64 * 1024;

/** Lines held until they fill a large write (BATCH_BYTES of text) or the writer's timer drains them. */
class Batcher {
  private lines: string[] = [];
  private size = 0;
  constructor(private readonly destination: { write(data: string): unknown }) {}

  write(line: string): boolean {
    this.lines.push(line);
    this.size += line.length;
    if (this.size >= BATCH_BYTES) this.drain();
    return true;
  }

  drain(): void {
    if (this.lines.length === 0) return;
    const data = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.size = 0;
    this.destination.write(data);
  }
}

export interface LineWriter {
  /** Queues one line (with its newline). */
  write(line: string): boolean;
  /** Writes everything queued now, synchronously. */
  flushSync(): void;
  /** Flushes, then closes the destination. */
  close(): Promise<void>;
}

/**
 * Lines to a file descriptor that may be a pipe (stdout), through sonic-boom (asynchronous, never
 * blocks the event loop on a slow reader, retries a full pipe): handed over 64 KiB at a time, and
 * written as they come (a batch that arrives while one is being written waits behind it).
 */
export function lineWriter(dest: number): LineWriter {
  const sonic = pino.destination({ dest, sync: false, maxWrite: 2 * BATCH_BYTES });
  const batcher = new Batcher(sonic);
  const timer = setInterval(() => {
    batcher.drain();
    sonic.flush();
  }, 1000).unref();
  const flushSync = () => {
    batcher.drain();
    try {
      sonic.flushSync();
    } catch {
      // nothing buffered, or the destination is not open yet: nothing to flush
    }
  };
  return {
    write: (line) => batcher.write(line),
    flushSync,
    close: async () => {
      clearInterval(timer);
      flushSync();
    },
  };
}

/** Lines appended to a file, written in order, one batch at a time (the next waits for the one in flight). */
export interface FileLines {
  write(line: string): void;
  /** Resolves once every line so far is in the file. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function fileLines(path: string): FileLines {
  const fd = openSync(path, 'a');
  let parts: string[] = [];
  let size = 0;
  let chain: Promise<void> = Promise.resolve();
  const timer = setInterval(() => void flush(), 1000).unref();
  const writeAll = (data: Buffer): Promise<void> =>
    new Promise((resolve) => {
      const next = (offset: number): void =>
        write(fd, data, offset, data.length - offset, null, (err, n) => {
          // a failing disk loses records, never the gateway: the comparison already ran and is counted
          if (err || offset + n >= data.length) resolve();
          else next(offset + n);
        });
      next(0);
    });
  function flush(): Promise<void> {
    if (parts.length > 0) {
      const data = Buffer.from(parts.join(''));
      parts = [];
      size = 0;
      chain = chain.then(() => writeAll(data));
    }
    return chain;
  }
  return {
    write(line) {
      parts.push(line);
      size += line.length;
      if (size >= BATCH_BYTES) void flush();
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
      closeSync(fd);
    },
  };
}
