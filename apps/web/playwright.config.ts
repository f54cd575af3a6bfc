import { defineConfig } from '@playwright/test';
import path from 'node:path';

/**
 * End-to-end tests against the built app (`npm run build` first), served by the real server on a
 * fresh SQLite database, in the system Chromium (never a downloaded browser).
 */
const PORT = Number(process.env.E2E_PORT ?? 8765);
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = path.join(root, '.tmp', `e2e-${PORT}`);
// Several people can run the suite at once on one machine: each with its own port and build folders.
const serverEntry = process.env.E2E_SERVER_ENTRY ?? 'apps/server/dist/main.js';
const webDist: Record<string, string> = process.env.E2E_WEB_DIST
  ? { WEB_DIST: path.resolve(process.env.E2E_WEB_DIST) }
  : {};

export default defineConfig({
  testDir: './e2e',
  outputDir: path.join(root, '.tmp', `e2e-results-${PORT}`),
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    actionTimeout: 10_000,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  projects: [
    { name: 'bootstrap', testMatch: /bootstrap\.setup\.ts/ },
    { name: 'app', testMatch: /.*\.spec\.ts/, dependencies: ['bootstrap'] },
  ],
  webServer: {
    command: `rm -rf "${dataDir}" && node ${serverEntry}`,
    cwd: root,
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      // A known market moment (a Monday morning, FX open, BTCUSD rising for the next 20 minutes), so
      // tests that need a position in profit (stop to breakeven) never wait on a random market.
      SIM_START: '2026-06-29T10:30:00Z',
      // A week of simulated M1 per analysis instrument instead of two years: AVAILABLE in seconds.
      ANALYSIS_HISTORY_DAYS: '7',
      ...webDist,
    },
  },
});
