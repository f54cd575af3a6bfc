/**
 * Live-run decision latency: from the close of a bar to the moment the order for it leaves for the
 * broker (the call to executeTrade), with 10 live runs at once, each in its own sandbox process.
 * The app runs in process on SQLite (or PostgreSQL with BENCH_PG_URL) with a simulated clock that
 * the benchmark moves one M1 bar at a time; a bar "closes" when the clock crosses its end, and each of
 * the 10 runs (10 users, one Demo account each) buys on every bar, so every bar gives 10 decisions.
 * The runner looks at the clock every `pollMs` (10 ms here; a real clock wakes it at the bar's close),
 * so the figure is: wake-up + candle read + position and balance reads + the strategy step in the
 * sandbox + the order's plan (symbol, quote, lot size from risk).
 * Run: `npx tsx bench/live-runs.bench.ts` (about a minute). Target: p99 < 250 ms.
 */
import { percentile } from '../packages/domain/src/index';
import { liveRunManager } from '../apps/server/src/modules/live-runs/live-run-manager';
import { liveRunsService } from '../apps/server/src/modules/live-runs/live-runs.service';
import { botsService } from '../apps/server/src/modules/bots/bots.service';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { usersService } from '../apps/server/src/modules/users/users.service';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const RUNS = 10;
const BARS = 30;
const MINUTE = 60_000;
const STRATEGY = `
def on_bar(ctx, bar):
    ctx.buy(sl_distance=0.002, tp_r=2, tag="every bar")
`;

let clock = Date.parse('2026-01-07T10:00:30Z');
const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_DIR ?? tmpdir(), 'tradedesk-live-bench-'));
const { app, ctx } = await buildApp(
  loadConfig(
    {},
    {
      dataDir,
      databaseUrl: process.env.BENCH_PG_URL,
      logLevel: 'silent',
      webDist: undefined,
      simNow: () => clock,
      liveRuns: { pollMs: 10, heartbeatMs: 5000, leaseMs: 30_000, brokerDownMs: 60_000, historyBars: 500 },
    },
  ),
);
await app.ready();
const runIds: string[] = [];
const t0 = performance.now();
for (let i = 0; i < RUNS; i++) {
  const u = await usersService(ctx).create(`live-bench-${i}`, 'bench-password-123', false);
  const user = { id: u.id, username: u.username, is_staff: false };
  const account = await ctx.db
    .selectFrom('trading_accounts')
    .select('id')
    .where('user_id', '=', u.id)
    .executeTakeFirstOrThrow();
  const bots = botsService(ctx);
  const bot = await bots.createBot(user, {
    name: `Bench ${i}`,
    account_id: account.id,
    strategy_template: 'ema_crossover.py',
  });
  const version = await bots.createVersion(user, {
    bot_id: bot.id,
    strategy_file_content: STRATEGY,
    params: { symbol: 'EURUSD', timeframe: 'M1' },
  });
  const { id } = await liveRunsService(ctx).start(user, { bot_version_id: version.id });
  runIds.push(id);
  // One boot at a time: the first makes the interpreter snapshot the others start from.
  while (
    (await ctx.db.selectFrom('live_runs').select('status').where('id', '=', id).executeTakeFirst())
      ?.status !== 'RUNNING'
  )
    await new Promise((r) => setTimeout(r, 50));
}
const running = async () =>
  (await ctx.db.selectFrom('live_runs').select('status').where('status', '=', 'RUNNING').execute()).length;
while ((await running()) < RUNS) await new Promise((r) => setTimeout(r, 50));
console.log(
  `${RUNS} runs RUNNING after ${((performance.now() - t0) / 1000).toFixed(1)} s (sandbox start-ups)`,
);

const latencies = liveRunManager(ctx).latencies();
const closeAt = new Map<number, number>();
const started = performance.now();
for (let k = 0; k < BARS; k++) {
  const before = latencies.length;
  clock += MINUTE;
  const bar = Math.floor(clock / MINUTE) * MINUTE - MINUTE;
  closeAt.set(bar, performance.now());
  const until = performance.now() + 20_000;
  while (latencies.length < before + RUNS && performance.now() < until)
    await new Promise((r) => setTimeout(r, 2));
  // Let the orders complete before the next bar, as bars minutes apart would.
  await new Promise((r) => setTimeout(r, 100));
}
const elapsed = (performance.now() - started) / 1000;
const fromClose = latencies
  .filter((l) => closeAt.has(l.barOpenMs))
  .map((l) => l.at - closeAt.get(l.barOpenMs)!);
const decide = latencies.map((l) => l.decidedInMs);
// The first bar also fills the candle store with each run's window (a cold read).
const firstBar = Math.min(...closeAt.keys());
const warm = latencies
  .filter((l) => closeAt.has(l.barOpenMs) && l.barOpenMs !== firstBar)
  .map((l) => l.at - closeAt.get(l.barOpenMs)!);
const fmt = (v: number) => `${v.toFixed(1)} ms`;
console.log(`decisions: ${fromClose.length} (${RUNS} runs × ${BARS} bars) in ${elapsed.toFixed(1)} s`);
console.log(
  `bar close -> order sent: p50 ${fmt(percentile(fromClose, 50))}, p99 ${fmt(percentile(fromClose, 99))}, max ${fmt(Math.max(...fromClose))}`,
);
console.log(`  after the first bar: p50 ${fmt(percentile(warm, 50))}, p99 ${fmt(percentile(warm, 99))}`);
console.log(
  `  of which bar seen -> order sent (no polling): p50 ${fmt(percentile(decide, 50))}, p99 ${fmt(percentile(decide, 99))}`,
);
const trades = await ctx.db
  .selectFrom('live_run_trades')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
console.log(`trades placed: ${Number(trades.n)}`);
await app.close();
rmSync(dataDir, { recursive: true, force: true });
