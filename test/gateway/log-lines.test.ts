// The log line writer holds lines until they fill a 64 KiB write or a second passes; none is lost or reordered.
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { gatewayLogging, tenths } from '../../src/gateway/logging.js';
import { isoTime } from '../../src/observability/clock.js';
import { lineWriter } from '../../src/observability/lines.js';

const line = (i: number) => `{"n":${i},"msg":"${'x'.repeat(200)}"}\n`;
const read = (file: string) => readFileSync(file, 'utf8');
const total = (n: number) => Array.from({ length: n }, (_, i) => line(i).length).reduce((a, b) => a + b, 0);
const waitFor = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !check();) await new Promise((r) => setTimeout(r, 20));
};

describe('log lines', () => {
  it('writes a full batch at once, a short one within a second, and every line in order on close', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'paybridge-lines-')), 'out.log');
    const writer = lineWriter(openSync(file, 'a'));

    // 400 lines of about 220 bytes: past one 64 KiB batch, so a write starts before any timer
    for (let i = 0; i < 400; i++) writer.write(line(i));
    await waitFor(() => read(file).length > 0, 500);
    const early = read(file);
    expect(early.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(early.length).toBeLessThan(total(400));
    expect(early.split('\n')[0]).toBe(line(0).trimEnd());

    // the rest (under a batch) goes out with the writer's timer
    await waitFor(() => read(file).length === total(400), 2500);
    expect(read(file).length).toBe(total(400));

    for (let i = 400; i < 450; i++) writer.write(line(i));
    await writer.close();
    const lines = read(file).trimEnd().split('\n');
    expect(lines).toHaveLength(450);
    expect(lines.map((l) => (JSON.parse(l) as { n: number }).n)).toEqual(Array.from({ length: 450 }, (_, i) => i));
  });
});

describe('access lines', () => {
  const collect = () => {
    const chunks: string[] = [];
    const stream = new Writable({ write: (chunk, _enc, done) => (chunks.push(String(chunk)), done()) });
    return {
      stream,
      records: () =>
        chunks
          .join('')
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as Record<string, unknown>),
    };
  };

  it('writes the milliseconds to a tenth as JSON would', () => {
    for (let t = 0; t <= 200_000; t += 7) expect(tenths(t / 10)).toBe(String(Math.round(t) / 10));
    for (const ms of [0, 0.04, 0.05, 0.96, 1, 12.3, 999.95, 30_000])
      expect(tenths(Math.round(ms * 10) / 10)).toBe(String(Math.round(ms * 10) / 10));
  });

  it('writes record times exactly as Date#toISOString does, across seconds and out of order', () => {
    const base = Date.UTC(2026, 10, 23, 23, 59, 58, 0);
    // milliseconds 0-9, 10-99 and 100-999, a second and a day boundary, then back in time
    const times = [
      base,
      base + 7,
      base + 42,
      base + 999,
      base + 1000,
      base + 1999,
      base + 2000,
      base + 2001,
      base - 1,
      base + 5,
      0,
      -1,
      Date.now(),
    ];
    for (const t of times) expect(isoTime(t)).toBe(new Date(t).toISOString());
    for (let t = base; t < base + 3000; t += 13) expect(isoTime(t)).toBe(new Date(t).toISOString());
    // beyond year 9999 toISOString writes six-digit years: its text is used whole
    const far = Date.UTC(12000, 0, 1, 0, 0, 0, 5);
    expect(isoTime(far)).toBe(new Date(far).toISOString());
    expect(isoTime(base + 3)).toBe(new Date(base + 3).toISOString());
  });

  it('is one JSON object per request with its route, mode, method, url (secrets masked), status and time', () => {
    const out = collect();
    const logging = gatewayLogging('info', out.stream);
    const id = '0b7c1d2e-1111-4222-8333-444455556666';
    logging.access({
      requestId: id,
      clientRequestId: false,
      route: 'L6',
      mode: 'current',
      method: 'GET',
      url: '/transactions/tran_1',
      status: 200,
      ms: 1.2,
    });
    logging.access({
      requestId: 'client-id.1',
      clientRequestId: true,
      route: 'current',
      mode: 'passthrough',
      method: 'POST',
      url: '/orders?token=chk_secret"x',
      status: 502,
      ms: 30,
      traceId: 'a'.repeat(32),
    });
    logging.access({
      requestId: id,
      clientRequestId: false,
      route: 'L6',
      mode: 'shadow',
      method: 'GET',
      url: '/transactions/tran_2',
      status: 404,
      ms: 0,
    });
    const [a, b, c] = out.records();
    expect(a).toMatchObject({
      level: 30,
      pid: process.pid,
      requestId: id,
      route: 'L6',
      mode: 'current',
      method: 'GET',
      url: '/transactions/tran_1',
      status: 200,
      ms: 1.2,
      msg: 'request',
    });
    expect(a!.traceId).toBeUndefined();
    expect(b).toMatchObject({
      requestId: 'client-id.1',
      route: 'current',
      mode: 'passthrough',
      method: 'POST',
      status: 502,
      ms: 30,
      traceId: 'a'.repeat(32),
    });
    // the quote survives, escaped: the line is still one JSON object
    expect(b!.url).toBe('/orders?token=[redacted]"x');
    expect(c).toMatchObject({ route: 'L6', mode: 'shadow', url: '/transactions/tran_2', status: 404, ms: 0 });
  });
});
