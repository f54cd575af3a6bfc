/**
 * VWAP_CONDITIONAL: where a session closed against the day's VWAP, and how the next session went.
 * Definitions in docs/analysis.md.
 */
import type { CandleSeries } from '../candles/series';
import {
  DEFAULT_SESSIONS,
  consecutiveTransitions,
  sessionInstances,
  transitionPairs,
  type SessionWindow,
} from './sessions';
import { proportion, type Proportion } from './stats';

export type VwapPosition = 'above' | 'below' | 'at';
export const VWAP_POSITIONS: readonly VwapPosition[] = ['above', 'below', 'at'];

export interface DirectionSplit {
  up: Proportion;
  down: Proportion;
  flat: Proportion;
  total: number;
}

export interface VwapTransition {
  from: string;
  to: string;
  byPosition: Record<VwapPosition, DirectionSplit>;
  /** Signed distance of the close from VWAP in ATR, most negative first. */
  byDistance: Array<{ label: string; split: DirectionSplit }>;
}

export interface VwapConditionalResult {
  transitions: VwapTransition[];
}

/** A close within this fraction of the price of VWAP is "at" it (float noise, not a real level). */
const AT_TOLERANCE = 1e-9;
/** Magnitude edges of the distance buckets in ATR, mirrored below VWAP: symmetric by construction. */
export const DISTANCE_EDGES = [0.5, 1, 2] as const;

export function vwapPosition(close: number, vwap: number): VwapPosition {
  if (Math.abs(close - vwap) <= AT_TOLERANCE * Math.abs(close)) return 'at';
  return close > vwap ? 'above' : 'below';
}

function distanceLabels(): string[] {
  const mags = DISTANCE_EDGES.map((e, i) => (i === 0 ? `0–${e}` : `${DISTANCE_EDGES[i - 1]}–${e}`));
  mags.push(`≥ ${DISTANCE_EDGES[DISTANCE_EDGES.length - 1]}`);
  return [...mags.map((m) => `below by ${m} ATR`).reverse(), ...mags.map((m) => `above by ${m} ATR`)];
}

/** Bucket of a signed distance: 0 … n−1 below VWAP (farthest first), n … 2n−1 above (nearest first). */
export function distanceBucket(d: number): number {
  const mag = Math.abs(d);
  let m = 0;
  while (m < DISTANCE_EDGES.length && mag >= DISTANCE_EDGES[m]!) m++;
  const n = DISTANCE_EDGES.length + 1;
  return d < 0 ? n - 1 - m : n + m;
}

interface Counts {
  up: number;
  down: number;
  flat: number;
}
const empty = (): Counts => ({ up: 0, down: 0, flat: 0 });
function split(c: Counts): DirectionSplit {
  const total = c.up + c.down + c.flat;
  return {
    up: proportion(c.up, total),
    down: proportion(c.down, total),
    flat: proportion(c.flat, total),
    total,
  };
}
function add(c: Counts, direction: number): void {
  if (direction > 0) c.up++;
  else if (direction < 0) c.down++;
  else c.flat++;
}

/**
 * `vwap` is the daily VWAP aligned with `series` (typical price × volume cumulated from 00:00 UTC),
 * `atr` the ATR aligned with it; both NaN where undefined. A session's position is its close against
 * the VWAP of its last bar; sessions without a VWAP there are left out.
 */
export function vwapConditional(
  series: CandleSeries,
  vwap: Float64Array,
  atr: Float64Array,
  sessions: readonly SessionWindow[] = DEFAULT_SESSIONS,
): VwapConditionalResult {
  const instances = sessionInstances(series, sessions);
  const labels = distanceLabels();
  const transitions = consecutiveTransitions(sessions).map(({ from, to }) => {
    const byPosition: Record<VwapPosition, Counts> = { above: empty(), below: empty(), at: empty() };
    const byDistance = labels.map(empty);
    for (const [prev, next] of transitionPairs(instances, { from, to })) {
      const v = vwap[prev.lastBar]!;
      if (!Number.isFinite(v)) continue;
      const position = vwapPosition(prev.close, v);
      add(byPosition[position], next.direction);
      const a = atr[prev.lastBar]!;
      if (position !== 'at' && Number.isFinite(a) && a > 0) {
        add(byDistance[distanceBucket((prev.close - v) / a)]!, next.direction);
      }
    }
    return {
      from: sessions[from]!.name,
      to: sessions[to]!.name,
      byPosition: {
        above: split(byPosition.above),
        below: split(byPosition.below),
        at: split(byPosition.at),
      },
      byDistance: byDistance.map((c, i) => ({ label: labels[i]!, split: split(c) })),
    };
  });
  return { transitions };
}
