/**
 * Candle store speed: reading one year of M1 of one symbol (about 372,000 bars in 12 monthly
 * chunks) through `candleStore(ctx).series()` — target < 150 ms on SQLite.
 * Set-up: the real app (`buildApp`, SQLite in a temporary DATA_DIR, WAL, synchronous=FULL). The year
 * (2025, FX hours: Sunday 22:00 to Friday 22:00 UTC) is a seeded random walk of 5-digit EURUSD prices
 * with tick volumes, stored through the store's own import path. Then, each the median of 15 runs
 * after 3 warm-ups:
 * - the year read from the store as stored (format 2: minutes, price differences and volume as 16-bit
 *   integers: the store's choice),
 * - the same bars stored with float64 prices (the alternative measured), read the same way,
 * - the year resampled M1 → H1 (the pure domain function alone),
 * - and, once, a month of M1 backfilled from the simulator (what a first read of the SIM costs).
 * On PostgreSQL too when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set (a temporary schema).
 * Run: `npx tsx bench/candles.bench.ts` (about 30 s; the simulator's month is most of it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { allocateSeries } from '../packages/domain/src/candles/series';
import { sliceSeries } from '../packages/domain/src/candles/series-ops';
import { resample } from '../packages/domain/src/candles/resample';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { usersService } from '../apps/server/src/modules/users/users.service';
import { candleStore } from '../apps/server/src/market/candle-store';
import { decodeChunk, encodeChunk } from '../apps/server/src/market/candle-codec';
import { schemaUrl, withPgSchema } from '../apps/server/src/test/pg-schema';
import { WEDNESDAY } from '../apps/server/src/test/sim-clock';

const FROM = Date.UTC(2025, 0, 1);
const TO = Date.UTC(2026, 0, 1);
const TARGET_MS = 150;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timed(
  fn: () => Promise<number> | number,
): Promise<{ ms: number; min: number; count: number }> {
  const runs: number[] = [];
  let count = 0;
  for (let i = 0; i < 18; i++) {
    const t0 = performance.now();
    count = await fn();
    if (i >= 3) runs.push(performance.now() - t0);
  }
  return { ms: median(runs), min: Math.min(...runs), count };
}

/** A year of M1 over FX hours: a seeded random walk in whole points (5 digits), tick volume 1..400. */
function walk(): ReturnType<typeof allocateSeries> {
  const s = allocateSeries(Math.ceil((TO - FROM) / 60_000));
  let seed = 20250101;
  const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  let points = 108_000;
  let n = 0;
  for (let t = FROM; t < TO; t += 60_000) {
    const day = new Date(t).getUTCDay();
    const hour = new Date(t).getUTCHours();
    if (day === 6 || (day === 5 && hour >= 22) || (day === 0 && hour < 22)) continue;
    const open = points;
    points += Math.round((rand() - 0.5) * 12);
    s.time[n] = t;
    s.open[n] = open / 1e5;
    s.close[n] = points / 1e5;
    s.high[n] = (Math.max(open, points) + Math.floor(rand() * 4)) / 1e5;
    s.low[n] = (Math.min(open, points) - Math.floor(rand() * 4)) / 1e5;
    s.volume[n] = 1 + Math.floor(rand() * 400);
    n++;
  }
  return sliceSeries(s, 0, n);
}

async function run(dialect: 'sqlite' | 'postgres', url?: string): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tradedesk-bench-candles-'));
  const schema = url ? `b_${randomBytes(6).toString('hex')}` : undefined;
  if (url && schema) await withPgSchema(url, schema, 'create');
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: url && schema ? schemaUrl(url, schema) : undefined,
      logLevel: 'silent',
      webDist: undefined,
      simNow: () => WEDNESDAY,
    },
  );
  const { app, ctx } = await buildApp(config);
  try {
    const user = await usersService(ctx).create('bench', 'correct-horse-battery', false);
    const store = candleStore(ctx);
    const read = (symbol: string) =>
      store.series({ userId: user.id, source: 'csv', symbol, timeframe: 'M1', fromMs: FROM, toMs: TO });
    const year = walk();
    await store.importM1(user.id, 'EURUSD', year);

    // The alternative encoding, for comparison: the same chunks with float64 prices.
    const rows = await ctx.db
      .selectFrom('candle_chunks')
      .selectAll()
      .where('symbol', '=', 'EURUSD')
      .execute();
    let compact = 0;
    let float = 0;
    for (const r of rows) {
      const data = encodeChunk(decodeChunk(r.data), { prices: 'float64' });
      compact += r.data.byteLength;
      float += data.byteLength;
      await ctx.db
        .insertInto('candle_chunks')
        .values({ ...r, symbol: 'EURUSD.F64', data })
        .execute();
    }
    const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
    console.log(
      `[${dialect}] ${year.time.length} M1 bars in ${rows.length} chunks: ${mb(compact)} as stored, ${mb(float)} with float64 prices`,
    );

    const stored = await timed(async () => (await read('EURUSD')).time.length);
    const met = stored.ms < TARGET_MS ? 'met' : 'NOT met';
    console.log(
      `[${dialect}] one year of M1 read from the store: ${stored.count} bars, median ${stored.ms.toFixed(1)} ms, best ${stored.min.toFixed(1)} ms (target < ${TARGET_MS} ms: ${met})`,
    );
    const f64 = await timed(async () => (await read('EURUSD.F64')).time.length);
    console.log(
      `[${dialect}] the same with float64 prices: ${f64.count} bars, median ${f64.ms.toFixed(1)} ms, best ${f64.min.toFixed(1)} ms`,
    );
    const hours = await timed(() => resample(year, 'M1', 'H1').time.length);
    console.log(
      `[${dialect}] resample of the year M1 → H1: ${hours.count} bars, median ${hours.ms.toFixed(1)} ms`,
    );

    const t0 = performance.now();
    const month = await store.series({
      userId: user.id,
      symbol: 'EURUSD',
      timeframe: 'M1',
      fromMs: Date.UTC(2025, 11, 1),
      toMs: Date.UTC(2026, 0, 1),
    });
    console.log(
      `[${dialect}] first read of a month of M1 from the simulator (backfill): ${month.time.length} bars in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  } finally {
    await app.close();
    if (url && schema) await withPgSchema(url, schema, 'drop');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await run('sqlite');
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (pgUrl) await run('postgres', pgUrl);
