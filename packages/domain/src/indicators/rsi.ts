/**
 * Relative Strength Index (Wilder, 1978; TradingView `ta.rsi` and its RSI indicator): the average
 * gain and the average loss of the last `period` changes, smoothed with Wilder's RMA seeded by their
 * SMA; RSI = 100 − 100 / (1 + gain ÷ loss), 100 when there was no loss, 0 when there was no gain.
 * The first value is at index `period` (it needs `period` changes).
 */
import { chunkEnd } from './chunks';
import { movingAverage, type MaType } from './moving-averages';
import { smoothedStochastic } from './rolling';
import { assertPeriod } from './validate';

export const DEFAULT_RSI_PERIOD = 14;

/** 100 − 100 / (1 + gain/loss), written as 100·gain / (gain + loss): one division. */
function rsiValue(gain: number, loss: number): number {
  return loss === 0 ? 100 : (100 * gain) / (gain + loss);
}

export function rsi(values: Float64Array, period = DEFAULT_RSI_PERIOD): Float64Array {
  assertPeriod('RSI period', period);
  return rsiInto(values, period, new Float64Array(values.length));
}

/** `rsi` written into `out`. */
function rsiInto(values: Float64Array, period: number, out: Float64Array): Float64Array {
  const n = values.length;
  if (n > 0) out[0] = NaN;
  const state = new Float64Array(3); // gain, loss, changes in a row (see ./chunks)
  for (let i = Math.min(1, n); i < n; i = chunkEnd(i, n))
    rsiChunk(values, period, out, state, i, chunkEnd(i, n));
  return out;
}

/**
 * Bars [from, to) of `rsiInto` (from ≥ 1): a warm-up loop summing the first `period` changes after
 * a NaN one, a steady loop for Wilder's smoothing after.
 */
function rsiChunk(
  values: Float64Array,
  period: number,
  out: Float64Array,
  state: Float64Array,
  from: number,
  to: number,
): void {
  const inverse = 1 / period;
  const keep = period - 1;
  let gain = state[0]!;
  let loss = state[1]!;
  let count = state[2]! | 0;
  let i = from;
  while (i < to) {
    if (count < period) {
      for (; i < to && count < period; i++) {
        const change = values[i]! - values[i - 1]!;
        out[i] = NaN;
        if (Number.isNaN(change)) {
          gain = loss = count = 0;
          continue;
        }
        count++;
        gain += change > 0 ? change : 0;
        loss += change < 0 ? -change : 0;
      }
      if (count < period) break;
      gain *= inverse;
      loss *= inverse;
      out[i - 1] = rsiValue(gain, loss);
    }
    for (; i < to; i++) {
      const change = values[i]! - values[i - 1]!;
      if (Number.isNaN(change)) {
        count = 0; // the warm-up loop takes this bar
        break;
      }
      gain = (gain * keep + (change > 0 ? change : 0)) * inverse;
      loss = (loss * keep + (change < 0 ? -change : 0)) * inverse;
      out[i] = rsiValue(gain, loss);
    }
  }
  state[0] = gain;
  state[1] = loss;
  state[2] = count;
}

export interface RsiSmoothingOptions {
  period?: number;
  maType?: MaType;
  maPeriod?: number;
}

/**
 * RSI with TradingView's "smoothing line": a moving average (SMA, EMA or WMA) of the RSI itself,
 * starting once `maPeriod` RSI values exist. Defaults as the indicator template: 14, SMA, 14.
 */
export function rsiWithSmoothing(
  values: Float64Array,
  { period = DEFAULT_RSI_PERIOD, maType = 'SMA', maPeriod = 14 }: RsiSmoothingOptions = {},
): { rsi: Float64Array; ma: Float64Array } {
  assertPeriod('RSI smoothing length', maPeriod);
  const line = rsi(values, period);
  return { rsi: line, ma: movingAverage(line, maType, maPeriod) };
}

export interface StochRsiOptions {
  rsiPeriod?: number;
  stochPeriod?: number;
  k?: number;
  d?: number;
}

/**
 * Stochastic RSI (TradingView's "Stoch RSI" indicator): the stochastic of the RSI over
 * `stochPeriod` bars, 100 × (RSI − lowest RSI) ÷ (highest RSI − lowest RSI); %K is its SMA over
 * `k` bars and %D the SMA of %K over `d` bars. A flat RSI window (highest = lowest) has no
 * stochastic (NaN, Pine's `na` for a division by zero) and restarts the %K and %D warm-up.
 * First %K at index rsiPeriod + stochPeriod + k − 2, first %D `d − 1` bars later.
 */
export function stochRsi(
  values: Float64Array,
  { rsiPeriod = DEFAULT_RSI_PERIOD, stochPeriod = 14, k = 3, d = 3 }: StochRsiOptions = {},
): { k: Float64Array; d: Float64Array } {
  assertPeriod('Stoch RSI stochastic length', stochPeriod);
  assertPeriod('Stoch RSI %K smoothing', k);
  assertPeriod('Stoch RSI %D smoothing', d);
  assertPeriod('RSI period', rsiPeriod);
  const n = values.length;
  // The RSI goes into the %D array, each value read before its %D is written over it.
  const dLine = rsiInto(values, rsiPeriod, new Float64Array(n));
  const kLine = new Float64Array(n);
  smoothedStochastic(dLine, stochPeriod, k, d, kLine, dLine);
  return { k: kLine, d: dLine };
}
