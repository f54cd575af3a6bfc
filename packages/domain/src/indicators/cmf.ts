/**
 * Chaikin Money Flow (TradingView's CMF indicator):
 *   money-flow volume = ((close − low) − (high − close)) ÷ (high − low) × volume, 0 when high = low;
 *   CMF = Σ money-flow volume ÷ Σ volume over the last `period` bars, NaN when that volume is 0.
 * First value at index `period − 1`. The window's flows are kept in a ring of `period` numbers, and
 * the running sums are recomputed from the window every 1,024 bars.
 */
import type { CandleSeries } from '../candles/series';
import { chunkEnd } from './chunks';
import { assertPeriod } from './validate';

export const DEFAULT_CMF_PERIOD = 20;

function moneyFlowVolume(high: number, low: number, close: number, volume: number): number {
  const range = high - low;
  return range === 0 ? 0 : ((close - low - (high - close)) / range) * volume;
}

export function cmf(series: CandleSeries, period = DEFAULT_CMF_PERIOD): Float64Array {
  assertPeriod('CMF length', period);
  const n = series.close.length;
  const out = new Float64Array(n);
  const ring = new Float64Array(period);
  const state = new Float64Array(3); // flow sum, volume sum, ring slot (see ./chunks)
  for (let i = 0; i < n; i = chunkEnd(i, n)) cmfChunk(series, period, out, ring, state, i, chunkEnd(i, n));
  return out;
}

/** Bars [from, to) of `cmf`; the window's flows are in `ring`. */
function cmfChunk(
  { high, low, close, volume }: CandleSeries,
  period: number,
  out: Float64Array,
  ring: Float64Array,
  state: Float64Array,
  from: number,
  to: number,
): void {
  let flowSum = state[0]!;
  let volumeSum = state[1]!;
  let slot = state[2]! | 0;
  for (let i = from; i < to; i++) {
    const flow = moneyFlowVolume(high[i]!, low[i]!, close[i]!, volume[i]!);
    flowSum += flow - ring[slot]!; // the ring holds 0 until the window is full
    ring[slot] = flow;
    slot = slot + 1 === period ? 0 : slot + 1;
    volumeSum += volume[i]!;
    if (i >= period) volumeSum -= volume[i - period]!;
    if (i < period - 1) {
      out[i] = NaN;
      continue;
    }
    if (((i + 1) & 1023) === 0) {
      flowSum = 0;
      volumeSum = 0;
      for (let j = 0; j < period; j++) flowSum += ring[j]!;
      for (let j = i - period + 1; j <= i; j++) volumeSum += volume[j]!;
    }
    out[i] = volumeSum === 0 ? NaN : flowSum / volumeSum;
  }
  state[0] = flowSum;
  state[1] = volumeSum;
  state[2] = slot;
}
