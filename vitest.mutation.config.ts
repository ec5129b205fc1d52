import { defineConfig } from 'vitest/config';

// The in-process tests StrykerJS runs against each mutant of the translation core (npm run mutation):
// the translator, its mappings and the shadow comparison, without the tests that spawn the CLI or pack
// the package (those run the built dist/, which a mutant never reaches).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    include: ['test/translate/**/*.test.ts', 'test/shadow/diff.test.ts', 'test/shadow/compare.test.ts', 'test/shadow/noise.test.ts'],
    exclude: ['test/translate/cli.test.ts', 'test/translate/cli-program.test.ts', 'test/translate/package.test.ts', 'test/translate/openapi.test.ts'],
  },
});
