/** docs/decisions.md is the one table of decisions: every row has an id, a decision, a reason and what a client's bytes show, and every id a test cites exists. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('docs/decisions.md', () => {
  it('has one row per decision with its reason, and holds every decision id the tests cite', () => {
    const doc = readFileSync(join(ROOT, 'docs/decisions.md'), 'utf8');
    const rows = doc.split('\n').filter((l) => /^\| D-[A-Z]+-\d+ \|/.test(l));
    expect(rows.length).toBeGreaterThan(25);
    const ids = new Set<string>();
    for (const row of rows) {
      const cells = row.split(' | ');
      expect(cells.length, row.slice(0, 40)).toBeGreaterThanOrEqual(5);
      // the reason, then the client-bytes column (a client's bytes, or `-` where none touch the row)
      expect(cells.at(-2)!.trim().length, `${cells[0]}: a reason`).toBeGreaterThan(10);
      const bytes = cells
        .at(-1)!
        .replace(/\|\s*$/, '')
        .trim();
      expect(bytes === '-' || bytes.length > 10, `${cells[0]}: the client-bytes cell`).toBe(true);
      const id = /D-[A-Z]+-\d+/.exec(row)![0];
      expect(ids.has(id), `${id} twice`).toBe(false);
      ids.add(id);
    }
    const cited = new Set(
      files(join(ROOT, 'test')).flatMap((f) =>
        [...readFileSync(f, 'utf8').matchAll(/\bD-[A-Z]+-\d+\b/g)].map((m) => m[0]),
      ),
    );
    expect(cited.size).toBeGreaterThan(10);
    for (const id of cited) expect(ids.has(id), `${id} is cited by a test but not in docs/decisions.md`).toBe(true);
  });
});
