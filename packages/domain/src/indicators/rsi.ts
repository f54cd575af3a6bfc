/**
 * Relative Strength Index (Wilder, 1978; TradingView `ta.rsi` and its RSI indicator): the average
 * gain and the average loss of the last `period` changes, smoothed with Wilder's RMA seeded by their
 * SMA; RSI = 100 − 100 / (1 + gain ÷ loss), 100 when there was no loss, 0 when there was no gain.
 * The first value is at index `period` (it needs `period` changes).
 */
import { movingAverage, sma, smaInto, type MaType } from './moving-averages';
import { rollingStochastic } from './rolling';
import { assertPeriod } from './validate';

export const DEFAULT_RSI_PERIOD = 14;

/** 100 − 100 / (1 + gain/loss), written as 100·gain / (gain + loss): one division. */
function rsiValue(gain: number, loss: number): number {
  return loss === 0 ? 100 : (100 * gain) / (gain + loss);
}

export function rsi(values: Float64Array, period = DEFAULT_RSI_PERIOD): Float64Array {
  assertPeriod('RSI period', period);
  const n = values.length;
  const out = new Float64Array(n);
  if (n > 0) out[0] = NaN;
  const inverse = 1 / period;
  const keep = period - 1;
  let gain = 0;
  let loss = 0;
  let count = 0;
  for (let i = 1; i < n; i++) {
    const change = values[i]! - values[i - 1]!;
    if (Number.isNaN(change)) {
      gain = 0;
      loss = 0;
      count = 0;
      out[i] = NaN;
      continue;
    }
    const up = change > 0 ? change : 0;
    const down = change < 0 ? -change : 0;
    count++;
    if (count <= period) {
      gain += up;
      loss += down;
      if (count < period) {
        out[i] = NaN;
        continue;
      }
      gain *= inverse;
      loss *= inverse;
    } else {
      gain = (gain * keep + up) * inverse;
      loss = (loss * keep + down) * inverse;
    }
    out[i] = rsiValue(gain, loss);
  }
  return out;
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
  const stoch = rollingStochastic(rsi(values, rsiPeriod), stochPeriod);
  const kLine = sma(stoch, k);
  // The raw stochastic is no longer needed: %D is written over it (one array fewer to allocate).
  return { k: kLine, d: smaInto(kLine, d, stoch) };
}
