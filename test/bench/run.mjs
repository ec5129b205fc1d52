// npm run bench [-- name ...]: runs the named benchmarks of test/bench (default: all), one after another
// (profile.mjs, instructions.mjs, ab.mjs and work.mjs are tools, run by hand; callgrind.mjs is a module of instructions.mjs).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const all = readdirSync(dir)
  .filter(
    (f) =>
      f.endsWith('.mjs') &&
      ![
        'lib.mjs',
        'run.mjs',
        'orders.mjs',
        'profile.mjs',
        'instructions.mjs',
        'callgrind.mjs',
        'ab.mjs',
        'work.mjs',
      ].includes(f),
  )
  .map((f) => f.slice(0, -4));
const chosen = process.argv.length > 2 ? process.argv.slice(2) : all;
let failed = false;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`unknown benchmark ${name}; known: ${all.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(process.execPath, [`${dir}${name}.mjs`], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
