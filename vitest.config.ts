import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects, run one after the other by `npm test`: the suite, then the secrets scan over every
// log line and shadow record the suite wrote to .test-logs/ (it also prints the summary lines).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // one file per core at least two: left unset, vitest 4.1 ran the files one at a time here (a
    // 2-core machine: four files of 3 s each took 13 s, with this 7 s); most files wait on servers
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        extends: true,
        // isolate: false: a worker runs its files one after another in one process and imports the code
        // once (each of 87 files importing it again cost 114 s of a 362 s pass; without it, 278 s). No test
        // mocks a module or changes the process's globals; each starts its own servers on port 0.
        test: {
          name: 'suite',
          isolate: false,
          include: ['test/**/*.test.ts'],
          exclude: ['test/reliability/secrets.test.ts'],
        },
      },
      { extends: true, test: { name: 'secrets', include: ['test/reliability/secrets.test.ts'] } },
    ],
  },
});
