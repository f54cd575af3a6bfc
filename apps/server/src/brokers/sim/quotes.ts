import type { Quote } from '../types';
import { hash5, hashIndex, stringId, uniform } from './noise';
import { GRID_MS, type LogPricePath } from './price-path';
import type { SessionTable } from './sessions';
import type { SimSymbolDef } from './symbols';

const SPREAD_SALT = 2000;
/** Instants per batch of `bidsAt`, and the most coarse nodes one batch fills. */
const BIDS_CHUNK = 2048;
const BIDS_MAX_NODES = 4096;

/**
 * Turns a symbol's log-mid path into bid/ask quotes: the spread (in ticks) is the typical spread
 * times the session multiplier times a small per-grid-step jitter, at least one tick; the bid is
 * mid - spread / 2 rounded to the symbol's digits and the ask is bid + spread, so ask > bid always.
 */
export class SymbolPricer {
  private readonly factor: number;
  private readonly spreadTicks: number;
  private readonly spreadKey: number;

  constructor(
    readonly def: SimSymbolDef,
    readonly path: LogPricePath,
    readonly table: SessionTable,
    readonly seed: number,
  ) {
    this.factor = 10 ** def.digits;
    this.spreadTicks = def.spread * this.factor;
    this.spreadKey = hash5(seed, stringId(def.symbol), SPREAD_SALT, 0, 0);
  }

  /** Spread in ticks at grid index k. */
  spreadAt(k: number): number {
    const mult = this.table.spreadMultiplier(k * GRID_MS);
    const jitter = 0.85 + 0.3 * uniform(hashIndex(this.spreadKey, k));
    return Math.max(1, Math.round(this.spreadTicks * mult * jitter));
  }

  /** Bid as an integer number of ticks at grid index k, given log(mid) there. */
  bidTicks(k: number, logMid: number): number {
    return Math.round(Math.exp(logMid) * this.factor - this.spreadAt(k) / 2);
  }

  /** Bid at grid index k (a price rounded to the symbol's digits). */
  bidAt(k: number): number {
    return this.bidTicks(k, this.path.logMid(k)) / this.factor;
  }

  /**
   * Bids at many instants, each equal to `quoteAt(t).bid`, in chunks through `fillWithPoints`: a point
   * is refined from a coarse node instead of walked down from the top of the path, so a year of M1
   * bars costs about what drawing them does (quoteAt one by one is some 20 µs a call).
   */
  bidsAt(times: Float64Array): Float64Array {
    const out = new Float64Array(times.length);
    for (let from = 0; from < times.length; from += BIDS_CHUNK) {
      const ks: number[] = [];
      for (let i = from; i < Math.min(times.length, from + BIDS_CHUNK); i++)
        ks.push(this.gridIndexAt(times[i]!));
      const lo = Math.min(...ks);
      const hi = Math.max(...ks);
      // The finest level whose nodes over the chunk stay few (16 at most, as for candles).
      let level = 0;
      while (level < 16 && (hi - lo) / 2 ** level > BIDS_MAX_NODES) level++;
      const step = 2 ** level;
      const { points } = this.path.fillWithPoints(
        level,
        Math.floor(lo / step),
        Math.floor(hi / step) + 1,
        ks,
      );
      for (let j = 0; j < ks.length; j++) out[from + j] = this.bidTicks(ks[j]!, points[j]!) / this.factor;
    }
    return out;
  }

  /** Grid index of the price in force at t: the last open grid step at or before t. */
  gridIndexAt(t: number): number {
    const openT = this.table.isOpen(t) ? t : this.table.closedSince(t) - GRID_MS;
    return Math.floor(openT / GRID_MS);
  }

  /** The quote at grid index k, stamped `time`. */
  quoteAtGrid(k: number, time: number): Quote {
    const spread = this.spreadAt(k);
    const bid = Math.round(Math.exp(this.path.logMid(k)) * this.factor - spread / 2);
    return { symbol: this.def.symbol, bid: bid / this.factor, ask: (bid + spread) / this.factor, time };
  }

  /** Quote at instant t; while the market is closed, the last quote before the closure (with its time). */
  quoteAt(t: number): Quote {
    if (this.table.isOpen(t)) return this.quoteAtGrid(Math.floor(t / GRID_MS), t);
    const last = this.table.closedSince(t) - GRID_MS;
    return this.quoteAtGrid(Math.floor(last / GRID_MS), last);
  }

  /** Bids (in ticks) at grid indices m * 2^level, m = mFrom..mTo. */
  bidTicksAtLevel(level: number, mFrom: number, mTo: number): Float64Array {
    const logs = this.path.fill(level, mFrom, mTo);
    const step = 2 ** level;
    for (let i = 0; i < logs.length; i++) logs[i] = this.bidTicks((mFrom + i) * step, logs[i]!);
    return logs;
  }

  /** Bids (in ticks) at grid indices m * 2^level, m = mFrom..mTo, and at the extra grid indices `points`. */
  bidTicksWithPoints(level: number, mFrom: number, mTo: number, points: number[]) {
    const r = this.path.fillWithPoints(level, mFrom, mTo, points);
    const step = 2 ** level;
    for (let i = 0; i < r.grid.length; i++) r.grid[i] = this.bidTicks((mFrom + i) * step, r.grid[i]!);
    for (let i = 0; i < r.points.length; i++) r.points[i] = this.bidTicks(points[i]!, r.points[i]!);
    return r;
  }

  get priceFactor(): number {
    return this.factor;
  }
}
