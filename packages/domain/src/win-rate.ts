/**
 * Required hit rate (minimum win rate) of a trading plan with three partial targets, compounding.
 *
 * Inputs are in the units the trader types: percentages (10 means 10 %), R multiples, a trade count.
 * Outputs are fractions (0.42 means 42 %) except where a name ends in `Pct`.
 *
 * Assumption (shown on the screen too): a winner that reaches target k closes the shares w_1..w_k at
 * R_1..R_k and the rest of the position at breakeven (0R), the usual practice once the first target
 * is hit. A loser loses the full risk (1R).
 */

export interface Splits {
  /** Size share of each target, percent of the position; they add up to 100. */
  w1: number;
  w2: number;
  w3: number;
  /** R multiple of each target. */
  R1: number;
  R2: number;
  R3: number;
  /** Share of winning trades whose furthest reached target is 1, 2, 3; percent, adding up to 100. */
  q1: number;
  q2: number;
  q3: number;
}

export interface WinRateInputs {
  /** Growth goal G over the whole series, percent (10 = +10 %). */
  growthGoal: number;
  /** Risk per trade r, percent of equity (0.5 = 0.5 %). */
  riskPerTrade: number;
  /** Number of trades N (a positive whole number). */
  numTrades: number;
  splits: Splits;
}

export type WinRateField =
  'growthGoal' | 'riskPerTrade' | 'numTrades' | 'sizes' | 'rMultiples' | 'quantities';

export interface WinRateIssue {
  field: WinRateField;
  message: string;
}

export interface WinRateBreakdown {
  /** Average RR of a winner, A = Σ_k q_k · Σ_{i≤k} w_i·R_i. */
  averageRR: number;
  /** Contribution of each target to A: w_i·R_i·Σ_{k≥i} q_k; they add up to averageRR. */
  contributions: [number, number, number];
}

export type WinRateResult =
  | { valid: false; issues: WinRateIssue[] }
  | (WinRateBreakdown & {
      valid: true;
      /** True when a win rate of at most 100 % reaches the goal. */
      reachable: boolean;
      /** Minimum win rate p in [0, 1], or null when the goal is out of reach. */
      minWinRate: number | null;
      /** The formula's value before the out-of-reach check: may exceed 1 or be Infinity. */
      requiredWinRate: number;
    });

/** Sums are typed by hand (33.3 + 33.3 + 33.4): float noise below this is not a wrong sum. */
const SUM_TOLERANCE = 1e-6;
/** p computed as 1.0000000000000002 from an exactly reachable goal is still reachable. */
const REACH_TOLERANCE = 1e-12;

export const WIN_RATE_MESSAGES = {
  growthGoal: 'Growth goal must be a number of 0 or more.',
  riskPerTrade: 'Risk per trade must be a number from 0 up to (not including) 100.',
  numTrades: 'Number of trades must be a whole number of 1 or more.',
  sizes: (sum: number) => `Sizes must add up to 100% (now ${formatSum(sum)}%).`,
  sizesNegative: 'Sizes cannot be negative.',
  rMultiples: 'R multiples must be numbers of 0 or more.',
  quantities: (sum: number) => `Quantities must add up to 100% (now ${formatSum(sum)}%).`,
  quantitiesNegative: 'Quantities cannot be negative.',
} as const;

function formatSum(sum: number): string {
  return Number.isFinite(sum) ? String(Math.round(sum * 100) / 100) : '?';
}

const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Every problem with the inputs, in screen order; empty when they are usable. */
export function validateWinRateInputs(inputs: WinRateInputs): WinRateIssue[] {
  const issues: WinRateIssue[] = [];
  const { growthGoal, riskPerTrade, numTrades, splits: s } = inputs;
  if (!isNum(growthGoal) || growthGoal < 0)
    issues.push({ field: 'growthGoal', message: WIN_RATE_MESSAGES.growthGoal });
  if (!isNum(riskPerTrade) || riskPerTrade < 0 || riskPerTrade >= 100) {
    issues.push({ field: 'riskPerTrade', message: WIN_RATE_MESSAGES.riskPerTrade });
  }
  if (!isNum(numTrades) || !Number.isInteger(numTrades) || numTrades < 1) {
    issues.push({ field: 'numTrades', message: WIN_RATE_MESSAGES.numTrades });
  }
  const sizes = [s.w1, s.w2, s.w3];
  if (sizes.some((w) => isNum(w) && w < 0))
    issues.push({ field: 'sizes', message: WIN_RATE_MESSAGES.sizesNegative });
  else {
    const sum = sizes.reduce((a, b) => a + b, 0);
    if (!isNum(sum) || Math.abs(sum - 100) > SUM_TOLERANCE)
      issues.push({ field: 'sizes', message: WIN_RATE_MESSAGES.sizes(sum) });
  }
  if ([s.R1, s.R2, s.R3].some((R) => !isNum(R) || R < 0)) {
    issues.push({ field: 'rMultiples', message: WIN_RATE_MESSAGES.rMultiples });
  }
  const quantities = [s.q1, s.q2, s.q3];
  if (quantities.some((q) => isNum(q) && q < 0)) {
    issues.push({ field: 'quantities', message: WIN_RATE_MESSAGES.quantitiesNegative });
  } else {
    const sum = quantities.reduce((a, b) => a + b, 0);
    if (!isNum(sum) || Math.abs(sum - 100) > SUM_TOLERANCE) {
      issues.push({ field: 'quantities', message: WIN_RATE_MESSAGES.quantities(sum) });
    }
  }
  return issues;
}

