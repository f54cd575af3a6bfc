import type { CandleSeries } from '../candles/series';

/** The price a line is computed from, as in TradingView's "Source" input. */
export type PriceSource = 'open' | 'high' | 'low' | 'close' | 'hl2' | 'hlc3' | 'ohlc4';

export const PRICE_SOURCES: readonly PriceSource[] = ['open', 'high', 'low', 'close', 'hl2', 'hlc3', 'ohlc4'];

/**
 * Each source as weights of open, high, low, close and a divisor: hl2 = (H+L)/2, hlc3 = (H+L+C)/3,
 * ohlc4 = (O+H+L+C)/4. A weight of 0 or 1 leaves the sum exact, so (0·O + H + L + 0·C) / 2 is
 * bit for bit (H + L) / 2.
 */
export type SourceWeights = readonly [
  open: number,
  high: number,
  low: number,
  close: number,
  divisor: number,
];

const WEIGHTS: Record<PriceSource, SourceWeights> = {
  open: [1, 0, 0, 0, 1],
  high: [0, 1, 0, 0, 1],
  low: [0, 0, 1, 0, 1],
  close: [0, 0, 0, 1, 1],
  hl2: [0, 1, 1, 0, 2],
  hlc3: [0, 1, 1, 1, 3],
  ohlc4: [1, 1, 1, 1, 4],
};

/** The weights of `source`, for kernels that read the price bar by bar instead of allocating it. */
export function sourceWeights(source: PriceSource): SourceWeights {
  const w = Object.hasOwn(WEIGHTS, source) ? WEIGHTS[source] : undefined;
  if (!w) throw new RangeError(`Unknown price source "${String(source)}".`);
  return w;
}

/**
 * One price per bar: a column itself for open/high/low/close (the same array, not a copy: do not
 * write into it), else hl2, hlc3 or ohlc4 in a new array.
 */
export function priceSource(series: CandleSeries, source: PriceSource): Float64Array {
  const [wo, wh, wl, wc, divisor] = sourceWeights(source);
  if (divisor === 1) return wo ? series.open : wh ? series.high : wl ? series.low : series.close;
  const { open, high, low, close } = series;
  const out = new Float64Array(close.length);
  for (let i = 0; i < out.length; i++)
    out[i] = (wo * open[i]! + wh * high[i]! + wl * low[i]! + wc * close[i]!) / divisor;
  return out;
}
