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
    // Most test files wait on sockets, child processes and the simulated clock rather than compute:
    // three at a time keep both cores busy (the default, cores − 1, ran one file at a time here).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
  },
});
