/**
 * The house's arrows point down (design.md): translate/, observability/ and shadow/ never import
 * gateway/; the sandbox's legacy face is written natively, never from translate/ or mappings/.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../src/', import.meta.url).pathname;
const importsOf = (dir: string) =>
  readdirSync(join(SRC, dir)).flatMap((file) =>
    [...readFileSync(join(SRC, dir, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => `${dir}/${file} -> ${m[1]}`),
  );

describe('layers', () => {
  it('shadow/, translate/ and observability/ import nothing from gateway/; translate/ nothing from shadow/ or sandbox/', () => {
    const upward = [...importsOf('shadow'), ...importsOf('translate'), ...importsOf('observability')].filter((i) => /-> \.\.\/gateway\//.test(i));
    expect(upward).toEqual([]);
    expect(importsOf('translate').filter((i) => /-> \.\.\/(shadow|sandbox)\//.test(i))).toEqual([]);
    expect(importsOf('observability').filter((i) => /-> \.\.\/(shadow|sandbox|translate)\//.test(i))).toEqual([]);
  });

  it("the sandbox's legacy face imports nothing from translate/ or mappings/: comparing it with translated answers tests something", () => {
    expect(importsOf('sandbox/legacy').filter((i) => /-> (\.\.\/)+(src\/)?(translate|mappings)\//.test(i))).toEqual([]);
  });
});
