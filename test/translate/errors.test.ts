/** The error table (src/errors.ts) and README's list of error codes say the same: every code, its status. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/errors.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('error codes', () => {
  it("are each documented in README's Errors table with the status the table gives", () => {
    const section = README.slice(README.indexOf('## Errors'));
    const rows = [...section.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| (.+) \|$/gm)].map(
      (m) => [m[1]!, Number(m[2])] as const,
    );
    const documented = Object.fromEntries(rows);
    expect(rows.length).toBe(Object.keys(documented).length);
    expect(documented).toEqual(Object.fromEntries(Object.entries(ERRORS).map(([code, { status }]) => [code, status])));
  });
});
