/**
 * The shadow records are bounded like the corpus: the record file is rotated past `maxBytes`, `keep`
 * old files kept, so a day of traffic holds (keep + 1) x maxBytes on disk whatever its rate; and a
 * restarted gateway reads back only the records of the verdict window (shadow.readyWindow), the newest
 * bytes first and a budget at most, so a day's files do not slow its start (figures of the full-size
 * case: `npm run bench -- records`, docs/benchmarks.md).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ComparisonRecord, ShadowRecord } from '../../src/shadow/ledger.js';
import { readBack } from '../../src/shadow/read-back.js';
import { createRecorder } from '../../src/shadow/recorder.js';
import { logSink, startGateway } from '../helpers/gateway.js';
import { client } from '../helpers/http.js';
import { logPath } from '../helpers/logs.js';
import { OPERATOR_TOKENS } from '../helpers/secrets.js';

const OPERATOR = OPERATOR_TOKENS.replay;

/** A comparison record as a gateway writes one (about 400 bytes), at `time`. */
function comparison(route: string, time: number, i: number): ComparisonRecord {
  return {
    type: 'comparison',
    time: new Date(time).toISOString(),
    route,
    requestId: `req-${i.toString(36).padStart(8, '0')}`,
    mode: 'shadow',
    method: 'compare',
    primary: { status: 200, latencyMs: 12.3 },
    candidate: { status: 200, latencyMs: 14.1 },
    differences:
      i % 10 === 0
        ? [
            {
              path: 'updatedAt',
              primary: '2026-11-27T10:00:00Z',
              candidate: '2026-11-27T10:00:01Z',
              noise: 'timestamp',
            },
          ]
        : [],
    request: { method: 'GET', path: `/orders/ordr_${i.toString(36)}`, body: undefined },
    merchant: 'mcht_solo',
    client: 'wordpress',
    instance: 'replica-a',
  };
}
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

describe('the record file', () => {
  it('is rotated past maxBytes with keep old files: what is on disk stays within (keep + 1) x maxBytes, and no record is split', async () => {
    const file = logPath('records-rotated', 'jsonl');
    const maxBytes = 256 * 1024;
    const recorder = createRecorder({ file: { file, maxBytes, keep: 2 } });
    // 20,000 records of a busy second each (1 ms apart): 30 times what the bound holds
    const start = Date.now() - 20_000;
    for (let i = 0; i < 20_000; i++) recorder.write(comparison('L3', start + i, i));
    await recorder.close();
    const files = [file, `${file}.1`, `${file}.2`];
    expect(existsSync(`${file}.3`)).toBe(false);
    const sizes = files.map((f) => statSync(f).size);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(maxBytes);
    expect(sizes.reduce((a, b) => a + b)).toBeLessThanOrEqual(3 * maxBytes);
    // every line a whole record, the newest last in the current file, the files in order
    const kept = [...files].reverse().flatMap((f) => lines(f).map((l) => JSON.parse(l) as ComparisonRecord));
    expect(kept.at(-1)!.requestId).toBe(`req-${(19_999).toString(36).padStart(8, '0')}`);
    expect(kept.map((r) => r.time)).toEqual([...kept.map((r) => r.time)].sort());
  });
});

describe('what a restart reads back', () => {
  it('at 1,000 records a second: per route the newest comparisons the ledger keeps, and the newest budget of bytes at most, across rotated files', async () => {
    const file = logPath('records-busy', 'jsonl');
    // files larger than the 1 MiB the reading takes at a time: lines cut by a chunk are joined
    const recorder = createRecorder({ file: { file, maxBytes: 2 * 1024 * 1024, keep: 3 } });
    const now = Date.now();
    for (let i = 0; i < 12_000; i++) recorder.write(comparison(`L${1 + (i % 5)}`, now - 12_000 + i, i));
    await recorder.close();
    const since = new Date(now - 3_600_000).toISOString();
    // the lines of the files taken as one, newest first
    const newestFirst = [file, `${file}.1`, `${file}.2`, `${file}.3`]
      .filter((f) => existsSync(f))
      .flatMap((f) => lines(f).reverse());

    // the budget (all of it is within the hour): the newest lines until their bytes reach it
    const budgetBytes = 2.5 * 1024 * 1024;
    let bytes = 0;
    const expected = newestFirst.findIndex((l) => (bytes += Buffer.byteLength(l) + 1) >= budgetBytes) + 1;
    const got: ShadowRecord[] = [];
    const read = readBack({ file, keep: 3, since, perRoute: Number.POSITIVE_INFINITY, budgetBytes }, (r) =>
      got.push(r),
    );
    expect(read).toMatchObject({ stoppedBy: 'budget', records: expected, passedOver: 0 });
    expect(read.files).toBeGreaterThanOrEqual(2);
    expect(got.map((r) => (r as ComparisonRecord).requestId)).toEqual(
      newestFirst
        .slice(0, expected)
        .reverse()
        .map((l) => JSON.parse(l).requestId),
    );

    // what the ledger keeps per route: its newest comparisons, the older ones passed over unparsed
    const capped: ShadowRecord[] = [];
    const perRoute = readBack({ file, keep: 3, since, perRoute: 100 }, (r) => capped.push(r));
    expect(perRoute).toMatchObject({ stoppedBy: 'start', records: 500, passedOver: newestFirst.length - 500 });
    expect(capped.map((r) => (r as ComparisonRecord).requestId)).toEqual(
      newestFirst
        .slice(0, 500)
        .reverse()
        .map((l) => JSON.parse(l).requestId),
    );
  });

  it('over a day of records, the last readyWindow (1h) only: the restarted gateway reports what it compared in the window, older records never read', async () => {
    const file = logPath('records-day', 'jsonl');
    const now = Date.now();
    // a quiet day of L3 (one comparison a minute for 23 hours), then the last hour busier, and a line a crash cut
    const day = Array.from({ length: 23 * 60 }, (_, i) => comparison('L3', now - 24 * 3_600_000 + i * 60_000, i));
    const hour = Array.from({ length: 600 }, (_, i) => comparison('L3', now - 3_500_000 + i * 5_000, 100_000 + i));
    writeFileSync(
      file,
      `${[...day, ...hour].map((r) => JSON.stringify(r)).join('\n')}\n{"type":"comparison","time":"${new Date(now).toISOString()}","route":"L3","req`,
    );
    const logs = logSink();
    const gw = await startGateway(
      {
        upstreams: { sandbox: { current: 'http://127.0.0.1:9', legacy: 'http://127.0.0.1:9' } },
        shadow: { log: file, readyWindow: '1h', readyAfter: 50 },
        operatorToken: OPERATOR,
      },
      logs.stream,
    );
    try {
      const report = (await client(gw.url, { authorization: `Bearer ${OPERATOR}` }).get('/_paybridge/report')).body;
      const l3 = report.routes.find((r: { route: string }) => r.route === 'L3');
      expect(l3.compared).toBe(600);
      expect(l3.state).toBe('ready');
      gw.gateway.flushLogs();
      // the window's start stopped the reading: the day before it was never read, the line a crash cut passed over
      expect(logs.records().find((r) => r.msg === 'shadow records read back')).toMatchObject({
        records: 600,
        passedOver: 1,
        files: 1,
        stoppedBy: 'window',
      });
    } finally {
      await gw.close();
    }
  });
});
