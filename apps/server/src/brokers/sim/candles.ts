import type { Candle, Timeframe } from '../types';
import { BrokerError, TIMEFRAME_SECONDS } from '../types';
import { hash5, stringId, uniform } from './noise';
import { GRID_MS } from './price-path';
import type { SymbolPricer } from './quotes';
import { WEEK_MS, WEEK_ORIGIN_MS } from './sessions';

/**
 * Candles on demand, built from the same price path as the live quotes (bid prices, as most
 * platforms chart):
 * - open  = bid at the first open instant of the candle,
 * - close = bid of quoteAt(end - 1 ms), i.e. the last price in force in the candle; for the candle
 *   forming at `now` it is quoteAt(now),
 * - high/low = extremes of the bid over the path sampled every 2^level grid steps (250 ms for M1,
 *   so M1 extremes are exact; coarser for longer timeframes so that 10 years of D1 stay fast),
 *   always including open and close;
 * - volume = tick volume, proportional to the session activity in the candle.
 * Candles entirely inside a closure (FX weekends, index daily breaks) are not produced.
 * Buckets are UTC: D1 at midnight, W1 on Sunday 00:00, MN1 on the first of the month.
 */

/** Sampling level per timeframe: the path is read every 2^level x 250 ms for highs and lows. */
export const CANDLE_LEVEL: Record<Timeframe, number> = {
  M1: 0, // 250 ms, 240 points
  M5: 2, // 1 s, 300 points
  M15: 4, // 4 s, 225 points
  M30: 5, // 8 s, 225 points
  H1: 6, // 16 s, 225 points
  H4: 8, // 64 s, 225 points
  D1: 12, // 1024 s, 84 points
  W1: 14, // 4096 s, 147 points
  MN1: 16, // 16384 s, about 160 points
};

/** Tick volume per second of ordinary activity. */
const TICKS_PER_ACTIVE_SECOND = 1.5;
const VOLUME_SALT = 3000;
/** Most candles one call may produce (about 12 M grid points on M1, a few seconds of CPU). */
export const MAX_CANDLES = 50_000;
/** Candles computed per batch (bounds memory for long ranges). */
const BATCH = 1024;