/** Average RR of a winner and each target's share of it (splits already validated). */
export function winnerBreakdown(s: Splits): WinRateBreakdown {
  const w = [s.w1 / 100, s.w2 / 100, s.w3 / 100];
  const R = [s.R1, s.R2, s.R3];
  const q = [s.q1 / 100, s.q2 / 100, s.q3 / 100];
  const contributions = [0, 1, 2].map((i) => {
    let reached = 0; // share of winners that get at least as far as target i
    for (let k = i; k < 3; k++) reached += q[k]!;
    return w[i]! * R[i]! * reached;
  }) as [number, number, number];
  return { averageRR: contributions[0] + contributions[1] + contributions[2], contributions };
}

/**
 * The formula's p for fractions g = G/100, r = r/100 and an average RR A, before any range check:
 * p = (ln(1+g)/N − ln(1−r)) / (ln(1+r·A) − ln(1−r)).
 * With r = 0 equity never moves: p is 0 when no growth is asked, else Infinity (never reached).
 */
export function requiredWinRate(g: number, r: number, averageRR: number, n: number): number {
  const lossLog = Math.log1p(-r);
  const denominator = Math.log1p(r * averageRR) - lossLog;
  const numerator = Math.log1p(g) / n - lossLog;
  if (denominator <= 0) return numerator <= 0 ? 0 : Infinity;
  return numerator / denominator;
}

export function computeWinRate(inputs: WinRateInputs): WinRateResult {
  const issues = validateWinRateInputs(inputs);
  if (issues.length > 0) return { valid: false, issues };
  const breakdown = winnerBreakdown(inputs.splits);
  const p = requiredWinRate(
    inputs.growthGoal / 100,
    inputs.riskPerTrade / 100,
    breakdown.averageRR,
    inputs.numTrades,
  );
  const reachable = p <= 1 + REACH_TOLERANCE;
  return {
    valid: true,
    ...breakdown,
    reachable,
    minWinRate: reachable ? Math.min(1, Math.max(0, p)) : null,
    requiredWinRate: p,
  };
}

export interface WinRatePoint {
  /** Risk per trade, percent. */
  riskPerTrade: number;
  /** Minimum win rate as a fraction, null where the goal is out of reach. */
  minWinRate: number | null;
}

export const CHART_POINTS = 20;
export const CHART_MIN_RISK = 0.1;

/**
 * Minimum win rate against risk per trade: 20 evenly spaced risks from 0.1 % up to the current risk.
 * At a current risk of 0.1 % or less there is no range to spread over, so the one point is the risk
 * itself. Invalid inputs give no points.
 */
export function winRateSeries(inputs: WinRateInputs): WinRatePoint[] {
  if (validateWinRateInputs(inputs).length > 0) return [];
  const { averageRR } = winnerBreakdown(inputs.splits);
  const top = inputs.riskPerTrade;
  const risks =
    top <= CHART_MIN_RISK
      ? [top]
      : Array.from({ length: CHART_POINTS }, (_, j) =>
          j === CHART_POINTS - 1 ? top : CHART_MIN_RISK + ((top - CHART_MIN_RISK) * j) / (CHART_POINTS - 1),
        );
  return risks.map((risk) => {
    const p = requiredWinRate(inputs.growthGoal / 100, risk / 100, averageRR, inputs.numTrades);
    return { riskPerTrade: risk, minWinRate: p <= 1 + REACH_TOLERANCE ? Math.min(1, Math.max(0, p)) : null };
  });
}
