/**
 * Runs after the whole suite (npm test's second step): every log line and shadow record the suite
 * wrote must hold none of the keys, JWTs, merchant and checkout tokens, card numbers and CVCs it used.
 * Then prints the summary line of each reliability part.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { logFiles, readSummaries, writeSummary } from '../helpers/logs.js';
import { allSecrets } from '../helpers/secrets.js';

describe('secrets', () => {
  it('appear in no log line and no shadow record the suite produced', () => {
    const files = logFiles();
    expect(files.length, 'the suite wrote no logs: run npm test, not this file alone').toBeGreaterThan(5);
    const secrets = allSecrets();
    const hits: string[] = [];
    let lines = 0;
    let records = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const fileLines = text.split('\n').filter(Boolean);
      lines += fileLines.length;
      if (file.endsWith('.jsonl')) records += fileLines.length;
      for (const { label, value } of secrets) if (text.includes(value)) hits.push(`${label} in ${basename(file)}`);
    }
    expect(lines).toBeGreaterThan(100);
    expect(records).toBeGreaterThan(10);
    expect(hits).toEqual([]);
    writeSummary(
      '4-secrets',
      `secrets: ${secrets.length} secrets looked for in ${lines} lines (${records} shadow records) of ${files.length} files: 0 found`,
    );
  });
});

afterAll(() => {
  process.stdout.write(`\n${readSummaries().join('\n')}\n`);
});
