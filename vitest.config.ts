import { defineConfig } from 'vitest/config';

// Two projects, run one after the other by `npm test`: the suite, then the secrets scan over every
// log line and shadow record the suite wrote to .test-logs/ (it also prints the summary lines).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'suite', include: ['test/**/*.test.ts'], exclude: ['test/reliability/secrets.test.ts'] } },
      { extends: true, test: { name: 'secrets', include: ['test/reliability/secrets.test.ts'] } },
    ],
  },
});
