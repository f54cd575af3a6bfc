/**
 * TREND_CONTINUATION: how often the next session closes in the same direction as the previous one.
 * Definitions in docs/analysis.md; the web shows them beside the figures.
 */
import type { CandleSeries } from '../candles/series';
import {
  DEFAULT_SESSIONS,
  consecutiveTransitions,
  sessionInstances,
  transitionPairs,
  type SessionInstance,
  type SessionWindow,
} from './sessions';
import {
  WEEKDAYS,
  bucketLabels,
  bucketOf,
  proportion,
  quantileSorted,
  weekdayOfDay,
  type Proportion,
} from './stats';

export interface BucketRate {
  label: string;
  rate: Proportion;
}

export interface ContinuationTransition {
  from: string;
  to: string;
  /** Pairs whose previous session was not flat. */
  comparableDays: number;
  /** Of those, pairs whose next session closed in the same direction. */
  continuedDays: number;
  /** Pairs left out because the previous session was flat. */
  flatPreviousDays: number;
  rate: Proportion;
  /** Inner edges (in ATR) of the range buckets: the quintiles of the observed ranges. */
  rangeEdges: number[];
  byRange: BucketRate[];
  byWeekday: Array<BucketRate & { weekday: number }>;
}

export interface ContinuationResult {
  transitions: ContinuationTransition[];
}

/** Quantile edges cutting `values` into up to `buckets` groups, strictly ascending (ties merged). */
export function quantileEdges(values: readonly number[], buckets: number): number[] {
  if (values.length === 0) return [];
  const sorted = [...values].sort((a, b) => a - b);
  // Too few values for the full split: halves only.
  const cuts =
    values.length < buckets * 2 ? [0.5] : Array.from({ length: buckets - 1 }, (_, i) => (i + 1) / buckets);
  const edges: number[] = [];
  for (const q of cuts) {
    const e = Math.round(quantileSorted(sorted, q) * 100) / 100;
    if (edges.length === 0 || e > edges[edges.length - 1]!) edges.push(e);
  }
  return edges;
}

/**
 * `atr` is aligned with `series` (NaN during its warm-up). A pair's previous-session range is
 * (high − low) ÷ the ATR at the previous session's last bar; pairs without an ATR there count in the
 * headline rate but not in the range buckets.
 */
export function trendContinuation(
  series: CandleSeries,
  atr: Float64Array,
  sessions: readonly SessionWindow[] = DEFAULT_SESSIONS,
): ContinuationResult {
  const instances = sessionInstances(series, sessions);
  const transitions = consecutiveTransitions(sessions).map(({ from, to }) => {
    const pairs = transitionPairs(instances, { from, to });
    const comparable = pairs.filter(([prev]) => prev.direction !== 0);
    const continued = (p: [SessionInstance, SessionInstance]) => p[1].direction === p[0].direction;
    const continuedDays = comparable.filter(continued).length;

    const ranged = comparable
      .map((p) => ({ p, r: (p[0].high - p[0].low) / atr[p[0].lastBar]! }))
      .filter((x) => Number.isFinite(x.r));
    const rangeEdges = quantileEdges(
      ranged.map((x) => x.r),
      5,
    );
    const rangeCounts = Array.from({ length: rangeEdges.length + 1 }, () => ({ hits: 0, total: 0 }));
    for (const { p, r } of ranged) {
      const c = rangeCounts[bucketOf(r, rangeEdges)]!;
      c.total++;
      if (continued(p)) c.hits++;
    }
    const labels = rangeEdges.length ? bucketLabels(rangeEdges, ' ATR') : ['all'];

    const dayCounts = WEEKDAYS.map(() => ({ hits: 0, total: 0 }));
    for (const p of comparable) {
      const c = dayCounts[weekdayOfDay(p[0].day)]!;
      c.total++;
      if (continued(p)) c.hits++;
    }
    return {
      from: sessions[from]!.name,
      to: sessions[to]!.name,
      comparableDays: comparable.length,
      continuedDays,
      flatPreviousDays: pairs.length - comparable.length,
      rate: proportion(continuedDays, comparable.length),
      rangeEdges,
      byRange: rangeCounts.map((c, i) => ({ label: labels[i]!, rate: proportion(c.hits, c.total) })),
      byWeekday: dayCounts
        .map((c, weekday) => ({ weekday, label: WEEKDAYS[weekday]!, rate: proportion(c.hits, c.total) }))
        .filter((w) => w.rate.total > 0),
    };
  });
  return { transitions };
}
