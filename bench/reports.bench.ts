/**
 * Reports benchmark: one account with 100,000 closed trades over two years, a third of them
 * journaled (tags, emotions, market conditions), then
 * - `GET /api/reports/summary/` over the whole range (figures, calendar, R histogram, equity with
 *   drawdown, streaks, journal discipline) — target p95 < 300 ms;
 * - `GET /api/reports/breakdowns/` with every dimension, in a time zone — target p95 < 300 ms;
 * - the summary filtered by a journal tag;
 * - the summary again after a journal entry was written into one month (that month of the reports'
 *   copy is rebuilt by the request);
 * - `GET /api/reports/excursions/`: MFE/MAE of every trade from stored M1 candles (BENCH_CANDLES
 *   symbols, all 7 by default, 1-minute bars Monday to Friday over the two years; with fewer, the
 *   Demo account's other symbols are made by the simulator on the first request, which takes
 *   minutes) — target p95 < 300 ms.
 * The first summary and the first MFE/MAE request (the copy built, every trade measured) are timed
 * once and printed apart: they happen once per database, not per request.
 * On SQLite always, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (a
 * temporary schema is created and dropped). Run: `npx tsx bench/reports.bench.ts` or `npm run bench reports`.
 * Requests go through the real app with `app.inject` (auth, validation, serialisation, no network).
 */
import { sql } from 'kysely';
import { openBenchApp } from './bench-app';
import { seedTrades, type SeedTrade } from '../apps/server/src/modules/history/history.seed';
import type { TradeJournalsTable } from '../apps/server/src/db/schema';
import { allocateSeries } from '../packages/domain/src/index';
import { brokerRegistry } from '../apps/server/src/brokers/registry';
import { encodeChunk } from '../apps/server/src/market/candle-codec';
import { monthsOf } from '../apps/server/src/market/candle-chunks';
import { candleRepo } from '../apps/server/src/market/candle-repo';
import { simCandleSource } from '../apps/server/src/market/candle-sources';
import type { AppContext } from '../apps/server/src/context';
import { cpuMs } from './bench-data';

