/**
 * Indicators a strategy asks for by name ("ema(21)", "atr(14)", "vwap()"), computed once over the whole
 * series by the domain indicator kernels before the strategy runs. NaN marks bars before an indicator
 * is defined.
 */
import type { CandleSeries } from '../candles/series';
import { atr } from '../indicators/atr';
import { ema, sma, wma } from '../indicators/moving-averages';
import { rsi } from '../indicators/rsi';
import { vwap } from '../indicators/vwap';

const PATTERN = /^([a-z_]+)\((\d*)\)$/;
const CROSS =
  /^(crossover|crossunder)\(([a-z_]+\(\d*\)|close|open|high|low),([a-z_]+\(\d*\)|close|open|high|low)\)$/;
export const INDICATOR_NAMES = [
  'sma(n)',
  'ema(n)',
  'wma(n)',
  'rsi(n)',
  'atr(n)',
  'vwap()',
  'crossover(a,b)',
  'crossunder(a,b)',
] as const;

/**
 * 1 at bar i when a crosses above b (a[i−1] ≤ b[i−1] and a[i] > b[i]), else 0; NaN on either side is
 * no cross. `crossunder(a, b)` is `crossover(b, a)`.
 */
export function crossoverSeries(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 1; i < a.length; i++) if (a[i - 1]! <= b[i - 1]! && a[i]! > b[i]!) out[i] = 1;
  return out;
}

function operand(spec: string, series: CandleSeries, cache?: Map<string, Float64Array>): Float64Array {
  if (spec === 'close' || spec === 'open' || spec === 'high' || spec === 'low') return series[spec];
  return computeIndicator(spec, series, cache);
}

export class IndicatorRequestError extends Error {}

const unknown = (spec: string) =>
  new IndicatorRequestError(`Unknown indicator "${spec}": use one of ${INDICATOR_NAMES.join(', ')}.`);

/**
 * Computes one named indicator; throws IndicatorRequestError for a name or period it does not know.
 * With a `cache` (one per series), a series already computed for another request is reused: the
 * crossings of `ema(12)` and `ema(26)` and the EMAs themselves compute each EMA once. The arrays are
 * shared, so callers must not write into them.
 */
export function computeIndicator(
  spec: string,
  series: CandleSeries,
  cache?: Map<string, Float64Array>,
): Float64Array {
  const clean = spec.replaceAll(' ', '').toLowerCase();
  const known = cache?.get(clean);
  if (known) return known;
  const out = computeClean(clean, spec, series, cache);
  cache?.set(clean, out);
  return out;
}

function computeClean(
  clean: string,
  spec: string,
  series: CandleSeries,
  cache?: Map<string, Float64Array>,
): Float64Array {
  const cross = CROSS.exec(clean);
  if (cross) {
    const [, kind, a, b] = cross;
    const [x, y] = [operand(a!, series, cache), operand(b!, series, cache)];
    return kind === 'crossover' ? crossoverSeries(x, y) : crossoverSeries(y, x);
  }
  const m = PATTERN.exec(clean);
  if (!m) throw unknown(spec);
  const [, name, arg] = m;
  if (name === 'vwap' && arg === '') return vwap(series).vwap; // session (UTC day) VWAP of hlc3
  const period = Number(arg);
  if (!arg || !Number.isInteger(period) || period < 1 || period > 100_000) throw unknown(spec);
  switch (name) {
    case 'sma':
      return sma(series.close, period);
    case 'ema':
      return ema(series.close, period);
    case 'wma':
      return wma(series.close, period);
    case 'rsi':
      return rsi(series.close, period);
    case 'atr':
      return atr(series, period);
    default:
      throw unknown(spec);
  }
}
