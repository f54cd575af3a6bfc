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
  const inverse = 1 / diPeriod;
  const keep = diPeriod - 1;
  const adxInverse = 1 / adxSmoothing;
  const adxKeep = adxSmoothing - 1;
  let plusDm = 0;
  let minusDm = 0;
  let tr = 0;
  let plus = NaN;
  let minus = NaN;
  let dx = 0;
  let dxCount = 0;
  for (let i = 1; i < n; i++) {
    const up = high[i]! - high[i - 1]!;
    const down = low[i - 1]! - low[i]!;
    const pdm = up > down && up > 0 ? up : 0;
    const mdm = down > up && down > 0 ? down : 0;
    const t = trueRange(high[i]!, low[i]!, close[i - 1]!);
    if (i <= diPeriod) {
      plusDm += pdm;
      minusDm += mdm;
      tr += t;
      if (i < diPeriod) continue;
      plusDm *= inverse;
      minusDm *= inverse;
      tr *= inverse;
    } else {
      plusDm = (plusDm * keep + pdm) * inverse;
      minusDm = (minusDm * keep + mdm) * inverse;
      tr = (tr * keep + t) * inverse;
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
    const x = Math.abs(plus - minus) / (sum === 0 ? 1 : sum);
    dxCount++;
    if (dxCount <= adxSmoothing) {
      dx += x;
      if (dxCount < adxSmoothing) {
        adx[i] = NaN;
        continue;
      }
      dx *= adxInverse;
    } else {
      dx = (dx * adxKeep + x) * adxInverse;
    }
    adx[i] = 100 * dx;
  }
  return { plusDi, minusDi, adx };
}
