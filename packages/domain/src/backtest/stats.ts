/**
 * Backtest statistics (formulas in docs/backtests.md). Pure: the same inputs give the same numbers,
 * rounded to 8 decimals so that stats serialise byte-identically. null where a figure is undefined
 * (no trades, no losses, a flat equity curve, ...).
 */
import type { BacktestTrade } from './types';

const DAY_MS = 86_400_000;
/** Daily returns are annualised with 252 trading days, as backtesting.py does for non-crypto data. */
export const TRADING_DAYS_PER_YEAR = 252;

export interface StatsInput {
  time: ArrayLike<number>;
  equity: ArrayLike<number>;
  exposed: ArrayLike<number>;
  /** Bid closes, for Buy & Hold. */
  close: ArrayLike<number>;
  trades: readonly BacktestTrade[];
  initialBalance: number;
}

export interface BacktestStats {
  start: string;
  end: string;
  duration_days: number;
  exposure_pct: number;
  equity_final: number;
  equity_peak: number;
  net_profit: number;
  return_pct: number;
  buy_and_hold_return_pct: number | null;
  cagr_pct: number | null;
  volatility_ann_pct: number | null;
  sharpe_ratio: number | null;
  sortino_ratio: number | null;
  calmar_ratio: number | null;
  max_drawdown_pct: number;
  avg_drawdown_pct: number;
  max_drawdown_duration_days: number;
  avg_drawdown_duration_days: number;
  trades: number;
  win_rate_pct: number | null;
  best_trade: number | null;
  worst_trade: number | null;
  avg_trade: number | null;
  avg_win: number | null;
  avg_loss: number | null;
  payoff_ratio: number | null;
  profit_factor: number | null;
  expectancy: number | null;
  expectancy_r: number | null;
  sqn: number | null;
  kelly_criterion: number | null;
  max_consecutive_wins: number;
  max_consecutive_losses: number;
  avg_trade_duration_hours: number | null;
  avg_winner_duration_hours: number | null;
  avg_loser_duration_hours: number | null;
  commissions_paid: number;
}

const r8 = (x: number): number => Math.round(x * 1e8) / 1e8 + 0;
const fin = (x: number): number | null => (Number.isFinite(x) ? r8(x) : null);
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
/** Sample standard deviation (n − 1). */
function stdev(xs: readonly number[]): number {
  if (xs.length < 2) return NaN;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Equity at the end of each UTC calendar day that has bars, in time order. */
export function dailyEquity(time: ArrayLike<number>, equity: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < equity.length; i++) {
    const last =
      i === equity.length - 1 || Math.floor(time[i + 1]! / DAY_MS) !== Math.floor(time[i]! / DAY_MS);
    if (last) out.push(equity[i]!);
  }
  return out;
}

export interface DrawdownSummary {
  maxPct: number;
  avgPct: number;
  maxDurationMs: number;
  avgDurationMs: number;
}

/**
 * Drawdown dd_i = 1 − equity_i ÷ peak_i. A drawdown period runs from the bar that set the peak to the
 * bar that regains it (or the last bar); its depth is its largest dd and its duration end − start.
 */
export function drawdowns(time: ArrayLike<number>, equity: ArrayLike<number>): DrawdownSummary {
  let peak = -Infinity;
  let peakIndex = 0;
  let depth = 0;
  let inDd = false;
  const depths: number[] = [];
  const durations: number[] = [];
  const close = (endIndex: number) => {
    depths.push(depth);
    durations.push(time[endIndex]! - time[peakIndex]!);
    inDd = false;
    depth = 0;
  };
  for (let i = 0; i < equity.length; i++) {
    const e = equity[i]!;
    if (e >= peak) {
      if (inDd) close(i);
      peak = e;
      peakIndex = i;
    } else {
      inDd = true;
      depth = Math.max(depth, 1 - e / peak);
    }
  }
  if (inDd) close(equity.length - 1);
  return {
    maxPct: depths.length ? Math.max(...depths) * 100 : 0,
    avgPct: depths.length ? mean(depths) * 100 : 0,
    maxDurationMs: durations.length ? Math.max(...durations) : 0,
    avgDurationMs: durations.length ? mean(durations) : 0,
  };
}

function streaks(trades: readonly BacktestTrade[]): { wins: number; losses: number } {
  let wins = 0;
  let losses = 0;
  let w = 0;
  let l = 0;
  for (const t of trades) {
    if (t.pnl > 0) {
      w++;
      l = 0;
    } else {
      l++;
      w = 0;
    }
    wins = Math.max(wins, w);
    losses = Math.max(losses, l);
  }
  return { wins, losses };
}

const hours = (ts: readonly BacktestTrade[]) => mean(ts.map((t) => (t.exitTime - t.entryTime) / 3_600_000));

