/**
 * README and docs/ in step with what they describe: a route range they state (`L1-L32`) is the
 * registry's (mappings/), the legacy error shape they give is the one src/errors.ts answers with, and
 * every link between them reaches a file and a heading that exist. A route added to mappings/, a field
 * added to the error, a heading renamed: the docs follow or this fails.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { legacyErrorBody } from '../../src/errors.js';
import { LEGACY_ROUTES } from '../../src/translate/legacy-routes.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const text = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');
/** The prose without its fenced code blocks, lines joined: a phrase wrapped over two lines is one phrase. */
const prose = (doc: string) =>
  text(doc)
    .replace(/```[\s\S]*?```/g, '')
    .replace(/\s+/g, ' ');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens (a repeated one numbered). */
function anchors(doc: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of text(doc)
    .replace(/```[\s\S]*?```/g, '')
    .matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

describe('README and docs/', () => {
  it('state no route range but the registry’s: L1 to its last route, no gap', () => {
    const ids = LEGACY_ROUTES.map((r) => r.id);
    expect(ids).toEqual(ids.map((_, i) => `L${i + 1}`));
    const wrong: string[] = [];
    for (const doc of DOCS)
      for (const [range, last] of prose(doc).matchAll(/\bL1 ?(?:-|–|to) ?L(\d+)\b/g))
        if (`L${last}` !== ids.at(-1)) wrong.push(`${doc}: ${range} (the registry: L1-${ids.at(-1)})`);
    expect(wrong).toEqual([]);
  });

  it('give the legacy error with the fields src/errors.ts answers, no more and no fewer', () => {
    const fields = Object.keys(legacyErrorBody('invalid_request', 'detail', 'tracer')).sort();
    const shapes: string[] = [];
    for (const doc of DOCS)
      for (const [shape] of prose(doc).matchAll(/\{statusCode, [^}]*\}/g)) shapes.push(`${doc}: ${shape}`);
    expect(shapes.some((s) => s.startsWith('README.md: '))).toBe(true);
    for (const shape of shapes)
      expect(
        shape
          .slice(shape.indexOf('{') + 1, -1)
          .split(/, ?/)
          .sort(),
        shape,
      ).toEqual(fields);
  });

  it('link to files and headings that exist', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      const body = text(doc).replace(/```[\s\S]*?```/g, '');
      for (const [, target] of body.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, doc) : join(dirname(join(ROOT, doc)), path);
        // ../shared (the specs) sits beside the clone, outside this repository: its own tests' business
        if (relative(ROOT, file).startsWith('..')) continue;
        if (!existsSync(file)) broken.push(`${doc}: ${target} (no ${relative(ROOT, file)})`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchors(relative(ROOT, file)).has(anchor))
          broken.push(`${doc}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
