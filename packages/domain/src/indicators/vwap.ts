/**
 * Session-anchored VWAP with standard-deviation bands (TradingView's VWAP indicator, `ta.vwap` with
 * bands "Standard Deviation"): from the first bar of each session,
 *   VWAP = Σ vᵢ·xᵢ ÷ Σ vᵢ,  σ = √(Σ vᵢ·(xᵢ − VWAP)² ÷ Σ vᵢ)  (volume-weighted population deviation),
 *   band k: VWAP ± k·σ.
 * x is the source price (hlc3 by default). σ is accumulated with West's weighted update rather than
 * Σv·x² ÷ Σv − VWAP², which loses most digits when prices are large and the spread small. Bars
 * before the session's first traded volume are NaN. One pass: the bands are written with the line.
 */
import type { CandleSeries } from '../candles/series';
import { chunkEnd } from './chunks';
import { sessionBounds, type SessionAnchor } from './sessions';
import { sourceWeights, type PriceSource } from './source';

export interface VwapOptions {
  /** Where sessions start: a UTC day/week/month (shifted by `offsetMs`) or a session-key function. */
  anchor?: SessionAnchor;
  /** Band multiples of σ, e.g. [1, 2, 3]: one upper and one lower line per multiple. */
  bands?: readonly number[];
  source?: PriceSource;
  /** Shift of the built-in anchors' boundaries, e.g. FX_SESSION_OFFSET_MS for 22:00 UTC. */
  offsetMs?: number;
}

export function vwap(
  series: CandleSeries,
  { anchor = 'day', bands = [], source = 'hlc3', offsetMs = 0 }: VwapOptions = {},
): { vwap: Float64Array; upper: Float64Array[]; lower: Float64Array[] } {
  for (const b of bands)
    if (!Number.isFinite(b)) throw new RangeError(`VWAP band multiple must be finite, got ${b}.`);
  const weights = Float64Array.from(sourceWeights(source));
  const n = series.close.length;
  const sessions = sessionBounds(series.time, anchor, offsetMs);
  const lines: VwapLines = {
    vwap: new Float64Array(n),
    upper: bands.map(() => new Float64Array(n)),
    lower: bands.map(() => new Float64Array(n)),
    multiples: Float64Array.from(bands),
  };
  // Σv, the weighted mean and Σv·(x − mean)², from 0 at each session's start (see ./chunks).
  const state = new Float64Array(3);
  for (let i = 0; i < n;) {
    const next = sessions.next(i);
    state.fill(0);
    for (; i < next; i = chunkEnd(i, next)) vwapChunk(series, weights, lines, state, i, chunkEnd(i, next));
  }
  return { vwap: lines.vwap, upper: lines.upper, lower: lines.lower };
}

interface VwapLines {
  vwap: Float64Array;
  upper: Float64Array[];
  lower: Float64Array[];
  /** The band multiples, one per upper and lower line. */
  multiples: Float64Array;
}

/**
 * Bars [from, to) of one session: the VWAP, σ and the bands. `weights` are the source's weights of
 * open, high, low and close and its divisor (see `sourceWeights`).
 */
function vwapChunk(
  { open, high, low, close, volume }: CandleSeries,
  weights: Float64Array,
  { vwap: line, upper, lower, multiples }: VwapLines,
  state: Float64Array,
  from: number,
  to: number,
): void {
  const wo = weights[0]!;
  const wh = weights[1]!;
  const wl = weights[2]!;
  const wc = weights[3]!;
  const divisor = weights[4]!;
  const bandCount = multiples.length;
  let weight = state[0]!;
  let mean = state[1]!;
  let squares = state[2]!;
  for (let i = from; i < to; i++) {
    const w = volume[i]!;
    if (w > 0) {
      const x = (wo * open[i]! + wh * high[i]! + wl * low[i]! + wc * close[i]!) / divisor;
      weight += w;
      const delta = x - mean;
      mean += (w / weight) * delta;
      squares += w * delta * (x - mean);
    }
    if (weight > 0) {
      line[i] = mean;
      if (bandCount === 0) continue;
      const sigma = squares > 0 ? Math.sqrt(squares / weight) : 0;
      for (let j = 0; j < bandCount; j++) {
        const width = multiples[j]! * sigma;
        lower[j]![i] = mean - width;
        upper[j]![i] = mean + width;
      }
    } else {
      line[i] = NaN;
      for (let j = 0; j < bandCount; j++) lower[j]![i] = upper[j]![i] = NaN;
    }
  }
  state[0] = weight;
  state[1] = mean;
  state[2] = squares;
}
