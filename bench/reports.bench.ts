/**
 * Reports benchmark: one account with 100,000 closed trades over two years, a third of them
 * journaled (tags, emotions, market conditions), then
 * - `GET /api/reports/summary/` over the whole range (figures, calendar, R histogram, equity with
 *   drawdown, streaks, journal discipline) — target p95 < 300 ms;
 * - `GET /api/reports/breakdowns/` with every dimension, in a time zone — target p95 < 300 ms;
 * - the summary filtered by a journal tag.
 * On SQLite always, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (a
 * temporary schema is created and dropped). Run: `npx tsx bench/reports.bench.ts` or `npm run bench reports`.
 * Requests go through the real app with `app.inject` (auth, validation, serialisation, no network).
 */
import { sql } from 'kysely';
import { openBenchApp } from './bench-app';
import { seedTrades, type SeedTrade } from '../apps/server/src/modules/history/history.seed';
import type { TradeJournalsTable } from '../apps/server/src/db/schema';

const TRADES = Number(process.env.BENCH_TRADES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const SYMBOLS = ['EURUSD', 'GBPUSD', 'USDJPY', 'XAUUSD', 'AUDUSD', 'US30', 'GER40'];
const TAGS = ['breakout', 'reversal', 'trend', 'range'];
const START = Date.parse('2024-01-01T00:00:00Z');
const SPAN = 2 * 365 * 86_400_000;

function pct(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

function trades(): SeedTrade[] {
  return Array.from({ length: TRADES }, (_, i) => {
    const opened = START + Math.floor((SPAN * i) / TRADES);
    return {
      id: `bench-t${i}`,
      symbol: SYMBOLS[i % SYMBOLS.length]!,
      direction: i % 3 ? 'BUY' : 'SELL',
      status: 'closed',
      volume: 0.1,
      entry_price: 1.1,
      stop_loss: 1.09,
      created_at: new Date(opened).toISOString(),
      closed_at: new Date(opened + ((i * 7919) % 86_400) * 1000).toISOString(),
      pl_minor: ((i * 7919 + 13) % 40_000) - 18_000,
      initial_risk_minor: i % 11 ? 10_000 : null,
    };
  });
}

function journals(userId: string): TradeJournalsTable[] {
  const out: TradeJournalsTable[] = [];
  for (let i = 0; i < TRADES; i += 3)
    out.push({
      id: `bench-j${i}`,
      user_id: userId,
      trade_id: `bench-t${i}`,
      action: 'Entry',
      trade_timeframe: '15M',
      reason: 'Planned setup',
      details: '',
      strategy_tag: TAGS[i % TAGS.length]!,
      emotional_state: i % 2 ? 'calm' : 'anxious',
      market_condition: i % 5 ? 'trending' : 'ranging',
      created_at: new Date(START + Math.floor((SPAN * i) / TRADES)).toISOString(),
    });
  return out;
}

async function runOn(target: 'sqlite' | 'postgres', baseUrl?: string) {
  const { app, ctx, user, account, headers, close } = await openBenchApp(target, baseUrl, 'reports');
  try {
    const t0 = performance.now();
    await seedTrades(
      ctx.db,
      { userId: user.id, accountId: account.id, currency: account.currency },
      trades(),
    );
    const js = journals(user.id);
    for (let i = 0; i < js.length; i += 2000)
      await ctx.db
        .insertInto('trade_journals')
        .values(js.slice(i, i + 2000))
        .execute();
    await (target === 'postgres' ? sql`vacuum analyze` : sql`pragma optimize`).execute(ctx.db);
    console.log(
      `[${target}] seeded ${TRADES.toLocaleString('en')} closed trades and ${js.length.toLocaleString('en')} journal entries in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const get = async (url: string) => {
      const s = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      const ms = performance.now() - s;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, body: res.json() };
    };
    const measure = async (url: string) => {
      for (let i = 0; i < 3; i++) await get(url);
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push((await get(url)).ms);
      return { p50: pct(samples, 50), p95: pct(samples, 95), max: Math.max(...samples) };
    };
    const q = `account=${account.id}`;
    const summary = (await get(`/api/reports/summary/?${q}`)).body;
    if (summary.figures.trades !== TRADES)
      throw new Error(`summary counted ${summary.figures.trades} trades`);
    const cases: Array<[string, string]> = [
      ['summary, whole range', `/api/reports/summary/?${q}`],
      ['breakdowns, all 10 dimensions, tz=Europe/London', `/api/reports/breakdowns/?${q}&tz=Europe/London`],
      ['summary, tag=breakout', `/api/reports/summary/?${q}&tag=breakout`],
    ];
    for (const [name, url] of cases) {
      const r = await measure(url);
      console.log(
        `[${target}] ${name.padEnd(48)} p50 ${fmt(r.p50).padStart(9)}  p95 ${fmt(r.p95).padStart(9)}  max ${fmt(r.max).padStart(9)}  (target p95 < 300 ms: ${r.p95 < 300 ? 'met' : 'MISSED'})`,
      );
    }
  } finally {
    await close();
  }
}

const started = performance.now();
await runOn('sqlite');
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) await runOn('postgres', pgUrl);
else console.log('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include it.');
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
