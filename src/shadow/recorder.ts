/** Where comparison records go: one JSON line each, to a file (appended) and/or the log stream. */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { ShadowRecord } from './ledger.js';

export interface Recorder {
  write(record: ShadowRecord): void;
  close(): Promise<void>;
}

export function createRecorder(options: { file?: string; log?: (record: ShadowRecord) => void }): Recorder {
  let stream: WriteStream | undefined;
  if (options.file) stream = createWriteStream(options.file, { flags: 'a' });
  return {
    write(record) {
      if (stream) stream.write(`${JSON.stringify(record)}\n`);
      else options.log?.(record);
    },
    close: () =>
      new Promise((resolve) => {
        if (!stream) return resolve();
        stream.end(resolve);
      }),
  };
}
