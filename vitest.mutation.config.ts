import { defineConfig } from 'vitest/config';

/**
 * The in-process tests StrykerJS runs against each mutant (npm run mutation), by the part of the code
 * they reach: a test that spawns the CLI, packs the package or runs the built dist/ never meets a mutant
 * and is left out. MUTATION_TESTS names one part for a scoped run (docs/testing.md); unset, all of them.
 */
const TRANSLATE = [
  'test/translate/**/*.test.ts',
  'test/shadow/diff.test.ts',
  'test/shadow/compare.test.ts',
  'test/shadow/noise.test.ts',
];
/** src/gateway/upstream.ts: its queue and deadline, upstream faults (the write's own among them), one deadline per request. */
const UPSTREAM = [
  'test/gateway/upstream.test.ts',
  'test/reliability/upstream-queue.test.ts',
  'test/gateway/current-caller.test.ts',
  'test/gateway/failures.test.ts',
  'test/reliability/faults.test.ts',
  'test/reliability/write-faults.test.ts',
  'test/gateway/deadline.test.ts',
];
/** src/gateway/routes/*.ts: the same, and passthrough answers, forwarding, traces, the shadow and canary exchanges (over the sandbox and over the independent legacy upstream), environments, the replay corpus. */
const ROUTES = [
  ...UPSTREAM,
  'test/gateway/passthrough.test.ts',
  'test/gateway/forwarding.test.ts',
  'test/gateway/http-edges.test.ts',
  'test/gateway/tracing.test.ts',
  'test/gateway/canary-exchange.test.ts',
  'test/gateway/shadow-exchange.test.ts',
  'test/reliability/environments.test.ts',
  'test/shadow/compared-side.test.ts',
  'test/shadow/deviations.test.ts',
  'test/shadow/corpus.test.ts',
];
/** src/shadow/writes.ts: shadow runs over an independent legacy upstream and over the sandbox, every route's compared side, send mode. */
const SHADOW = [
  'test/shadow/deviations.test.ts',
  'test/shadow/evidence.test.ts',
  'test/gateway/shadow-exchange.test.ts',
  'test/shadow/compared-side.test.ts',
  'test/shadow/replay.test.ts',
  'test/shadow/truth.test.ts',
  'test/shadow/compare.test.ts',
];
/** mappings/: the translator's tests, and the shadow runs that reach each mapping's write check. */
const MAPPINGS = [...TRANSLATE, 'test/shadow/deviations.test.ts', 'test/shadow/compared-side.test.ts'];

const PARTS: Record<string, string[]> = {
  translate: TRANSLATE,
  upstream: UPSTREAM,
  routes: ROUTES,
  shadow: SHADOW,
  mappings: MAPPINGS,
};
const part = process.env.MUTATION_TESTS;
if (part !== undefined && !(part in PARTS))
  throw new Error(`MUTATION_TESTS: expected one of ${Object.keys(PARTS).join(', ')}, got ${part}`);

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: part ? PARTS[part]! : [...new Set(Object.values(PARTS).flat())],
    exclude: [
      'test/translate/cli.test.ts',
      'test/translate/cli-program.test.ts',
      'test/translate/package.test.ts',
      'test/translate/openapi.test.ts',
    ],
  },
});