/** Open time of the candle containing t. */
export function bucketStart(tf: Timeframe, t: number): number {
  if (tf === 'MN1') {
    const d = new Date(t);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  if (tf === 'W1') return WEEK_ORIGIN_MS + Math.floor((t - WEEK_ORIGIN_MS) / WEEK_MS) * WEEK_MS;
  const len = TIMEFRAME_SECONDS[tf] * 1000;
  return Math.floor(t / len) * len;
}

/** Open time of the candle after the one opening at `start`. */
export function nextBucket(tf: Timeframe, start: number): number {
  if (tf === 'MN1') {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  if (tf === 'W1') return start + WEEK_MS;
  return start + TIMEFRAME_SECONDS[tf] * 1000;
}

interface Span {
  time: number;
  /** Grid index of the first open instant. */
  kOpen: number;
  /** Grid index of the last price in force (close). */
  kClose: number;
  firstOpen: number;
  lastT: number;
  /** Ended before `now`: its values are final. */
  complete: boolean;
}

export function buildCandles(
  pricer: SymbolPricer,
  tf: Timeframe,
  fromMs: number,
  toMs: number,
  nowMs: number,
  cache?: CandleCache,
): Candle[] {
  const table = pricer.table;
  const spans: Span[] = [];
  let start = bucketStart(tf, fromMs);
  if (start < fromMs) start = nextBucket(tf, start);
  while (start < toMs && start <= nowMs) {
    if (spans.length >= MAX_CANDLES) {
      throw new BrokerError(
        `Too many candles requested; ask for at most ${MAX_CANDLES} at a time.`,
        'rejected',
      );
    }
    const next = nextBucket(tf, start);
    const end = Math.min(next, nowMs + 1);
    const firstOpen = table.nextOpenAtOrAfter(start);
    if (firstOpen >= end) {
      // Closed all along: jump straight to the bucket where the market reopens.
      start = Math.max(next, bucketStart(tf, firstOpen));
      continue;
    }
    let lastT = end - 1;
    if (!table.isOpen(lastT)) lastT = table.closedSince(lastT) - GRID_MS;
    spans.push({
      time: start,
      kOpen: Math.floor(firstOpen / GRID_MS),
      kClose: Math.floor(lastT / GRID_MS),
      firstOpen,
      lastT,
      complete: next <= nowMs,
    });
    start = next;
  }
  if (!cache) {
    const out: Candle[] = [];
    for (let i = 0; i < spans.length; i += BATCH) buildBatch(pricer, tf, spans.slice(i, i + BATCH), out);
    return out;
  }
  // Completed candles never change: serve them from the cache, compute runs of missing ones.
  const prefix = `${pricer.def.symbol}|${tf}|`;
  const result: Candle[] = new Array<Candle>(spans.length);
  let runStart = -1;
  const flush = (endExclusive: number) => {
    if (runStart < 0) return;
    const run = spans.slice(runStart, endExclusive);
    const built: Candle[] = [];
    for (let i = 0; i < run.length; i += BATCH) buildBatch(pricer, tf, run.slice(i, i + BATCH), built);
    for (let i = 0; i < built.length; i++) {
      const c = built[i]!;
      result[runStart + i] = c;
      if (run[i]!.complete) cache.set(prefix + c.time, c);
    }
    runStart = -1;
  };
  for (let i = 0; i < spans.length; i++) {
    const hit = spans[i]!.complete ? cache.get(prefix + spans[i]!.time) : undefined;
    if (hit) {
      flush(i);
      result[i] = hit;
    } else if (runStart < 0) runStart = i;
  }
  flush(spans.length);
  return result.map((c) => ({ ...c }));
}

/** A bounded cache of completed candles (least recently used out first). */
export class CandleCache {
  private readonly map = new Map<string, Candle>();

  constructor(private readonly max = 200_000) {}

  get(key: string): Candle | undefined {
    const c = this.map.get(key);
    if (c) {
      this.map.delete(key);
      this.map.set(key, c);
    }
    return c;
  }

  set(key: string, c: Candle): void {
    this.map.delete(key);
    this.map.set(key, c);
    while (this.map.size > this.max) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }
}

function buildBatch(pricer: SymbolPricer, tf: Timeframe, spans: Span[], out: Candle[]): void {
  if (spans.length === 0) return;
  const level = CANDLE_LEVEL[tf];
  const step = 2 ** level;
  const factor = pricer.priceFactor;
  const table = pricer.table;
  const symId = stringId(pricer.def.symbol);
  const first = spans[0]!;
  const last = spans[spans.length - 1]!;
  const mFrom = Math.floor(first.kOpen / step);
  const mTo = Math.ceil(last.kClose / step);
  const ends: number[] = [];
  for (const s of spans) ends.push(s.kOpen, s.kClose);
  const { grid: bids, points } = pricer.bidTicksWithPoints(level, mFrom, mTo, ends);
  for (let c = 0; c < spans.length; c++) {
    const s = spans[c]!;
    const open = points[2 * c]!;
    const close = points[2 * c + 1]!;
    let high = Math.max(open, close);
    let low = Math.min(open, close);
    const m0 = Math.max(mFrom, Math.ceil(s.kOpen / step));
    const m1 = Math.min(mTo, Math.floor(s.kClose / step));
    for (let m = m0; m <= m1; m++) {
      const b = bids[m - mFrom]!;
      if (b > high || b < low) {
        // Sampled points inside a closure carry a price nobody could trade: skip them.
        if (!table.isOpen(m * step * GRID_MS)) continue;
        if (b > high) high = b;
        if (b < low) low = b;
      }
    }
    const active = table.activitySeconds(s.lastT + GRID_MS) - table.activitySeconds(s.firstOpen);
    const jitter = 0.8 + 0.4 * uniform(hash5(pricer.seed, symId, VOLUME_SALT, 0, s.time / 60_000));
    out.push({
      time: s.time,
      open: open / factor,
      high: high / factor,
      low: low / factor,
      close: close / factor,
      volume: Math.max(1, Math.round(active * TICKS_PER_ACTIVE_SECOND * jitter)),
    });
  }
}
