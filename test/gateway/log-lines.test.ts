// The log line writer holds lines until they fill a 64 KiB write or a second passes; none is lost or reordered.
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineWriter } from '../../src/observability/lines.js';

const line = (i: number) => `{"n":${i},"msg":"${'x'.repeat(200)}"}\n`;
const read = (file: string) => readFileSync(file, 'utf8');
const total = (n: number) => Array.from({ length: n }, (_, i) => line(i).length).reduce((a, b) => a + b, 0);
const waitFor = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !check(); ) await new Promise((r) => setTimeout(r, 20));
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
