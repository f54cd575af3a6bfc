/**
 * Moving averages over a Float64Array, one output per input, NaN while warming up.
 * A NaN input (leading warm-up of another indicator, a gap) restarts the warm-up: the next value
 * appears once `period` finite inputs follow it, as TradingView does when `na` is in the window.
 * Running sums are recomputed from the window every 1,024 bars so rounding cannot drift over a
 * year of M1.
 */
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
  const inverse = weighted ? 2 / (period * (period + 1)) : 1 / period;
  let sum = 0;
  let weightedSum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) {
      sum = weightedSum = count = 0;
      out[i] = NaN;
      continue;
    }
    count++;
    if (count <= period) {
      weightedSum += count * v;
      sum += v;
    } else {
      weightedSum += period * v - sum;
      sum += v - values[i - period]!;
    }
    if (count < period) {
      out[i] = NaN;
      continue;
    }
    if ((count & RESYNC_MASK) === 0) {
      sum = weightedSum = 0;
      for (let k = 1, j = i - period + 1; j <= i; j++, k++) {
        sum += values[j]!;
        weightedSum += k * values[j]!;
      }
    }
    out[i] = (weighted ? weightedSum : sum) * inverse;
  }
  return out;
}

/**
 * Exponential smoothing seeded by the SMA of the first `period` values, then
 * xᵢ' = xᵢ₋₁' + α (xᵢ − xᵢ₋₁'). EMA uses α = 2 / (period + 1); Wilder's RMA uses α = 1 / period.
 */
function smoothed(values: Float64Array, period: number, alpha: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  let sum = 0;
  let count = 0;
  let prev = NaN;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) {
      sum = 0;
      count = 0;
      out[i] = NaN;
      continue;
    }
    count++;
    if (count < period) {
      sum += v;
      out[i] = NaN;
    } else if (count === period) {
      prev = (sum + v) / period;
      out[i] = prev;
    } else {
      prev += alpha * (v - prev);
      out[i] = prev;
    }
  }
  return out;
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
