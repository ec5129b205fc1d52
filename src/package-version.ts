import { readFileSync } from 'node:fs';

/** This package's version (from package.json, wherever the code runs from: src/ or dist/src/). */
export function packageVersion(): string {
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'paybridge' && pkg.version) return pkg.version;
    } catch {
      // not here: one level further up
    }
  }
  return '0.0.0';
}
