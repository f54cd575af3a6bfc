import {
  allocateSeries,
  bucketEnd,
  bucketStart,
  canResample,
  emptySeries,
  resample,
  seriesRange,
  TIMEFRAME_MS,
  type CandleSeries,
  type CandleTimeframe,
} from '@tradedesk/domain';
import type { AppContext } from '../context';
import type { CandleChunksTable } from '../db/schema';
import { brokerRegistry, type BrokerRegistry } from '../brokers/registry';
import { badRequest } from '../lib/http-error';
import { nowIso } from '../lib/ids';
import { perApp } from '../lib/per-app';
import { accountsRepo } from '../modules/accounts/accounts.repo';
import { chunkLength, decodeChunk, decodeChunkInto, encodeChunk } from './candle-codec';
import { monthsOf, spliceSeries } from './candle-chunks';
import { candleRepo, type ChunkSeries } from './candle-repo';
import {
  brokerCandleSource,
  csvCandleSource,
  simCandleSource,
  type CandleSource,
  type StoredTimeframe,
} from './candle-sources';

/** What to read: one symbol and timeframe of one source, the bars opening in [fromMs, toMs). */
export interface SeriesRequest {
  /** The caller: accounts and imports are looked up among this user's only. */
  userId: string;
  /** A trading account of the user: its broker's prices (a simulated account reads the simulator). */
  accountId?: string;
  /** Or a source by name: the simulator (the default), or the user's imported CSV files. */
  source?: 'sim' | 'csv';
  symbol: string;
  timeframe: CandleTimeframe;
  fromMs: number;
  toMs: number;
}

/** Most bars one read may span (about 2.7 years of M1); longer work reads in pieces. */
export const MAX_SERIES_BARS = 1_000_000;

export interface CandleStore {
  /**
   * The bars of `req`, oldest first, as the shared CandleSeries. Months the store lacks (or holds
   * only in part) are fetched from the source first and kept; timeframes the store does not keep
   * (M3, H2, W1, MN1, and all but M1 of imports) are resampled from one it does.
   * Throws HttpError: 404 for another user's account or an unknown symbol, 400 for a bad range,
   * 502 when a broker is down.
   */
  series(req: SeriesRequest): Promise<CandleSeries>;
  /**
   * Stores M1 bars of a user's import, replacing the stored bars from its first to its last minute
   * (bars before and after stay); returns the months written.
   */
  importM1(userId: string, symbol: string, bars: CandleSeries): Promise<string[]>;
}

export const candleStore: (ctx: AppContext) => CandleStore = perApp((ctx) => createCandleStore(ctx));

