/**
 * Lighthouse (mobile preset: simulated slow 4G and a 4x slower CPU) on /login and /dashboard of the
 * production build, served by the real server (`apps/server/dist/main.js`, SQLite in a temporary
 * folder) in the system Chromium. Prints LCP, TBT, FCP, the score and the bytes transferred.
 * Needs `npm run build` first. Goal: LCP < 2.5 s (docs/performance.md).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';

const root = path.resolve(import.meta.dirname, '..');
const entry = path.join(root, 'apps/server/dist/main.js');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

async function post(base: string, url: string, body: unknown, token?: string): Promise<unknown> {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

if (!existsSync(entry)) throw new Error('Run `npm run build` first.');
const dataDir = mkdtempSync(path.join(tmpdir(), 'tradedesk-lighthouse-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [entry], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    SIM_START: '2026-06-24T10:30:00Z',
  },
});
const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  await waitFor(`${base}/api/health`);
  const { access } = (await post(base, '/api/users/bootstrap/', {
    username: 'bench',
    password: 'bench-password-1',
  })) as { access: string };
  await post(base, '/api/accounts/create/', { name: 'Demo', platform: 'SIM' }, access);

  // The signed-in state /dashboard needs: the token where the app keeps it, kept across runs
  // (Lighthouse's storage reset is off); the HTTP cache is cleared before each run instead, so every
  // run is a first load.
  const page = await browser.newPage();
  await page.goto(`${base}/login`);
  await page.evaluate((t) => localStorage.setItem('token', t), access);
  const cdp = await page.createCDPSession();

  console.log(`Lighthouse ${RUNS} run(s) per page, mobile preset, ${chromium}`);
  for (const url of ['/login', '/dashboard']) {
    const runs: Array<{ lcp: number; tbt: number; fcp: number; score: number; kb: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(
        base + url,
        { output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true },
        undefined,
        page,
      );
      const a = result!.lhr.audits;
      runs.push({
        lcp: a['largest-contentful-paint']!.numericValue!,
        tbt: a['total-blocking-time']!.numericValue!,
        fcp: a['first-contentful-paint']!.numericValue!,
        score: result!.lhr.categories.performance!.score ?? 0,
        kb: a['total-byte-weight']!.numericValue! / 1024,
      });
    }
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    for (const [i, r] of runs.entries()) {
      console.log(
        `${url} run ${i + 1}: LCP ${fmt(r.lcp)}  TBT ${Math.round(r.tbt)} ms  FCP ${fmt(r.fcp)}  ` +
          `score ${r.score.toFixed(2)}  transferred ${r.kb.toFixed(0)} KB`,
      );
    }
    console.log(
      `${url} median: LCP ${fmt(median(runs.map((r) => r.lcp)))}  TBT ${Math.round(median(runs.map((r) => r.tbt)))} ms` +
        `  (goal LCP < 2.5 s)`,
    );
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