const TRADES = Number(process.env.BENCH_TRADES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const CANDLE_SYMBOLS = Number(process.env.BENCH_CANDLES ?? 7);
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

/**
 * One-minute bars Monday to Friday (UTC days) over the trades' two years for the first `n` symbols,
 * a random walk near the trades' entry price, filed as the simulator's chunks (the Demo account's
 * prices). Returns the bars written.
 */
async function seedCandles(ctx: AppContext, n: number): Promise<number> {
  const repo = candleRepo(ctx.db);
  const source = simCandleSource(brokerRegistry(ctx).sim).key;
  let seed = 20261125;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let bars = 0;
  for (const symbol of SYMBOLS.slice(0, n)) {
    let price = 1.1;
    for (const m of monthsOf(START, START + SPAN + 86_400_000)) {
      const times: number[] = [];
      for (let t = m.start; t < m.end; t += 60_000) {
        const weekday = new Date(t).getUTCDay();
        if (weekday !== 0 && weekday !== 6) times.push(t);
      }
      const s = allocateSeries(times.length);
      times.forEach((t, i) => {
        const open = price;
        price = Math.min(1.3, Math.max(0.9, Math.round((price + (random() - 0.5) * 0.0004) * 1e5) / 1e5));
        s.time[i] = t;
        s.open[i] = open;
        s.close[i] = price;
        s.high[i] = Math.round((Math.max(open, price) + random() * 0.0002) * 1e5) / 1e5;
        s.low[i] = Math.round((Math.min(open, price) - random() * 0.0002) * 1e5) / 1e5;
        s.volume[i] = 1 + Math.floor(random() * 100);
      });
      await repo.put({
        source,
        symbol,
        timeframe: 'M1',
        month: m.key,
        user_id: null,
        account_id: null,
        bar_count: times.length,
        covered_from: m.start,
        covered_to: m.end,
        data: encodeChunk(s),
        updated_at: new Date().toISOString(),
      });
      bars += times.length;
    }
  }
  return bars;
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
    const bars = await seedCandles(ctx, CANDLE_SYMBOLS);
    await (target === 'postgres' ? sql`vacuum analyze` : sql`pragma optimize`).execute(ctx.db);
    console.log(
      `[${target}] seeded ${TRADES.toLocaleString('en')} closed trades, ${js.length.toLocaleString('en')} journal entries and ${bars.toLocaleString('en')} M1 bars of ${CANDLE_SYMBOLS} symbols in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const get = async (url: string) => {
      const s = performance.now();
      const c = cpuMs();
      const res = await app.inject({ method: 'GET', url, headers });
      const ms = performance.now() - s;
      const cpu = cpuMs() - c;
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ms, cpu, body: res.json() };
    };
    // Wall time is what the target is about; this process's CPU time per request (the server's
    // work, without PostgreSQL's own process) is printed too: it moves far less with the load.
    const measure = async (url: string, before?: (i: number) => Promise<void>) => {
      for (let i = 0; i < 3; i++) {
        await before?.(i);
        await get(url);
      }
      const samples: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        await before?.(i + 3);
        const r = await get(url);
        samples.push(r.ms);
        cpu.push(r.cpu);
      }
      return { p50: pct(samples, 50), p95: pct(samples, 95), max: Math.max(...samples), cpu: pct(cpu, 50) };
    };
    // A journal entry on a trade of month i % 24: that month is behind and rebuilt by the next request.
    const journalOne = async (i: number) => {
      const at = Math.floor(((i % 24) + 0.5) * (TRADES / 24));
      await ctx.db
        .insertInto('trade_journals')
        .values({
          ...js[0]!,
          id: `bench-extra-j${i}`,
          trade_id: `bench-t${at}`,
          strategy_tag: 'late note',
          created_at: new Date().toISOString(),
        })
        .execute();
    };
    const q = `account=${account.id}`;
    const cold = await get(`/api/reports/summary/?${q}`);
    const summary = cold.body;
    if (summary.figures.trades !== TRADES)
      throw new Error(`summary counted ${summary.figures.trades} trades`);
    const x = await get(`/api/reports/excursions/?${q}`);
    console.log(
      `[${target}] first summary (the reports' copy built) ${fmt(cold.ms)}, cpu ${fmt(cold.cpu)}; first excursions (every trade measured) ${fmt(x.ms)}, cpu ${fmt(x.cpu)}`,
    );
    // Measures taken while the simulator made missing months are taken again once: then they are kept.
    await get(`/api/reports/excursions/?${q}`);
    console.log(
      `[${target}] excursions: ${x.body.measured.toLocaleString('en')} of ${x.body.trades_total.toLocaleString('en')} trades measured, ${x.body.without_candles.count.toLocaleString('en')} without candles`,
    );
    const cases: Array<[string, string, ((i: number) => Promise<void>)?]> = [
      ['summary, whole range', `/api/reports/summary/?${q}`],
      ['breakdowns, all 11 dimensions, tz=Europe/London', `/api/reports/breakdowns/?${q}&tz=Europe/London`],
      ['summary, tag=breakout', `/api/reports/summary/?${q}&tag=breakout`],
      ['summary, one month written since the last', `/api/reports/summary/?${q}`, journalOne],
      ['excursions (MFE/MAE), whole range', `/api/reports/excursions/?${q}`],
    ];
    for (const [name, url, before] of cases) {
      const r = await measure(url, before);
      console.log(
        `[${target}] ${name.padEnd(48)} p50 ${fmt(r.p50).padStart(9)}  p95 ${fmt(r.p95).padStart(9)}  max ${fmt(r.max).padStart(9)}  cpu p50 ${fmt(r.cpu).padStart(9)}  (target p95 < 300 ms: ${r.p95 < 300 ? 'met' : 'MISSED'})`,
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
