/**
 * Moving averages over a Float64Array, one output per input, NaN while warming up.
 * A NaN input (leading warm-up of another indicator, a gap) restarts the warm-up: the next value
 * appears once `period` finite inputs follow it, as TradingView does when `na` is in the window.
 * Running sums are recomputed from the window every 1,024 bars so rounding cannot drift over a
 * year of M1.
 */
import { chunkEnd } from './chunks';
import { assertPeriod } from './validate';

export type MaType = 'SMA' | 'EMA' | 'WMA';
export const MA_TYPES: readonly MaType[] = ['SMA', 'EMA', 'WMA'];

const RESYNC_MASK = 1023;

/** Simple moving average: mean of the last `period` values. */
export function sma(values: Float64Array, period: number): Float64Array {
  return smaInto(values, period, new Float64Array(values.length));
}

/** `sma` written into `out` (same length, not `values` itself): lets a caller reuse a scratch array. */
export function smaInto(values: Float64Array, period: number, out: Float64Array): Float64Array {
  assertPeriod('SMA period', period);
  return windowAverage(values, period, out, false);
}

/**
 * The mean (SMA) or the linearly weighted mean (WMA, weights 1…period, newest heaviest) of the last
 * `period` values, with running sums: each step adds the new value and drops the oldest; every value
 * in the window loses one weight, so the weighted sum drops the previous plain sum.
 */
function windowAverage(
  values: Float64Array,
  period: number,
  out: Float64Array,
  weighted: boolean,
): Float64Array {
  const n = values.length;
  const state = new Float64Array(3); // plain sum, weighted sum, finite values in a row (see ./chunks)
  for (let i = 0; i < n; i = chunkEnd(i, n))
    windowAverageChunk(values, period, out, weighted, state, i, chunkEnd(i, n));
  return out;
}

/**
 * Bars [from, to) of `windowAverage`: a warm-up loop while fewer than `period` finite values follow
 * the last NaN, a steady loop after (fewer branches per bar than one loop for both).
 */
function windowAverageChunk(
  values: Float64Array,
  period: number,
  out: Float64Array,
  weighted: boolean,
  state: Float64Array,
  from: number,
  to: number,
): void {
  const inverse = weighted ? 2 / (period * (period + 1)) : 1 / period;
  let sum = state[0]!;
  let weightedSum = state[1]!;
  let count = state[2]! | 0;
  let i = from;
  while (i < to) {
    if (count < period) {
      for (; i < to && count < period; i++) {
        const v = values[i]!;
        out[i] = NaN;
        if (Number.isNaN(v)) {
          sum = weightedSum = count = 0;
          continue;
        }
        count++;
        weightedSum += count * v;
        sum += v;
      }
      if (count < period) break;
      if ((count & RESYNC_MASK) === 0) {
        windowSums(values, i - 1, period, state);
        sum = state[0]!;
        weightedSum = state[1]!;
      }
      out[i - 1] = (weighted ? weightedSum : sum) * inverse;
    }
    for (; i < to; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) {
        count = 0; // the warm-up loop takes this bar
        break;
      }
      count++;
      weightedSum += period * v - sum;
      sum += v - values[i - period]!;
      if ((count & RESYNC_MASK) === 0) {
        windowSums(values, i, period, state);
        sum = state[0]!;
        weightedSum = state[1]!;
      }
      out[i] = (weighted ? weightedSum : sum) * inverse;
    }
  }
  state[0] = sum;
  state[1] = weightedSum;
  state[2] = count;
}

/** The plain and the weighted sum (weights 1…period) of the `period` values ending at `last`. */
function windowSums(values: Float64Array, last: number, period: number, sums: Float64Array): void {
  let sum = 0;
  let weightedSum = 0;
  for (let k = 1, j = last - period + 1; j <= last; j++, k++) {
    sum += values[j]!;
    weightedSum += k * values[j]!;
  }
  sums[0] = sum;
  sums[1] = weightedSum;
}

/**
 * Exponential smoothing seeded by the SMA of the first `period` values, then
 * xᵢ' = xᵢ₋₁' + α (xᵢ − xᵢ₋₁'). EMA uses α = 2 / (period + 1); Wilder's RMA uses α = 1 / period.
 */
function smoothed(values: Float64Array, period: number, alpha: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const state = new Float64Array(3); // warm-up sum, finite values in a row, last value (see ./chunks)
  for (let i = 0; i < n; i = chunkEnd(i, n))
    smoothedChunk(values, period, alpha, out, state, i, chunkEnd(i, n));
  return out;
}

/** Bars [from, to) of `smoothed`: warm-up and steady loops, as `windowAverageChunk`. */
function smoothedChunk(
  values: Float64Array,
  period: number,
  alpha: number,
  out: Float64Array,
  state: Float64Array,
  from: number,
  to: number,
): void {
  let sum = state[0]!;
  let count = state[1]! | 0;
  let prev = state[2]!;
  let i = from;
  while (i < to) {
    if (count < period) {
      for (; i < to && count < period; i++) {
        const v = values[i]!;
        out[i] = NaN;
        if (Number.isNaN(v)) {
          sum = count = 0;
          continue;
        }
        count++;
        sum += v;
      }
      if (count < period) break;
      prev = sum / period;
      out[i - 1] = prev;
    }
    for (; i < to; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) {
        count = 0;
        break;
      }
      prev += alpha * (v - prev);
      out[i] = prev;
    }
  }
  state[0] = sum;
  state[1] = count;
  state[2] = prev;
}

/** Exponential moving average (TradingView `ta.ema`, TA-Lib EMA): α = 2 / (period + 1), SMA seed. */
export function ema(values: Float64Array, period: number): Float64Array {
  assertPeriod('EMA period', period);
  return smoothed(values, period, 2 / (period + 1));
}

/** Wilder's moving average (TradingView `ta.rma`, "SMMA"): α = 1 / period, SMA seed. */
export function rma(values: Float64Array, period: number): Float64Array {
  assertPeriod('RMA period', period);
  return smoothed(values, period, 1 / period);
}

/** Linearly weighted moving average: weights 1…period, the newest value weighs `period`. */
export function wma(values: Float64Array, period: number): Float64Array {
  assertPeriod('WMA period', period);
  return windowAverage(values, period, new Float64Array(values.length), true);
}

/** The moving average named by `type` (the RSI smoothing line and similar choices). */
export function movingAverage(values: Float64Array, type: MaType, period: number): Float64Array {
  switch (type) {
    case 'SMA':
      return sma(values, period);
    case 'EMA':
      return ema(values, period);
    case 'WMA':
      return wma(values, period);
    default:
      throw new RangeError(`Unknown moving average type "${String(type)}".`);
  }
}
