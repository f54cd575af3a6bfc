/**
 * Average True Range over a candle series (Wilder; TradingView `ta.atr`), the same definition as
 * `averageTrueRange` in ../atr.ts: TR of the first bar = high − low, then
 * TRᵢ = max(highᵢ, closeᵢ₋₁) − min(lowᵢ, closeᵢ₋₁); ATR = Wilder's RMA of TR seeded by the mean of
 * the first `period` TRs, so the first value is at index `period − 1`.
 */
import type { CandleSeries } from '../candles/series';
import { DEFAULT_ATR_PERIOD } from '../atr';
import { chunkEnd } from './chunks';
import { assertPeriod } from './validate';

/** True range of one bar given the previous close. */
export function trueRange(high: number, low: number, prevClose: number): number {
  return (high > prevClose ? high : prevClose) - (low < prevClose ? low : prevClose);
}

export function atr(series: CandleSeries, period = DEFAULT_ATR_PERIOD): Float64Array {
  assertPeriod('ATR period', period);
  const n = series.close.length;
  const out = new Float64Array(n).fill(NaN, 0, period - 1);
  const value = new Float64Array(1); // the running sum, then the average (see ./chunks)
  for (let i = 0; i < n; i = chunkEnd(i, n)) atrChunk(series, period, out, value, i, chunkEnd(i, n));
  return out;
}

/** Bars [from, to) of `atr`. */
function atrChunk(
  { high, low, close }: CandleSeries,
  period: number,
  out: Float64Array,
  state: Float64Array,
  from: number,
  to: number,
): void {
  const inverse = 1 / period;
  const keep = period - 1;
  let value = state[0]!;
  for (let i = from; i < to; i++) {
    const tr = i === 0 ? high[0]! - low[0]! : trueRange(high[i]!, low[i]!, close[i - 1]!);
    if (i < period) {
      value += tr;
      if (i < period - 1) continue;
      value *= inverse;
    } else {
      value = (value * keep + tr) * inverse;
    }
    out[i] = value;
  }
  state[0] = value;
}
