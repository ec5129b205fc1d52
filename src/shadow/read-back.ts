/**
 * What a restarted gateway reads back of its own shadow records, so its live report gives the verdicts
 * it gave before: the records of the verdict window (`shadow.readyWindow`, what Prometheus counts),
 * newest files first and at most a byte budget of them, whatever a day of traffic left on disk. Lines
 * older than the window are passed over by their time alone, never parsed.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { rotatedFiles } from '../observability/rotating-lines.js';
import { parseRecordLine, type ShadowRecord } from './ledger.js';

/** The most a restart reads of the record files: their newest bytes (about 150,000 records). */
export const READ_BACK_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;

/** A record's time, from the start of its line (records are written with `type` and `time` first). */
const TIME = /"time":"([^"]{1,40})"/;

export interface ReadBackOptions {
  file: string;
  /** Rotated files kept (file.1 ... file.keep). */
  keep: number;
  /** Records older than this (ISO time) are not read back. */
  since: string;
  /** Bytes read at most, the newest. */
  budgetBytes?: number;
}

export interface ReadBack {
  /** Records read back (in the window, within the budget). */
  records: number;
  /** Lines passed over: older than the window, or not records (a line cut by a crash). */
  passedOver: number;
  /** Bytes read, and the files they were read from. */
  bytes: number;
  files: number;
  /** Whether the budget stopped the reading before the window did. */
  budgetReached: boolean;
}

/** Each whole line of `file` from `offset` on (a line the offset cuts is skipped), read a chunk at a time. */
function forEachLine(file: string, offset: number, visit: (line: string) => void): number {
  const fd = openSync(file, 'r');
  let read = 0;
  try {
    const size = fstatSync(fd).size;
    let position = offset;
    let carry: Buffer = Buffer.alloc(0);
    // an offset inside the file starts mid-line unless the byte before it ends one
    let skipFirst = offset > 0;
    if (skipFirst) {
      const before = Buffer.alloc(1);
      readSync(fd, before, 0, 1, offset - 1);
      skipFirst = before[0] !== 10;
    }
    const chunk = Buffer.alloc(CHUNK_BYTES);
    while (position < size) {
      const n = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, size - position), position);
      if (n <= 0) break;
      position += n;
      read += n;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = data.indexOf(10, start); nl >= 0; nl = data.indexOf(10, start)) {
        if (skipFirst) skipFirst = false;
        else visit(data.toString('utf8', start, nl));
        start = nl + 1;
      }
      carry = Buffer.from(data.subarray(start));
    }
    // a last line without its newline: a write cut short, which parses as no record
    if (carry.length > 0 && !skipFirst) visit(carry.toString('utf8'));
  } finally {
    closeSync(fd);
  }
  return read;
}

/** Reads back the records of the window, oldest first, into `ingest`. */
export function readBack(options: ReadBackOptions, ingest: (record: ShadowRecord) => void): ReadBack {
  const budget = options.budgetBytes ?? READ_BACK_BYTES;
  const files = rotatedFiles(options);
  // where the newest `budget` bytes begin: in which file (newest first) and at what offset
  const sizes = files.map((f) => {
    const fd = openSync(f, 'r');
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  });
  let first = files.length - 1;
  let offset = 0;
  let left = budget;
  let budgetReached = false;
  for (let i = 0; i < files.length; i++) {
    if (sizes[i]! >= left) {
      first = i;
      offset = sizes[i]! - left;
      budgetReached = offset > 0 || i < files.length - 1;
      break;
    }
    left -= sizes[i]!;
  }
  const result: ReadBack = { records: 0, passedOver: 0, bytes: 0, files: 0, budgetReached };
  for (let i = first; i >= 0; i--) {
    result.files++;
    result.bytes += forEachLine(files[i]!, i === first ? offset : 0, (line) => {
      const time = TIME.exec(line.slice(0, 120))?.[1];
      const record = time !== undefined && time >= options.since ? parseRecordLine(line).record : undefined;
      if (record === undefined) {
        if (line.trim() !== '') result.passedOver++;
        return;
      }
      result.records++;
      ingest(record);
    });
  }
  return result;
}

/** A Prometheus duration (`1h`, `30m`, `2d`) in milliseconds. */
export function durationMs(duration: string): number {
  const m = /^(\d+)([smhdw])$/.exec(duration);
  if (!m) throw new Error(`not a duration: ${duration}`);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as 's' | 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}
