/// <reference lib="dom" />
/**
 * The trade history list in a real browser with 10,000 trades: does it stay smooth?
 * Run: `npm run build && npx tsx bench/history-list.bench.ts` (about a minute; needs the built web app
 * in apps/web/dist and Chromium at /usr/bin/chromium or CHROMIUM_PATH).
 *
 * The real app serves the built SPA on a temporary SQLite DATA_DIR holding 10,000 trades of this week
 * (30,000 deals). Headless Chromium opens the account's Trade History, scrolls the list to the end
 * (the pages load as it goes), then scrolls it back up and down at 400 px a frame while counting frame
 * times, and reports how many rows the DOM holds: a virtualised list keeps that near the visible count.
 */
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { seedTrades, type SeedTrade } from '../apps/server/src/modules/history/history.seed';
import { usersService } from '../apps/server/src/modules/users/users.service';

const TRADES = Number(process.env.BENCH_TRADES ?? 10_000);
const webDist = path.resolve(import.meta.dirname, '../apps/web/dist');
if (!existsSync(path.join(webDist, 'index.html'))) throw new Error('Build the web app first: npm run build');

const dataDir = mkdtempSync(path.join(tmpdir(), 'tradedesk-histlist-'));
const { app, ctx } = await buildApp(loadConfig({}, { dataDir, logLevel: 'warn', webDist }));
try {
  const user = await usersService(ctx).create('lister', 'lister-password', false);
  const { access } = await ctx.tokens.issue(user);
  const account = await ctx.db
    .selectFrom('trading_accounts')
    .selectAll()
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  const weekStart = new Date();
  weekStart.setDate(weekStart.getDate() - ((weekStart.getDay() + 6) % 7));
  weekStart.setHours(0, 0, 0, 0);
  const span = Math.max(1, Date.now() - weekStart.getTime() - 60_000);
  const symbols = ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'US100', 'BTCUSD'];
  const trades: SeedTrade[] = Array.from({ length: TRADES }, (_, i) => {
    const opened = weekStart.getTime() + Math.floor((span * i) / TRADES);
    const closed = new Date(opened + 30_000).toISOString();
    const pl = Math.round(Math.sin(i) * 5000);
    return {
      symbol: symbols[i % symbols.length]!,
      direction: i % 2 ? 'SELL' : 'BUY',
      status: 'closed',
      volume: 0.1,
      entry_price: 1.1 + (i % 100) / 10_000,
      stop_loss: 1.09,
      created_at: new Date(opened).toISOString(),
      closed_at: closed,
      pl_minor: pl,
      initial_risk_minor: 2000,
      reason: `Seeded trade ${i}`,
      deals: [
        { entry: 'IN', filled_at: new Date(opened).toISOString(), price: 1.1, volume: 0.1 },
        {
          entry: 'OUT',
          filled_at: closed,
          price: 1.101,
          volume: 0.1,
          profit_minor: pl,
          commission_minor: -70,
        },
      ],
    };
  });
  let t0 = performance.now();
  await seedTrades(ctx.db, { userId: user.id, accountId: account.id, currency: 'USD' }, trades);
  console.log(
    `seeded ${TRADES} trades and ${TRADES * 2} deals in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // tsx keeps function names with a `__name` helper that the page lacks; give it a no-op one.
    await page.addInitScript('window.__name = (f) => f');
    await page.goto(`${base}/login`);
    await page.evaluate((t) => localStorage.setItem('token', t), access);
    t0 = performance.now();
    await page.goto(`${base}/accounts/${account.id}/trade-history`);
    const table = page.getByRole('table', { name: 'Trades' });
    await table
      .getByRole('row', { name: /^(BUY|SELL|[A-Z0-9]+) / })
      .first()
      .waitFor();
    console.log(`first rows on screen ${(performance.now() - t0).toFixed(0)} ms after navigation`);

    // Scroll to the end: every page of 100 loads as the list nears its end.
    t0 = performance.now();
    const scroller = table.locator('[role=rowgroup]').nth(1);
    for (;;) {
      const done = await scroller.evaluate((el, total) => {
        el.scrollTop = el.scrollHeight;
        return Number(el.closest('[role=table]')?.getAttribute('aria-rowcount')) >= total;
      }, TRADES);
      if (done) break;
      await page.waitForTimeout(50);
      if (performance.now() - t0 > 120_000)
        throw new Error('the list did not load every trade within 2 minutes');
    }
    console.log(
      `all ${TRADES} trades loaded by scrolling in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const result = await scroller.evaluate(async (el) => {
      const frames: number[] = [];
      let maxRows = 0;
      el.scrollTop = 0;
      await new Promise((r) => requestAnimationFrame(r));
      let last = performance.now();
      for (let i = 0; i < 600; i++) {
        // Down for 300 frames, then back up: 400 px a frame is a fast fling.
        el.scrollTop += i < 300 ? 400 : -400;
        await new Promise((r) => requestAnimationFrame(r));
        const now = performance.now();
        frames.push(now - last);
        last = now;
        maxRows = Math.max(maxRows, el.querySelectorAll('[role=row]').length);
      }
      frames.sort((a, b) => a - b);
      const q = (p: number) => frames[Math.min(frames.length - 1, Math.floor(p * frames.length))]!;
      return {
        p50: q(0.5),
        p95: q(0.95),
        max: frames.at(-1)!,
        long: frames.filter((f) => f > 50).length,
        maxRows,
      };
    });
    console.log(
      `scrolling the loaded list, 600 frames at 400 px each: frame p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms, max ${result.max.toFixed(1)} ms, ${result.long} frames over 50 ms; at most ${result.maxRows} rows in the DOM for ${TRADES} trades`,
    );
  } finally {
    await browser.close();
  }
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
