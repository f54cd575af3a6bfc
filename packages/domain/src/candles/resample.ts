import { allocateSeries, type CandleSeries } from './series';
import { sliceSeries } from './series-ops';
import { bucketEnd, bucketStart, TIMEFRAME_MS, type CandleTimeframe } from './timeframes';

/**
 * Timeframes each target can be built from exactly: the source's bars must each fall inside one
 * target bucket. Days open at midnight UTC, so D1 cannot make FX weeks (Sunday 22:00); hours can.
 */
const EXACT_SOURCES: Record<CandleTimeframe, readonly CandleTimeframe[]> = {
  M1: ['M1'],
  M3: ['M1'],
  M5: ['M1', 'M5'],
  M15: ['M1', 'M5', 'M15'],
  M30: ['M1', 'M5', 'M15', 'M30'],
  H1: ['M1', 'M5', 'M15', 'M30', 'H1'],
  H2: ['M1', 'M5', 'M15', 'M30', 'H1', 'H2'],
  H4: ['M1', 'M5', 'M15', 'M30', 'H1', 'H2', 'H4'],
  D1: ['M1', 'M5', 'M15', 'M30', 'H1', 'H2', 'H4', 'D1'],
  W1: ['M1', 'M5', 'M15', 'M30', 'H1', 'H2', 'W1'],
  MN1: ['M1', 'M5', 'M15', 'M30', 'H1', 'H2', 'H4', 'D1', 'MN1'],
};

/** Can bars of `from` be grouped into bars of `to` without splitting any of them? */
export function canResample(from: CandleTimeframe, to: CandleTimeframe): boolean {
  return EXACT_SOURCES[to].includes(from);
}

/**
 * Groups bars (oldest first) into `to` buckets: open of the first bar, high/low the extremes, close
 * of the last bar, volumes summed, time = the bucket's open (see timeframes.ts: FX weeks open Sunday
 * 22:00 UTC, months by calendar). Only buckets holding at least one bar are produced, so weekends,
 * daily breaks and other gaps stay gaps: no synthetic bar is made over a closed market.
 * Throws when `from` bars would straddle `to` buckets (see canResample).
 */
export function resample(series: CandleSeries, from: CandleTimeframe, to: CandleTimeframe): CandleSeries {
  if (!canResample(from, to)) throw new Error(`Cannot build ${to} candles from ${from} candles.`);
  const n = series.time.length;
  if (from === to) return series;
  // Upper bound of the output size: every bar its own bucket, or the span divided by the bucket.
  const span = n === 0 ? 0 : series.time[n - 1]! - series.time[0]!;
  const bound =
    to === 'MN1' ? Math.ceil(span / (28 * 86_400_000)) + 2 : Math.ceil(span / TIMEFRAME_MS[to]) + 2;
  const out = allocateSeries(Math.min(n, bound));
  const { time, open, high, low, close, volume } = series;
  let k = -1;
  let end = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (t >= end || k < 0) {
      const start = bucketStart(to, t);
      end = bucketEnd(to, start);
      k++;
      out.time[k] = start;
      out.open[k] = open[i]!;
      out.high[k] = high[i]!;
      out.low[k] = low[i]!;
      out.close[k] = close[i]!;
      out.volume[k] = volume[i]!;
      continue;
    }
    if (high[i]! > out.high[k]!) out.high[k] = high[i]!;
    if (low[i]! < out.low[k]!) out.low[k] = low[i]!;
    out.close[k] = close[i]!;
    out.volume[k] = out.volume[k]! + volume[i]!;
  }
  return sliceSeries(out, 0, k + 1);
}