/** The store over the app's broker registry, or over the one given (tests with fake brokers). */
export function createCandleStore(ctx: AppContext, registry?: BrokerRegistry): CandleStore {
  const repo = candleRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);
  const brokers = () => registry ?? brokerRegistry(ctx);
  const locks = new Map<string, Promise<void>>();

  /** Runs fn after every earlier fn of the same key: one writer per chunk in this process. */
  async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (locks.get(key) ?? Promise.resolve()).then(fn);
    const done = run.then(
      () => undefined,
      () => undefined,
    );
    locks.set(key, done);
    try {
      return await run;
    } finally {
      if (locks.get(key) === done) locks.delete(key);
    }
  }

  async function sourceOf(req: SeriesRequest): Promise<CandleSource> {
    if (req.accountId !== undefined) {
      const account = await accounts.ownedOr404(req.userId, req.accountId);
      if (account.platform === 'SIM') return simCandleSource(brokers().sim);
      return brokerCandleSource(brokers(), account);
    }
    if (req.source === 'csv') return csvCandleSource(req.userId);
    return simCandleSource(brokers().sim);
  }

  /** The coarsest stored timeframe `tf` can be built from (M1 builds them all). */
  function baseOf(source: CandleSource, tf: CandleTimeframe): StoredTimeframe {
    for (let i = source.stored.length - 1; i >= 0; i--) {
      const t = source.stored[i]!;
      if (canResample(t, tf)) return t;
    }
    return 'M1';
  }

  const chunkId = (key: ChunkSeries, month: string) =>
    `${key.source}|${key.symbol}|${key.timeframe}|${month}`;

  async function storedRow(key: ChunkSeries, month: string): Promise<CandleChunksTable | undefined> {
    return (await repo.chunks(key, month, month))[0];
  }

  function rowOf(
    source: CandleSource,
    key: ChunkSeries,
    month: string,
    bars: CandleSeries,
    from: number,
    to: number,
  ) {
    return {
      source: key.source,
      symbol: key.symbol,
      timeframe: key.timeframe,
      month,
      user_id: source.userId,
      account_id: source.accountId,
      bar_count: bars.time.length,
      covered_from: from,
      covered_to: to,
      data: encodeChunk(bars),
      updated_at: nowIso(),
    } satisfies CandleChunksTable;
  }

  /**
   * Makes a month's chunk cover [a, b): fetches what it lacks (and the bar that may have been forming).
   * The covered interval ends at the open of the bar forming at `now`: that bar is stored but asked
   * for again by any later read that reaches it, so no read is served a stale forming bar.
   */
  function fillMonth(
    source: CandleSource,
    key: ChunkSeries,
    month: string,
    a: number,
    b: number,
    now: number,
  ): Promise<CandleChunksTable> {
    return withLock(chunkId(key, month), async () => {
      const row = await storedRow(key, month);
      if (row && row.covered_from <= a && row.covered_to >= b) return row;
      const ranges: [number, number][] = [];
      let bars = row ? decodeChunk(row.data) : emptySeries();
      const len = TIMEFRAME_MS[key.timeframe as StoredTimeframe];
      const from = row ? Math.min(a, row.covered_from) : a;
      const to = row ? Math.max(b, row.covered_to) : b;
      if (!row) ranges.push([a, b]);
      else {
        if (from < row.covered_from) ranges.push([from, row.covered_from]);
        if (to > row.covered_to) ranges.push([Math.max(row.covered_from, row.covered_to - len), to]);
      }
      for (const [x, y] of ranges) {
        // A broker's failure stays a BrokerError: the HTTP error handler maps it (502) once.
        const fetched: CandleSeries = await source.fetch!(key.symbol, key.timeframe as StoredTimeframe, x, y);
        bars = spliceSeries(bars, x, y, fetched);
      }
      const settled = Math.max(from, Math.min(to, Math.floor(now / len) * len));
      const next = rowOf(source, key, month, bars, from, settled);
      await repo.put(next);
      return next;
    });
  }

  async function readStored(
    source: CandleSource,
    symbol: string,
    tf: StoredTimeframe,
    fromMs: number,
    toMs: number,
  ): Promise<CandleSeries> {
    const months = monthsOf(fromMs, toMs);
    if (months.length === 0) return emptySeries();
    const key: ChunkSeries = { source: source.key, userId: source.userId, symbol, timeframe: tf };
    const rows = await repo.chunks(key, months[0]!.key, months.at(-1)!.key);
    const byMonth = new Map(rows.map((r) => [r.month, r]));
    if (source.fetch) {
      // A bar opening at `now` exists (it is forming); nothing after it does.
      const now = source.now();
      const end = now + 1;
      for (const m of months) {
        const a = Math.max(fromMs, m.start);
        const b = Math.min(toMs, m.end, end);
        if (a >= b) continue;
        const row = byMonth.get(m.key);
        if (row && row.covered_from <= a && row.covered_to >= b) continue;
        byMonth.set(m.key, await fillMonth(source, key, m.key, a, b, now));
      }
    }
    const chunks = months.flatMap((m) => byMonth.get(m.key)?.data ?? []);
    const out = allocateSeries(chunks.reduce((n, c) => n + chunkLength(c), 0));
    let at = 0;
    for (const c of chunks) at += decodeChunkInto(c, out, at);
    return seriesRange(out, fromMs, toMs);
  }

  return {
    async series(req) {
      const { fromMs, toMs, timeframe } = req;
      if (!Number.isFinite(fromMs) || !Number.isFinite(toMs) || fromMs >= toMs) {
        throw badRequest('The time range is empty: "from" must be before "to".');
      }
      const source = await sourceOf(req);
      const base = baseOf(source, timeframe);
      const start = bucketStart(timeframe, fromMs);
      const end = bucketEnd(timeframe, bucketStart(timeframe, toMs - 1));
      if ((end - start) / TIMEFRAME_MS[base] > MAX_SERIES_BARS) {
        throw badRequest(
          `Too many candles: ask for at most ${MAX_SERIES_BARS.toLocaleString('en-US')} ${base} bars at a time.`,
        );
      }
      if (base === timeframe) return readStored(source, req.symbol, base, fromMs, toMs);
      const raw = await readStored(source, req.symbol, base, start, end);
      return seriesRange(resample(raw, base, timeframe), fromMs, toMs);
    },

    async importM1(userId, symbol, bars) {
      const source = csvCandleSource(userId);
      const key: ChunkSeries = { source: source.key, userId, symbol, timeframe: 'M1' };
      const n = bars.time.length;
      if (n === 0) return [];
      const written: string[] = [];
      for (const m of monthsOf(bars.time[0]!, bars.time[n - 1]! + 1)) {
        const part = seriesRange(bars, m.start, m.end);
        if (part.time.length === 0) continue;
        const first = part.time[0]!;
        const end = part.time[part.time.length - 1]! + TIMEFRAME_MS.M1;
        await withLock(chunkId(key, m.key), async () => {
          const row = await storedRow(key, m.key);
          const stored = row ? decodeChunk(row.data) : emptySeries();
          const merged = spliceSeries(stored, first, end, part);
          const from = row ? Math.min(row.covered_from, first) : first;
          const to = row ? Math.max(row.covered_to, end) : end;
          await repo.put(rowOf(source, key, m.key, merged, from, to));
        });
        written.push(m.key);
      }
      return written;
    },
  };
}
