/** Where comparison records go: one JSON line each, to a file (appended, rotated past its bound) or the log stream. */
import { stringifyJson } from '../contract/json.js';
import { rotatingLines, type RotationOptions } from '../observability/rotating-lines.js';
import type { ShadowRecord } from './ledger.js';

export interface Recorder {
  write(record: ShadowRecord): void;
  /** Resolves once every record so far is in the file. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function createRecorder(options: {
  file?: RotationOptions;
  log?: (record: ShadowRecord) => void;
  onError?: (err: Error) => void;
}): Recorder {
  // records go out in large writes: a write per record cost 40-90 us of CPU, more than the comparison
  const file = options.file ? rotatingLines(options.file, options.onError) : undefined;
  return {
    write(record) {
      // exact numbers (metadata a double cannot hold) written as the numbers they are
      if (file) file.write(`${stringifyJson(record)}\n`);
      else options.log?.(record);
    },
    flush: async () => file?.flush(),
    close: async () => file?.close(),
  };
}
