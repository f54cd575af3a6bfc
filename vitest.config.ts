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
  },
});
