import {
  computeWinRate,
  validateWinRateInputs,
  winnerBreakdown,
  winRateSeries,
  type WinRateInputs,
  type WinRatePoint,
} from './win-rate';

/**
 * Where an out-of-reach goal becomes reachable. With p = (ln(1+g)/N − ln(1−r)) / (ln(1+r·A) − ln(1−r))
 * (see win-rate.ts), p ≤ 1 exactly when ln(1+g)/N ≤ ln(1+r·A): when N winners in a row would reach the
 * goal. That gives both edges in closed form:
 * - the smallest risk per trade: r* = ((1+g)^(1/N) − 1) / A;
 * - the fewest trades at the trader's risk: N* = ⌈ln(1+g) / ln(1+r·A)⌉.
 */
export interface WinRateReach {
  /** The goal is reachable at the inputs as they are. */
  reachable: boolean;
  /** Smallest risk per trade (percent, rounded up to 0.01) that reaches the goal in N trades; null: none below 100 %. */
  minRiskPct: number | null;
  /** Fewest trades at the inputs' risk that reach the goal; null when no number of trades does. */
  minTrades: number | null;
}

/** Float noise (ln(1.1)/ln(1.1) = 1.0000000000000002) must not add a trade. */
const EPS = 1e-9;

/** Null for invalid inputs. */
export function winRateReach(inputs: WinRateInputs): WinRateReach | null {
  const result = computeWinRate(inputs);
  if (!result.valid) return null;
  const A = result.averageRR;
  const g = inputs.growthGoal / 100;
  const r = inputs.riskPerTrade / 100;
  const growthLog = Math.log1p(g);

  let minRiskPct: number | null;
  if (growthLog === 0) minRiskPct = 0;
  else if (A <= 0) minRiskPct = null;
  else {
    const pct = Math.ceil(((Math.expm1(growthLog / inputs.numTrades) / A) * 100 - EPS) * 100) / 100;
    minRiskPct = pct < 100 ? pct : null;
  }

  const winLog = Math.log1p(r * A);
  const minTrades =
    growthLog === 0 ? 1 : winLog > 0 ? Math.max(1, Math.ceil(growthLog / winLog - EPS)) : null;
  return { reachable: result.reachable, minRiskPct, minTrades };
}

export interface WinRateChart {
  points: WinRatePoint[];
  /**
   * True when the goal is out of reach at the trader's risk and the range was stretched past it (to
   * twice the smallest reaching risk, rounded up to 0.1 %), so the line shows where it becomes reachable.
   */
  extended: boolean;
}

/** The spec's chart (20 points from 0.1 % to the risk), stretched only when it would be all gaps at the top. */
export function winRateChart(inputs: WinRateInputs): WinRateChart {
  const points = winRateSeries(inputs);
  if (points.length === 0 || points.at(-1)!.minWinRate !== null) return { points, extended: false };
  if (validateWinRateInputs(inputs).length > 0 || winnerBreakdown(inputs.splits).averageRR <= 0)
    return { points, extended: false };
  const reach = winRateReach(inputs);
  if (!reach || reach.minRiskPct === null) return { points, extended: false };
  const top = Math.min(99, Math.max(inputs.riskPerTrade, Math.ceil(reach.minRiskPct * 2 * 10 - EPS) / 10));
  return { points: winRateSeries({ ...inputs, riskPerTrade: top }), extended: true };
}
