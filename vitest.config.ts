import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
      'apps/web/build/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most test files wait on sockets, child processes and the simulated clock rather than compute
    // (one at a time: 646 s of wall time for 325 s of CPU). Two at a time on 2 cores; the default
    // (cores − 1) runs one, and three starved the end-to-end run beside them.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
  },
});
