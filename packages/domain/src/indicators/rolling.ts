/** Rolling-window helpers shared by the oscillators. */

/**
 * 100 × (x − lowest) ÷ (highest − lowest) over the last `period` values of one series (Pine's
 * `ta.stoch(x, x, x, period)`); NaN while fewer than `period` finite values follow the last NaN,
 * and NaN when the window is flat. The extremes are tracked by index and rescanned only when the
 * one held leaves the window, so the cost stays near one pass for any period.
 */
export function rollingStochastic(values: Float64Array, period: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  let count = 0;
  let hi = -1;
  let lo = -1;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) {
      count = 0;
      out[i] = NaN;
      continue;
    }
    count++;
    const first = i - (count < period ? count : period) + 1;
    if (count === 1) {
      hi = i;
      lo = i;
    } else {
      if (hi < first) {
        hi = first;
        for (let j = first + 1; j <= i; j++) if (values[j]! >= values[hi]!) hi = j;
      } else if (v >= values[hi]!) hi = i;
      if (lo < first) {
        lo = first;
        for (let j = first + 1; j <= i; j++) if (values[j]! <= values[lo]!) lo = j;
      } else if (v <= values[lo]!) lo = i;
    }
    if (count < period) {
      out[i] = NaN;
      continue;
    }
    const range = values[hi]! - values[lo]!;
    out[i] = range === 0 ? NaN : (100 * (v - values[lo]!)) / range;
  }
  return out;
}
