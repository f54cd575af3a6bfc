/**
 * MACD (Appel; TradingView's MACD indicator with its default EMA oscillator and signal):
 * line = EMA(fast) − EMA(slow), signal = EMA(line, signal) seeded once `signal` line values exist,
 * histogram = line − signal. First line value at index max(fast, slow) − 1, first signal and
 * histogram `signal − 1` bars later. Both EMAs are the same as `ema` (SMA seed, a NaN input restarts
 * the warm-up), run in one pass so no intermediate arrays are allocated.
 */
import { ema } from './moving-averages';
import { assertPeriod } from './validate';

export interface MacdOptions {
  fast?: number;
  slow?: number;
  signal?: number;
}

function macdLine(values: Float64Array, fast: number, slow: number): Float64Array {
  const n = values.length;
  const line = new Float64Array(n);
  const fastAlpha = 2 / (fast + 1);
  const slowAlpha = 2 / (slow + 1);
  let count = 0;
  let fastSum = 0;
  let slowSum = 0;
  let fastPrev = NaN;
  let slowPrev = NaN;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) {
      count = fastSum = slowSum = 0;
      line[i] = NaN;
      continue;
    }
    count++;
    if (count < fast) fastSum += v;
    else if (count === fast) fastPrev = (fastSum + v) / fast;
    else fastPrev += fastAlpha * (v - fastPrev);
    if (count < slow) slowSum += v;
    else if (count === slow) slowPrev = (slowSum + v) / slow;
    else slowPrev += slowAlpha * (v - slowPrev);
    line[i] = count >= fast && count >= slow ? fastPrev - slowPrev : NaN;
  }
  return line;
}

export function macd(
  values: Float64Array,
  { fast = 12, slow = 26, signal = 9 }: MacdOptions = {},
): { macd: Float64Array; signal: Float64Array; histogram: Float64Array } {
  assertPeriod('MACD fast length', fast);
  assertPeriod('MACD slow length', slow);
  assertPeriod('MACD signal length', signal);
  const line = macdLine(values, fast, slow);
  const signalLine = ema(line, signal);
  const n = values.length;
  const histogram = new Float64Array(n);
  for (let i = 0; i < n; i++) histogram[i] = line[i]! - signalLine[i]!;
  return { macd: line, signal: signalLine, histogram };
}
