/**
 * Session-anchored VWAP with standard-deviation bands (TradingView's VWAP indicator, `ta.vwap` with
 * bands "Standard Deviation"): from the first bar of each session,
 *   VWAP = Σ vᵢ·xᵢ ÷ Σ vᵢ,  σ = √(Σ vᵢ·(xᵢ − VWAP)² ÷ Σ vᵢ)  (volume-weighted population deviation),
 *   band k: VWAP ± k·σ.
 * x is the source price (hlc3 by default). σ is accumulated with West's weighted update rather than
 * Σv·x² ÷ Σv − VWAP², which loses most digits when prices are large and the spread small. Bars
 * before the session's first traded volume are NaN.
 */
import type { CandleSeries } from '../candles/series';
import { sessionStarts, type SessionAnchor } from './sessions';
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
  const [wo, wh, wl, wc, divisor] = sourceWeights(source);
  const { open, high, low, close, volume } = series;
  const n = close.length;
  const starts = sessionStarts(series.time, anchor, offsetMs);
  const line = new Float64Array(n);
  const upper = bands.map(() => new Float64Array(n));
  const lower = bands.map(() => new Float64Array(n));
  // σ goes into the first upper band first; the bands are then derived from it in simple passes.
  const sigma = upper[0] ?? new Float64Array(0);
  const keepSigma = bands.length > 0;
  let weight = 0;
  let mean = 0;
  let squares = 0;
  for (let i = 0; i < n; i++) {
    if (starts[i] === 1) {
      weight = 0;
      mean = 0;
      squares = 0;
    }
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
      if (keepSigma) sigma[i] = squares > 0 ? Math.sqrt(squares / weight) : 0;
    } else {
      line[i] = NaN;
      if (keepSigma) sigma[i] = NaN;
    }
  }
  // Last band first: the first upper band holds σ until its own pass.
  for (let j = bands.length - 1; j >= 0; j--) writeBand(line, sigma, bands[j]!, upper[j]!, lower[j]!);
  return { vwap: line, upper, lower };
}

/**
 * VWAP ± k·σ into `up` and `down`. A function of its own so that V8 optimises this loop by itself:
 * written inline after the accumulation loop, it ran unoptimised (the optimised code of that loop
 * gave up on reaching it, having no type feedback for it). `up` may be `sigma` itself: each σ is
 * read before it is overwritten.
 */
function writeBand(
  line: Float64Array,
  sigma: Float64Array,
  k: number,
  up: Float64Array,
  down: Float64Array,
): void {
  for (let i = 0; i < line.length; i++) {
    const width = k * sigma[i]!;
    down[i] = line[i]! - width;
    up[i] = line[i]! + width;
  }
}