export function computeBacktestStats(input: StatsInput): BacktestStats {
  const { time, equity, exposed, close, trades, initialBalance } = input;
  const n = equity.length;
  const final = n ? equity[n - 1]! : initialBalance;
  let peak = initialBalance;
  let exposedBars = 0;
  for (let i = 0; i < n; i++) {
    peak = Math.max(peak, equity[i]!);
    exposedBars += exposed[i] ? 1 : 0;
  }
  const durationMs = n ? time[n - 1]! - time[0]! : 0;
  const years = durationMs / (365.25 * DAY_MS);

  const days = dailyEquity(time, equity);
  const returns = days.map((e, k) => e / (k === 0 ? initialBalance : days[k - 1]!) - 1);
  const mu = mean(returns);
  const sd = stdev(returns);
  const downside = Math.sqrt(mean(returns.map((r) => Math.min(r, 0) ** 2)));
  const dd = drawdowns(time, equity);
  const cagr = years > 0 ? (final / initialBalance) ** (1 / years) - 1 : NaN;

  const pnls = trades.map((t) => t.pnl);
  const wins = trades.filter((t) => t.pnl > 0);
  const losses = trades.filter((t) => t.pnl <= 0);
  const grossProfit = wins.reduce((a, t) => a + t.pnl, 0);
  const grossLoss = losses.reduce((a, t) => a + t.pnl, 0);
  const avgWin = mean(wins.map((t) => t.pnl));
  const avgLoss = mean(losses.map((t) => t.pnl));
  const winRate = trades.length ? wins.length / trades.length : NaN;
  const payoff = avgWin / Math.abs(avgLoss);
  const rs = trades.map((t) => t.r);
  const s = streaks(trades);

  return {
    start: n ? new Date(time[0]!).toISOString() : '',
    end: n ? new Date(time[n - 1]!).toISOString() : '',
    duration_days: r8(durationMs / DAY_MS),
    exposure_pct: r8(n ? (exposedBars / n) * 100 : 0),
    equity_final: r8(final),
    equity_peak: r8(peak),
    net_profit: r8(final - initialBalance),
    return_pct: r8((final / initialBalance - 1) * 100),
    buy_and_hold_return_pct: n ? fin((close[n - 1]! / close[0]! - 1) * 100) : null,
    cagr_pct: fin(cagr * 100),
    volatility_ann_pct: fin(sd * Math.sqrt(TRADING_DAYS_PER_YEAR) * 100),
    sharpe_ratio: sd > 0 ? fin((mu / sd) * Math.sqrt(TRADING_DAYS_PER_YEAR)) : null,
    sortino_ratio: downside > 0 ? fin((mu / downside) * Math.sqrt(TRADING_DAYS_PER_YEAR)) : null,
    calmar_ratio: dd.maxPct > 0 ? fin(cagr / (dd.maxPct / 100)) : null,
    max_drawdown_pct: r8(dd.maxPct),
    avg_drawdown_pct: r8(dd.avgPct),
    max_drawdown_duration_days: r8(dd.maxDurationMs / DAY_MS),
    avg_drawdown_duration_days: r8(dd.avgDurationMs / DAY_MS),
    trades: trades.length,
    win_rate_pct: fin(winRate * 100),
    best_trade: trades.length ? r8(Math.max(...pnls)) : null,
    worst_trade: trades.length ? r8(Math.min(...pnls)) : null,
    avg_trade: fin(mean(pnls)),
    avg_win: fin(avgWin),
    avg_loss: fin(avgLoss),
    payoff_ratio: fin(payoff),
    profit_factor: grossLoss < 0 ? fin(grossProfit / -grossLoss) : null,
    expectancy: fin(mean(pnls)),
    expectancy_r: fin(mean(rs)),
    sqn: fin((Math.sqrt(rs.length) * mean(rs)) / stdev(rs)),
    kelly_criterion: fin(winRate - (1 - winRate) / payoff),
    max_consecutive_wins: s.wins,
    max_consecutive_losses: s.losses,
    avg_trade_duration_hours: fin(hours(trades)),
    avg_winner_duration_hours: fin(hours(wins)),
    avg_loser_duration_hours: fin(hours(losses)),
    commissions_paid: r8(trades.reduce((a, t) => a + t.commission, 0)),
  };
}

/** Equity curve for the API: at most `maxPoints` points (every k-th bar, always the last). */
export function sampleEquityCurve(
  time: ArrayLike<number>,
  equity: ArrayLike<number>,
  maxPoints = 2000,
): { timestamp: string; equity: number }[] {
  const n = equity.length;
  const step = Math.max(1, Math.ceil(n / maxPoints));
  const out: { timestamp: string; equity: number }[] = [];
  for (let i = 0; i < n; i += step)
    out.push({ timestamp: new Date(time[i]!).toISOString(), equity: r8(equity[i]!) });
  if (n && (n - 1) % step !== 0)
    out.push({ timestamp: new Date(time[n - 1]!).toISOString(), equity: r8(equity[n - 1]!) });
  return out;
}

/** Drawdown at each point, in percent below the running peak (0 at a new high): dd = (1 − e ÷ peak) × 100. */
export function drawdownSeries(equity: ArrayLike<number>): number[] {
  let peak = -Infinity;
  const out: number[] = [];
  for (let i = 0; i < equity.length; i++) {
    peak = Math.max(peak, equity[i]!);
    out.push(peak > 0 ? (1 - equity[i]! / peak) * 100 : 0);
  }
  return out;
}
