/** Hand-built candle sets for the analyses' worked cases and properties (tests only). */
import { allocateSeries, type CandleSeries } from '../candles/series';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** Monday 5 January 2026, 00:00 UTC. */
export const MONDAY = Date.UTC(2026, 0, 5);

export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume?: number;
}

export function seriesOf(bars: readonly Bar[]): CandleSeries {
  const s = allocateSeries(bars.length);
  bars.forEach((b, i) => {
    s.time[i] = b.time;
    s.open[i] = b.open;
    s.high[i] = b.high;
    s.low[i] = b.low;
    s.close[i] = b.close;
    s.volume[i] = b.volume ?? 1;
  });
  return s;
}

/**
 * Hourly bars from `startHour` to `endHour` of `day` moving in a straight line from `open` to `close`,
 * each bar's high and low 0.01 outside its open and close.
 */
export function sessionBars(
  day: number,
  startHour: number,
  endHour: number,
  open: number,
  close: number,
): Bar[] {
  const n = endHour - startHour;
  const bars: Bar[] = [];
  for (let h = 0; h < n; h++) {
    const o = open + ((close - open) * h) / n;
    const c = open + ((close - open) * (h + 1)) / n;
    bars.push({
      time: day + (startHour + h) * HOUR,
      open: o,
      high: Math.max(o, c) + 0.01,
      low: Math.min(o, c) - 0.01,
      close: c,
    });
  }
  return bars;
}

/** The price series reflected about `centre`: every up move becomes a down move of the same size. */
export function mirror(s: CandleSeries, centre: number): CandleSeries {
  const m = allocateSeries(s.time.length);
  for (let i = 0; i < s.time.length; i++) {
    m.time[i] = s.time[i]!;
    m.open[i] = centre - s.open[i]!;
    m.close[i] = centre - s.close[i]!;
    m.high[i] = centre - s.low[i]!;
    m.low[i] = centre - s.high[i]!;
    m.volume[i] = s.volume[i]!;
  }
  return m;
}

/** Hourly bars of a random walk from `from` (weekdays only), steps taken from `moves` in turn. */
export function walk(moves: readonly number[], days: number, from = MONDAY): CandleSeries {
  const bars: Bar[] = [];
  let price = 100;
  let k = 0;
  for (let d = 0; d < days; d++) {
    const day = from + d * DAY;
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    for (let h = 0; h < 24; h++) {
      const o = price;
      const c = o + moves[k++ % moves.length]!;
      const wick = Math.abs(moves[k++ % moves.length]!) / 2;
      bars.push({
        time: day + h * HOUR,
        open: o,
        high: Math.max(o, c) + wick,
        low: Math.min(o, c) - wick,
        close: c,
        volume: 1 + (k % 7),
      });
      price = c;
    }
  }
  return seriesOf(bars);
}

export const constant = (n: number, v: number): Float64Array => new Float64Array(n).fill(v);
