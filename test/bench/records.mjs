// npm run bench -- records: what a day of shadow records at 1,000 requests a second leaves on disk,
// and what it costs a gateway to start on them. The records of a day are written through the
// gateway's own rotating writer at the defaults (64 MiB a file, 3 old files kept) until it has
// rotated past its bound several times: what is on disk then is what it is after any longer run.
// Then a gateway starts on them, against one with no records, RECORDS_ROUNDS times each: the time
// to its listening line, and its resident memory once it listens. Exit 1 when the files exceed
// their bound. Figures: docs/benchmarks.md.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, median, rssMb, spawnNode } from './lib.mjs';

const { createRecorder } = await import('../../dist/src/shadow/recorder.js');

const MAX_BYTES = 64 * 1024 * 1024;
const KEEP = 3;
const RATE = 1_000;
const ROUNDS = Number(process.env.RECORDS_ROUNDS ?? 5);

/** A comparison record as a gateway writes one at 1,000 a second (about 400 bytes; one in ten with a noisy timestamp). */
function record(time, i) {
  return {
    type: 'comparison',
    time: new Date(time).toISOString(),
    route: `L${1 + (i % 7)}`,
    requestId: `${i.toString(16).padStart(8, '0')}-7c1e-4a53-9f1d-2b7a0c5e${(i % 65536).toString(16).padStart(4, '0')}`,
    mode: 'shadow',
    method: i % 3 === 0 ? 'write' : 'compare',
    primary: { status: 200, latencyMs: 11.4 },
    candidate: { status: 200, latencyMs: 13.9 },
    differences:
      i % 10 === 0
        ? [
            {
              path: 'updatedAt',
              primary: '2026-11-27T10:00:00.120Z',
              candidate: '2026-11-27T10:00:00.180Z',
              noise: 'timestamp',
            },
          ]
        : [],
    request: { method: 'GET', path: `/orders/ordr_${i.toString(36)}` },
    merchant: 'mcht_solo',
    client: 'wordpress',
    instance: 'paybridge-7d9f8b6c5-x2x9q:1',
  };
}

const dir = mkdtempSync(join(tmpdir(), 'paybridge-records-'));
const file = join(dir, 'shadow.jsonl');
try {
  const recorder = createRecorder({ file: { file, maxBytes: MAX_BYTES, keep: KEEP } });
  // enough for the writer to fill and rotate its set one and a half times: the state after a day
  const count = Math.ceil((1.5 * (KEEP + 1) * MAX_BYTES) / 400);
  const end = Date.now();
  const written = performance.now();
  for (let i = 0; i < count; i++) recorder.write(record(end - (count - i) * (1_000 / RATE), i));
  await recorder.close();
  const files = [file, ...Array.from({ length: KEEP + 1 }, (_, i) => `${file}.${i + 1}`)].filter((f) => existsSync(f));
  const onDisk = files.reduce((sum, f) => sum + statSync(f).size, 0);
  console.log(
    `${count} records (${(count / RATE / 60).toFixed(1)} minutes at ${RATE}/s) written in ${((performance.now() - written) / 1000).toFixed(1)} s; on disk ${files.length} files, ${(onDisk / 2 ** 20).toFixed(1)} MiB (bound ${((KEEP + 1) * MAX_BYTES) / 2 ** 20} MiB)`,
  );

  const start = async (args) => {
    const t0 = performance.now();
    const gw = await spawnNode(
      [BIN, 'serve', '--port', '0', '--log-format', 'json', ...args],
      /paybridge gateway listening on/,
    );
    const ms = performance.now() - t0;
    const rss = rssMb(gw.pid);
    await gw.stop();
    return { ms, rss };
  };
  const rows = { 'no records': [], 'a day of records': [] };
  for (let round = 0; round < ROUNDS; round++) {
    rows['no records'].push(await start([]));
    rows['a day of records'].push(await start(['--shadow-log', file]));
  }
  for (const [name, list] of Object.entries(rows))
    console.log(
      `${name.padEnd(18)} start ${median(list.map((r) => r.ms)).toFixed(0)} ms (median of ${ROUNDS}), RSS ${median(list.map((r) => r.rss)).toFixed(0)} MB`,
    );
  if (onDisk > (KEEP + 1) * MAX_BYTES) {
    console.error('the record files exceed their bound');
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
