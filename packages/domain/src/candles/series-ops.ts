import { allocateSeries, type CandleSeries } from './series';

/** One bar: a row of the columns, as the brokers' adapters hand them over. */
export type CandleBar = { [K in keyof CandleSeries]: number };

/** The columns as plain arrays (for JSON). */
export function seriesColumns(s: CandleSeries): { [K in keyof CandleSeries]: number[] } {
  return {
    time: Array.from(s.time),
    open: Array.from(s.open),
    high: Array.from(s.high),
    low: Array.from(s.low),
    close: Array.from(s.close),
    volume: Array.from(s.volume),
  };
}

export const emptySeries = (): CandleSeries => allocateSeries(0);

/** Bars [start, end) of a series as views (no copy). */
export function sliceSeries(s: CandleSeries, start: number, end: number): CandleSeries {
  return {
    time: s.time.subarray(start, end),
    open: s.open.subarray(start, end),
    high: s.high.subarray(start, end),
    low: s.low.subarray(start, end),
    close: s.close.subarray(start, end),
    volume: s.volume.subarray(start, end),
  };
}

/** Index of the first bar whose time is >= t (the length when none is). */
export function lowerBound(time: Float64Array, t: number): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The bars opening in [fromMs, toMs), as views. */
export function seriesRange(s: CandleSeries, fromMs: number, toMs: number): CandleSeries {
  return sliceSeries(s, lowerBound(s.time, fromMs), lowerBound(s.time, toMs));
}

/** Bars in columns. */
export function seriesFromBars(bars: readonly CandleBar[]): CandleSeries {
  const s = allocateSeries(bars.length);
  for (let i = 0; i < bars.length; i++) {
    const b = bars[i]!;
    s.time[i] = b.time;
    s.open[i] = b.open;
    s.high[i] = b.high;
    s.low[i] = b.low;
    s.close[i] = b.close;
    s.volume[i] = b.volume;
  }
  return s;
}

/** Bar i of a series as an object (for JSON and tests, not for bulk work). */
export function barAt(s: CandleSeries, i: number): CandleBar {
  return {
    time: s.time[i]!,
    open: s.open[i]!,
    high: s.high[i]!,
    low: s.low[i]!,
    close: s.close[i]!,
    volume: s.volume[i]!,
  };
}

/** Series one after the other in one new series (the caller keeps them in time order). */
export function concatSeries(parts: readonly CandleSeries[]): CandleSeries {
  const total = parts.reduce((n, p) => n + p.time.length, 0);
  const out = allocateSeries(total);
  let at = 0;
  for (const p of parts) {
    out.time.set(p.time, at);
    out.open.set(p.open, at);
    out.high.set(p.high, at);
    out.low.set(p.low, at);
    out.close.set(p.close, at);
    out.volume.set(p.volume, at);
    at += p.time.length;
  }
  return out;
}
