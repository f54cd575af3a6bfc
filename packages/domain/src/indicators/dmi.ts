/**
 * Directional Movement Index (Wilder, 1978; TradingView `ta.dmi(diLength, adxSmoothing)`):
 *   +DMᵢ = highᵢ − highᵢ₋₁ when that exceeds lowᵢ₋₁ − lowᵢ and 0, else 0; −DM mirrored;
 *   TRᵢ = max(highᵢ, closeᵢ₋₁) − min(lowᵢ, closeᵢ₋₁) (defined from the second bar on);
 *   +DI = 100 × RMA(+DM) ÷ RMA(TR), −DI likewise, RMA = Wilder's smoothing seeded by the SMA of the
 *   first `diPeriod` values, so the first DI is at index `diPeriod`;
 *   ADX = 100 × RMA(|+DI − −DI| ÷ (+DI + −DI), adxSmoothing), first at index diPeriod + adxSmoothing − 1.
 * When the smoothed TR is 0 the DIs keep their previous values (Pine's `fixnan`), and a zero DI sum
 * counts as 1, as in TradingView.
 */
import type { CandleSeries } from '../candles/series';
import { trueRange } from './atr';
import { chunkEnd } from './chunks';
import { assertPeriod } from './validate';

export interface DmiOptions {
  diPeriod?: number;
  adxSmoothing?: number;
}

export function dmi(
  series: CandleSeries,
  { diPeriod = 14, adxSmoothing = 14 }: DmiOptions = {},
): { plusDi: Float64Array; minusDi: Float64Array; adx: Float64Array } {
  assertPeriod('DMI DI length', diPeriod);
  assertPeriod('DMI ADX smoothing', adxSmoothing);
  const { high, low, close } = series;
  const n = close.length;
  // Bars before the first DI are NaN; later ones are written one by one (NaN where still warming up).
  const plusDi = new Float64Array(n).fill(NaN, 0, diPeriod);
  const minusDi = new Float64Array(n).fill(NaN, 0, diPeriod);
  const adx = new Float64Array(n).fill(NaN, 0, diPeriod);
  if (n <= diPeriod) return { plusDi, minusDi, adx };
  // The smoothings start from the means of bars 1…diPeriod.
  let plusSum = 0;
  let minusSum = 0;
  let trSum = 0;
  for (let i = 1; i <= diPeriod; i++) {
    plusSum += plusMove(high, low, i);
    minusSum += minusMove(high, low, i);
    trSum += trueRange(high[i]!, low[i]!, close[i - 1]!);
  }
  const inverse = 1 / diPeriod;
  const state = Float64Array.of(plusSum * inverse, minusSum * inverse, trSum * inverse, NaN, NaN, 0, 0);
  const out = { plusDi, minusDi, adx };
  for (let i = diPeriod; i < n; i = chunkEnd(i, n))
    dmiChunk(series, diPeriod, adxSmoothing, out, state, i, chunkEnd(i, n));
  return out;
}

/**
 * Bars [from, to) of `dmi` (from ≥ diPeriod). `state` carries (see ./chunks) the smoothed +DM, −DM
 * and TR, the last +DI and −DI, the DX average and how many DX values it has seen.
 */
function dmiChunk(
  { high, low, close }: CandleSeries,
  diPeriod: number,
  adxSmoothing: number,
  { plusDi, minusDi, adx }: { plusDi: Float64Array; minusDi: Float64Array; adx: Float64Array },
  state: Float64Array,
  from: number,
  to: number,
): void {
  const inverse = 1 / diPeriod;
  const keep = diPeriod - 1;
  const adxInverse = 1 / adxSmoothing;
  const adxKeep = adxSmoothing - 1;
  let plusDm = state[0]!;
  let minusDm = state[1]!;
  let tr = state[2]!;
  let plus = state[3]!;
  let minus = state[4]!;
  let dx = state[5]!;
  let dxCount = state[6]! | 0;
  let i = from;
  // Until the first ADX, every rule of the warm-up applies bar by bar.
  for (; i < to && dxCount < adxSmoothing; i++) {
    if (i > diPeriod) {
      plusDm = (plusDm * keep + plusMove(high, low, i)) * inverse;
      minusDm = (minusDm * keep + minusMove(high, low, i)) * inverse;
      tr = (tr * keep + trueRange(high[i]!, low[i]!, close[i - 1]!)) * inverse;
    }
    if (tr !== 0) {
      const scale = 100 / tr;
      plus = plusDm * scale;
      minus = minusDm * scale;
    }
    if (Number.isNaN(plus)) {
      plusDi[i] = minusDi[i] = adx[i] = NaN;
      continue;
    }
    plusDi[i] = plus;
    minusDi[i] = minus;
    const sum = plus + minus;
    dx += Math.abs(plus - minus) / (sum === 0 ? 1 : sum);
    dxCount++;
    if (dxCount < adxSmoothing) {
      adx[i] = NaN;
      continue;
    }
    dx *= adxInverse;
    adx[i] = 100 * dx;
  }
  // After it, every bar smooths all four (a NaN close makes the DIs and the ADX NaN from then on, as
  // in the warm-up).
  for (; i < to; i++) {
    plusDm = (plusDm * keep + plusMove(high, low, i)) * inverse;
    minusDm = (minusDm * keep + minusMove(high, low, i)) * inverse;
    tr = (tr * keep + trueRange(high[i]!, low[i]!, close[i - 1]!)) * inverse;
    if (tr !== 0) {
      const scale = 100 / tr;
      plus = plusDm * scale;
      minus = minusDm * scale;
    }
    plusDi[i] = plus;
    minusDi[i] = minus;
    const sum = plus + minus;
    dx = (dx * adxKeep + Math.abs(plus - minus) / (sum === 0 ? 1 : sum)) * adxInverse;
    adx[i] = 100 * dx;
  }
  state[0] = plusDm;
  state[1] = minusDm;
  state[2] = tr;
  state[3] = plus;
  state[4] = minus;
  state[5] = dx;
  state[6] = dxCount;
}

/** +DM of bar i: the rise of the high when it exceeds the fall of the low and 0, else 0. */
function plusMove(high: Float64Array, low: Float64Array, i: number): number {
  const up = high[i]! - high[i - 1]!;
  const down = low[i - 1]! - low[i]!;
  return up > down && up > 0 ? up : 0;
}

/** −DM of bar i: the fall of the low when it exceeds the rise of the high and 0, else 0. */
function minusMove(high: Float64Array, low: Float64Array, i: number): number {
  const up = high[i]! - high[i - 1]!;
  const down = low[i - 1]! - low[i]!;
  return down > up && down > 0 ? down : 0;
}
