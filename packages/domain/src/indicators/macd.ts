/**
 * MACD (Appel; TradingView's MACD indicator with its default EMA oscillator and signal):
 * line = EMA(fast) − EMA(slow), signal = EMA(line, signal) seeded once `signal` line values exist,
 * histogram = line − signal. First line value at index max(fast, slow) − 1, first signal and
 * histogram `signal − 1` bars later. Both EMAs are the same as `ema` (SMA seed, a NaN input restarts
 * the warm-up), run in one pass so no intermediate arrays are allocated.
 */
import { chunkEnd } from './chunks';
import { ema } from './moving-averages';
import { assertPeriod } from './validate';

export interface MacdOptions {
  fast?: number;
  slow?: number;
  signal?: number;
}

/** EMA(fast) − EMA(slow). */
function macdLine(values: Float64Array, fast: number, slow: number): Float64Array {
  const n = values.length;
  const line = new Float64Array(n);
  // Finite values in a row, the two warm-up sums and the two EMAs (see ./chunks).
  const state = Float64Array.of(0, 0, 0, NaN, NaN);
  for (let i = 0; i < n; i = chunkEnd(i, n)) macdChunk(values, fast, slow, line, state, i, chunkEnd(i, n));
  return line;
}

/**
 * Bars [from, to) of `macdLine`: a warm-up loop until both EMAs are seeded (a NaN restarts it), a
 * steady loop after.
 */
function macdChunk(
  values: Float64Array,
  fast: number,
  slow: number,
  line: Float64Array,
  state: Float64Array,
  from: number,
  to: number,
): void {
  const fastAlpha = 2 / (fast + 1);
  const slowAlpha = 2 / (slow + 1);
  const ready = Math.max(fast, slow);
  let count = state[0]! | 0;
  let fastSum = state[1]!;
  let slowSum = state[2]!;
  let fastPrev = state[3]!;
  let slowPrev = state[4]!;
  let i = from;
  while (i < to) {
    if (count < ready) {
      for (; i < to && count < ready; i++) {
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
      if (count < ready) break;
    }
    for (; i < to; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) {
        count = 0; // the warm-up loop takes this bar
        break;
      }
      fastPrev += fastAlpha * (v - fastPrev);
      slowPrev += slowAlpha * (v - slowPrev);
      line[i] = fastPrev - slowPrev;
    }
  }
  state[0] = count;
  state[1] = fastSum;
  state[2] = slowSum;
  state[3] = fastPrev;
  state[4] = slowPrev;
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
