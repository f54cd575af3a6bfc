/**
 * ATR_SCENARIO: for an entry at a bar's open with a target k × ATR away and a stop m × ATR away, how
 * often the target is reached first. Definitions (worst case inside one bar, horizon) in docs/analysis.md.
 */
import type { CandleSeries } from '../candles/series';
import { DEFAULT_SESSIONS, sessionInstances, type SessionWindow } from './sessions';
import { proportion, quantileSorted, type Proportion } from './stats';

export const DEFAULT_TARGET_MULTIPLES = [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4] as const;
export const DEFAULT_STOP_MULTIPLES = [0.5, 1, 1.5, 2, 2.5, 3] as const;
export const DEFAULT_HORIZON_BARS = 500;

export interface ScenarioCell {
  direction: 'long' | 'short';
  /** Target and stop distances in ATR. */
  k: number;
  m: number;
  wins: number;
  losses: number;
  /** Entries where neither was reached within the horizon (left out of the rate). */
  unresolved: number;
  hitRate: Proportion;
  /** Reward ÷ risk of the cell: k ÷ m. */
  rewardR: number;
  /** p × k/m − (1 − p), in R (risk = m × ATR), before costs. NaN without resolved entries. */
  expectancyR: number;
}

export interface SessionRange {
  session: string;
  count: number;
  mean: number;
  median: number;
  p75: number;
  p90: number;
}

export interface AtrScenarioResult {
  entries: number;
  horizonBars: number;
  cells: ScenarioCell[];
  sessionRanges: SessionRange[];
}

export interface AtrScenarioOptions {
  targets?: readonly number[];
  stops?: readonly number[];
  horizonBars?: number;
  sessions?: readonly SessionWindow[];
}

/**
 * Entry i: at open[i], with A = atr[i − 1] (the ATR known before the bar opened). For each distance
 * level d of the union of target and stop multiples, the first bar j ≥ i whose high reaches
 * open + d·A (up) and whose low reaches open − d·A (down), scanning at most `horizonBars` bars. A long
 * (k, m) wins when its up level k is reached strictly before its down level m; reached in the same bar
 * counts as a loss (which came first inside a bar is unknown: assume the worst). Shorts mirror it.
 */
export function atrScenario(
  series: CandleSeries,
  atr: Float64Array,
  options: AtrScenarioOptions = {},
): AtrScenarioResult {
  const targets = [...(options.targets ?? DEFAULT_TARGET_MULTIPLES)];
  const stops = [...(options.stops ?? DEFAULT_STOP_MULTIPLES)];
  const horizon = options.horizonBars ?? DEFAULT_HORIZON_BARS;
  const levels = [...new Set([...targets, ...stops])].sort((a, b) => a - b);
  const L = levels.length;
  const ti = targets.map((k) => levels.indexOf(k));
  const si = stops.map((m) => levels.indexOf(m));
  const { open, high, low } = series;
  const n = open.length;
  const up = new Float64Array(L);
  const down = new Float64Array(L);
  // counts[(dir * T + t) * S + s] = [wins, losses, unresolved]
  const T = targets.length;
  const S = stops.length;
  const wins = new Float64Array(2 * T * S);
  const losses = new Float64Array(2 * T * S);
  const unresolved = new Float64Array(2 * T * S);
  let entries = 0;
  for (let i = 1; i < n; i++) {
    const a = atr[i - 1]!;
    if (!(a > 0)) continue;
    entries++;
    const o = open[i]!;
    up.fill(Infinity);
    down.fill(Infinity);
    let upDone = 0;
    let downDone = 0;
    const end = Math.min(n, i + horizon);
    for (let j = i; j < end && (upDone < L || downDone < L); j++) {
      const hu = (high[j]! - o) / a;
      while (upDone < L && hu >= levels[upDone]!) up[upDone++] = j;
      const ld = (o - low[j]!) / a;
      while (downDone < L && ld >= levels[downDone]!) down[downDone++] = j;
    }
    for (let t = 0; t < T; t++) {
      for (let s = 0; s < S; s++) {
        // long: target up, stop down; short: target down, stop up
        for (let dir = 0; dir < 2; dir++) {
          const hit = dir === 0 ? up[ti[t]!]! : down[ti[t]!]!;
          const stop = dir === 0 ? down[si[s]!]! : up[si[s]!]!;
          const c = (dir * T + t) * S + s;
          if (hit === Infinity && stop === Infinity) unresolved[c]!++;
          else if (hit < stop) wins[c]!++;
          else losses[c]!++;
        }
      }
    }
  }
  const cells: ScenarioCell[] = [];
  for (let dir = 0; dir < 2; dir++) {
    for (let t = 0; t < T; t++) {
      for (let s = 0; s < S; s++) {
        const c = (dir * T + t) * S + s;
        const w = wins[c]!;
        const l = losses[c]!;
        const k = targets[t]!;
        const m = stops[s]!;
        const p = w + l > 0 ? w / (w + l) : NaN;
        cells.push({
          direction: dir === 0 ? 'long' : 'short',
          k,
          m,
          wins: w,
          losses: l,
          unresolved: unresolved[c]!,
          hitRate: proportion(w, w + l),
          rewardR: k / m,
          expectancyR: p * (k / m) - (1 - p),
        });
      }
    }
  }
  return {
    entries,
    horizonBars: horizon,
    cells,
    sessionRanges: sessionRanges(series, atr, options.sessions ?? DEFAULT_SESSIONS),
  };
}

/** Each session's range (high − low) in ATR of the bar before it opened: how far a session travels. */
export function sessionRanges(
  series: CandleSeries,
  atr: Float64Array,
  sessions: readonly SessionWindow[],
): SessionRange[] {
  const bySession = sessions.map(() => [] as number[]);
  for (const inst of sessionInstances(series, sessions)) {
    const a = atr[inst.firstBar - 1];
    if (a !== undefined && a > 0) bySession[inst.session]!.push((inst.high - inst.low) / a);
  }
  return sessions.map((s, i) => {
    const v = bySession[i]!.sort((a, b) => a - b);
    return {
      session: s.name,
      count: v.length,
      mean: v.length ? v.reduce((x, y) => x + y, 0) / v.length : NaN,
      median: quantileSorted(v, 0.5),
      p75: quantileSorted(v, 0.75),
      p90: quantileSorted(v, 0.9),
    };
  });
}

/** The cells worth trading first: positive expectancy with at least `minSamples` resolved entries, best first. */
export function bestCells(cells: readonly ScenarioCell[], count = 3, minSamples = 30): ScenarioCell[] {
  return cells
    .filter((c) => c.wins + c.losses >= minSamples && c.expectancyR > 0)
    .sort((a, b) => b.expectancyR - a.expectancyR)
    .slice(0, count);
}
