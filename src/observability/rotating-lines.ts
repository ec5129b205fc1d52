/**
 * JSON lines appended to a file bounded in bytes: past `maxBytes` the file is renamed `file.1` (the
 * older ones shifted to `.2` ... `.keep`, the oldest dropped) and a new one begun, so what is on disk
 * never exceeds (keep + 1) x maxBytes. The shadow records and the replay corpus are written so.
 */
import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { fileLines, type FileLines } from './lines.js';

export interface RotationOptions {
  file: string;
  /** Bytes of the current file before it is rotated. */
  maxBytes: number;
  /** Rotated files kept besides the current one. */
  keep: number;
}

/** The files of a rotated set, newest first: `file`, `file.1`, ... `file.keep` (those that exist). */
export function rotatedFiles({ file, keep }: Pick<RotationOptions, 'file' | 'keep'>): string[] {
  return [file, ...Array.from({ length: keep }, (_, i) => `${file}.${i + 1}`)].filter((f) => existsSync(f));
}

/**
 * A writer of whole lines to a rotated file set. A line is never split across two files; a failure to
 * rotate (a rename refused) is handed to `onError` and writing goes on in the current file: a disk
 * that misbehaves loses bounds or records, never the gateway's answers.
 */
export function rotatingLines(options: RotationOptions, onError: (err: Error) => void = () => {}): FileLines {
  const { file, maxBytes, keep } = options;
  // opened now: a folder that cannot be written stops start-up, not the first comparison
  let lines: FileLines = fileLines(file);
  let bytes = existsSync(file) ? statSync(file).size : 0;
  const closing: Promise<void>[] = [];

  function rotate(): void {
    // the old descriptor follows its file through the renames: lines still queued on it land in file.1
    const closed = lines.close();
    closing.push(closed);
    void closed.then(() => closing.splice(closing.indexOf(closed), 1));
    try {
      if (keep === 0) rmSync(file, { force: true });
      for (let i = keep; i >= 1; i--) {
        const from = i === 1 ? file : `${file}.${i - 1}`;
        if (existsSync(from)) renameSync(from, `${file}.${i}`);
      }
    } catch (err) {
      onError(err as Error);
    }
    lines = fileLines(file);
    bytes = existsSync(file) ? statSync(file).size : 0;
  }

  return {
    write(line) {
      const size = Buffer.byteLength(line);
      if (bytes > 0 && bytes + size > maxBytes) {
        try {
          rotate();
        } catch (err) {
          onError(err as Error);
        }
      }
      lines.write(line);
      bytes += size;
    },
    flush: async () => {
      await Promise.all(closing);
      await lines.flush();
    },
    close: async () => {
      await Promise.all(closing);
      await lines.close();
    },
  };
}
