/**
 * The R-multiple histogram, the closed-trade equity curve with its drawdown, and streaks.
 */
import { rMultiple, type ReportTrade } from './figures';

export interface HistogramBin {
  /** Inclusive lower edge in R; null for the open-ended lowest bin. */
  from_r: number | null;
  /** Exclusive upper edge in R; null for the open-ended highest bin. */
  to_r: number | null;
  count: number;
}

export interface RHistogram {
  bins: HistogramBin[];
  /** Trades left out because their risk is unknown. */
  without_risk: number;
}

/**
 * Bins of `width` R from `min` to `max`, plus one open bin below and one above.
 * Defaults: 0.5 R wide from -3 R to +5 R.
 */
export function rHistogram(
  trades: readonly Pick<ReportTrade, 'pnl_minor' | 'initial_risk_minor'>[],
  { min = -3, max = 5, width = 0.5 }: { min?: number; max?: number; width?: number } = {},
): RHistogram {
  const inner = Math.round((max - min) / width);
  const counts = new Array<number>(inner + 2).fill(0);
  let without = 0;
  for (const t of trades) {
    const r = rMultiple(t);
    if (r === null) {
      without++;
      continue;
    }
    // A tiny tolerance keeps exact edges (1.0 R from 100/100) in the bin they start.
    const idx = r < min ? 0 : r >= max ? inner + 1 : 1 + Math.floor((r - min) / width + 1e-9);
    counts[idx]!++;
  }
  const bins: HistogramBin[] = counts.map((count, i) => ({
    from_r: i === 0 ? null : min + (i - 1) * width,
    to_r: i === inner + 1 ? null : min + i * width,
    count,
  }));
  return { bins, without_risk: without };
}

export interface DrawdownPoint {
  time: string;
  equity_minor: number;
  /** How far below the running peak, minor units (>= 0). */
  drawdown_minor: number;
}

export interface EquityWithDrawdown {
  points: DrawdownPoint[];
  max_drawdown_minor: number;
}

/** Trades in closing order; the curve starts at `startMinor` (0 by default). */
export function equityWithDrawdown(
  trades: readonly Pick<ReportTrade, 'pnl_minor' | 'closed_at'>[],
  startMinor = 0,
): EquityWithDrawdown {
  let equity = startMinor;
  let peak = startMinor;
  let max = 0;
  const points = trades.map((t) => {
    equity += t.pnl_minor;
    if (equity > peak) peak = equity;
    const dd = peak - equity;
    if (dd > max) max = dd;
    return { time: t.closed_at, equity_minor: equity, drawdown_minor: dd };
  });
  return { points, max_drawdown_minor: max };
}

export interface Streaks {
  longest_win: number;
  longest_loss: number;
  /** Positive: the run of wins the range ends on; negative: of losses; 0 after a breakeven or none. */
  current: number;
}

/** Trades in closing order; a breakeven trade ends either run. */
export function streaks(trades: readonly Pick<ReportTrade, 'pnl_minor'>[]): Streaks {
  let win = 0;
  let loss = 0;
  let longestWin = 0;
  let longestLoss = 0;
  for (const t of trades) {
    if (t.pnl_minor > 0) {
      win++;
      loss = 0;
    } else if (t.pnl_minor < 0) {
      loss++;
      win = 0;
    } else {
      win = 0;
      loss = 0;
    }
    longestWin = Math.max(longestWin, win);
    longestLoss = Math.max(longestLoss, loss);
  }
  return { longest_win: longestWin, longest_loss: longestLoss, current: win ? win : loss ? -loss : 0 };
}
