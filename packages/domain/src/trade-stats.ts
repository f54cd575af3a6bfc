/**
 * Performance figures of a set of closed trades (the history screen's stats strip and equity curve).
 * Money is in integer minor units of the account currency and is summed as integers.
 */

export interface ClosedTradeForStats {
  /** Realised P/L including commission and swap, minor units. */
  pnl_minor: number;
  /** Money the trade risked when it was opened (entry to initial stop), minor units; null when unknown. */
  initial_risk_minor: number | null;
  /** ISO 8601 instant of the last closing deal. */
  closed_at: string;
}

export interface EquityPoint {
  time: string;
  /** Cumulative realised P/L after this trade (plus the starting balance when one was given), minor units. */
  equity_minor: number;
}

export interface TradeStats {
  trades: number;
  wins: number;
  losses: number;
  breakeven: number;
  /** wins / trades, 0..1; null without trades. */
  win_rate: number | null;
  /** gross profit / gross loss; null when there is no loss (undefined ratio). */
  profit_factor: number | null;
  gross_profit_minor: number;
  gross_loss_minor: number;
  net_minor: number;
  avg_win_minor: number | null;
  avg_loss_minor: number | null;
  /** Average P/L per trade, minor units (rounded). */
  expectancy_minor: number | null;
  /** Average R per trade over the trades whose initial risk is known; null when none is. */
  expectancy_r: number | null;
  /** How many trades the R figure is based on. */
  r_trades: number;
  best_minor: number | null;
  worst_minor: number | null;
  /** Largest peak-to-trough fall of the closed-trade equity curve, minor units (>= 0). */
  max_drawdown_minor: number;
  /** The same fall relative to the peak it fell from, 0..1; null without a starting balance. */
  max_drawdown_pct: number | null;
  equity_curve: EquityPoint[];
}

export interface StatsOptions {
  /** Balance before the first trade, minor units: the curve starts there and drawdown gets a percent. */
  starting_balance_minor?: number;
  /** Longest curve returned; longer curves keep each bucket's extremes and the last point. */
  max_points?: number;
}

/** Trades must be in the order they closed. */
export function computeTradeStats(
  trades: readonly ClosedTradeForStats[],
  opts: StatsOptions = {},
): TradeStats {
  const start = opts.starting_balance_minor ?? 0;
  let wins = 0;
  let losses = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  let rSum = 0;
  let rCount = 0;
  let best: number | null = null;
  let worst: number | null = null;
  let equity = start;
  let peak = start;
  let maxDd = 0;
  let maxDdPct = 0;
  const curve: EquityPoint[] = [];

  for (const t of trades) {
    const p = t.pnl_minor;
    if (p > 0) {
      wins++;
      grossProfit += p;
    } else if (p < 0) {
      losses++;
      grossLoss -= p;
    }
    if (t.initial_risk_minor !== null && t.initial_risk_minor > 0) {
      rSum += p / t.initial_risk_minor;
      rCount++;
    }
    best = best === null ? p : Math.max(best, p);
    worst = worst === null ? p : Math.min(worst, p);
    equity += p;
    curve.push({ time: t.closed_at, equity_minor: equity });
    if (equity > peak) peak = equity;
    const dd = peak - equity;
    if (dd > maxDd) maxDd = dd;
    if (peak > 0 && dd / peak > maxDdPct) maxDdPct = dd / peak;
  }

  const n = trades.length;
  const net = grossProfit - grossLoss;
  return {
    trades: n,
    wins,
    losses,
    breakeven: n - wins - losses,
    win_rate: n ? wins / n : null,
    profit_factor: grossLoss > 0 ? grossProfit / grossLoss : null,
    gross_profit_minor: grossProfit,
    gross_loss_minor: grossLoss,
    net_minor: net,
    avg_win_minor: wins ? Math.round(grossProfit / wins) : null,
    avg_loss_minor: losses ? -Math.round(grossLoss / losses) : null,
    expectancy_minor: n ? Math.round(net / n) : null,
    expectancy_r: rCount ? rSum / rCount : null,
    r_trades: rCount,
    best_minor: best,
    worst_minor: worst,
    max_drawdown_minor: maxDd,
    max_drawdown_pct: opts.starting_balance_minor !== undefined ? maxDdPct : null,
    equity_curve: downsample(curve, opts.max_points ?? Infinity),
  };
}

/**
 * Keeps a long curve drawable: each bucket contributes its lowest and highest point (in time order),
 * so drawdowns stay visible, and the final point is always kept.
 */
export function downsample<P extends EquityPoint>(curve: P[], maxPoints: number): P[] {
  const kept = downsampleIndexes(curve.length, (i) => curve[i]!.equity_minor, maxPoints);
  return kept ? kept.map((i) => curve[i]!) : curve;
}

/**
 * `downsample` on positions: the indexes of the points a curve of `length` points keeps (equity of
 * point i from `equityAt`), or null when it keeps them all. Callers with equity in an array build
 * only the points kept.
 */
export function downsampleIndexes(
  length: number,
  equityAt: (i: number) => number,
  maxPoints: number,
): number[] | null {
  if (length <= maxPoints || maxPoints < 4) return null;
  const buckets = Math.floor(maxPoints / 2);
  const size = length / buckets;
  const out: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(length, Math.floor((b + 1) * size));
    let lo = from;
    let hi = from;
    for (let i = from; i < to; i++) {
      if (equityAt(i) < equityAt(lo)) lo = i;
      if (equityAt(i) > equityAt(hi)) hi = i;
    }
    for (const i of lo <= hi ? [lo, hi] : [hi, lo]) if (out.at(-1) !== i) out.push(i);
  }
  if (out.at(-1) !== length - 1) out.push(length - 1);
  return out;
}
