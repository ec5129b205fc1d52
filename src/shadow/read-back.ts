/**
 * What a restarted gateway reads back of its own shadow records, so its live report gives the verdicts
 * it gave before, whatever a day of traffic left on disk. The files are read from their newest line
 * back, and a line is parsed only when a verdict needs it: records of the verdict window
 * (`shadow.readyWindow`, what Prometheus counts) and, per route, no more comparisons than the ledger
 * keeps (its newest); every line's kind, time and route are told from its first bytes. The reading
 * stops at the window's start or at a byte budget, the default bound of the record files.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { rotatedFiles } from '../observability/rotating-lines.js';
import { parseRecordLine, type ShadowRecord } from './ledger.js';

/**
 * The most a restart reads of the record files, the newest bytes (one file at the default bound; at
 * 1,000 comparisons a second, the last few minutes, in which every busy route has what the ledger keeps).
 */
const READ_BACK_BYTES = 64 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 10;

/**
 * A record's kind, time and route, read from the first bytes of its line (records are written with
 * these keys first) by string searches: a day of lines is looked at, few are parsed.
 */
function headOf(line: Buffer): { type: string; time: string; route: string } | undefined {
  const head = line.toString('latin1', 0, Math.min(line.length, 120));
  if (!head.startsWith('{"type":"')) return undefined;
  const time = head.indexOf('","time":"', 9);
  const route = time < 0 ? -1 : head.indexOf('","route":"', time + 10);
  const end = route < 0 ? -1 : head.indexOf('"', route + 11);
  if (end < 0) return undefined;
  return { type: head.slice(9, time), time: head.slice(time + 10, route), route: head.slice(route + 11, end) };
}

export interface ReadBackOptions {
  file: string;
  /** Rotated files kept (file.1 ... file.keep). */
  keep: number;
  /** Records older than this (ISO time) are not read back. */
  since: string;
  /** Comparisons (and skipped exchanges) read back per route at most, the newest: what the ledger keeps. */
  perRoute: number;
  /** Bytes read at most, the newest. */
  budgetBytes?: number;
}

export interface ReadBack {
  /** Records read back (parsed and handed on). */
  records: number;
  /** Lines passed over unparsed: a route's older comparisons past what the ledger keeps, lines that are no record. */
  passedOver: number;
  /** Bytes read, and the files they were read from. */
  bytes: number;
  files: number;
  /** What stopped the reading: the start of the files, the window's start, or the budget. */
  stoppedBy: 'start' | 'window' | 'budget';
}

/**
 * Each line of `file`, newest first, handed to `visit` until it answers false: the file read a chunk
 * at a time from its end. Returns whether `visit` stopped it.
 */
function eachLineBackward(file: string, visit: (line: Buffer) => boolean): boolean {
  const fd = openSync(file, 'r');
  try {
    let position = fstatSync(fd).size;
    // one buffer for the whole file: a chunk read in front of the line it cut (kept from the last read)
    let work = Buffer.allocUnsafe(2 * CHUNK_BYTES);
    let rest = 0;
    while (position > 0) {
      const n = Math.min(CHUNK_BYTES, position);
      position -= n;
      if (n + rest > work.length) {
        const grown = Buffer.allocUnsafe(2 * (n + rest));
        work.copy(grown, n, 0, rest);
        work = grown;
      } else work.copyWithin(n, 0, rest);
      readSync(fd, work, 0, n, position);
      let end = n + rest;
      while (end > 0) {
        const nl = work.lastIndexOf(NEWLINE, end - 1);
        if (nl < 0) break;
        if (nl + 1 < end && !visit(work.subarray(nl + 1, end))) return true;
        end = nl;
      }
      rest = end;
    }
    return rest > 0 && !visit(work.subarray(0, rest));
  } finally {
    closeSync(fd);
  }
}

/** Reads back what the verdicts need of the record files (newest first), handing it to `ingest` oldest first. */
export function readBack(options: ReadBackOptions, ingest: (record: ShadowRecord) => void): ReadBack {
  const budget = options.budgetBytes ?? READ_BACK_BYTES;
  const result: ReadBack = { records: 0, passedOver: 0, bytes: 0, files: 0, stoppedBy: 'start' };
  const chosen: Buffer[] = [];
  const perRoute = new Map<string, number>();
  for (const file of rotatedFiles(options)) {
    result.files++;
    const stopped = eachLineBackward(file, (line) => {
      result.bytes += line.length + 1;
      const head = headOf(line);
      if (!head) {
        // a line cut short by a crash, or no record at all
        result.passedOver++;
      } else {
        const { type, time, route } = head;
        // ISO times order as their text does
        if (time < options.since) {
          result.stoppedBy = 'window';
          return false;
        }
        // comparisons and skipped exchanges, each up to what the ledger keeps per route; learned noise and served counts all
        const counted = type === 'comparison' || type === 'skipped' ? `${type} ${route}` : undefined;
        const seen = counted === undefined ? 0 : (perRoute.get(counted) ?? 0);
        if (seen < options.perRoute) {
          if (counted !== undefined) perRoute.set(counted, seen + 1);
          chosen.push(Buffer.from(line));
        } else result.passedOver++;
      }
      if (result.bytes < budget) return true;
      result.stoppedBy = 'budget';
      return false;
    });
    if (stopped) break;
  }
  for (let i = chosen.length - 1; i >= 0; i--) {
    const { record } = parseRecordLine(chosen[i]!.toString('utf8'));
    if (!record) {
      result.passedOver++;
      continue;
    }
    result.records++;
    ingest(record);
  }
  return result;
}

export { durationMs } from '../observability/rules.js';
