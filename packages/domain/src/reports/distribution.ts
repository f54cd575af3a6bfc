/**
 * The R-multiple histogram, the closed-trade equity curve with its drawdown, and streaks.
 */
import { downsampleIndexes } from '../trade-stats';
import type { ReportColumns } from './columns';
import { rOf, type ReportTrade } from './figures';

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
  bins: HistogramOptions = {},
): RHistogram {
  return histogramOf(moneyColumns(trades), bins);
}

export interface HistogramOptions {
  min?: number;
  max?: number;
  width?: number;
}

/** `rHistogram` of the columns' trades. */
export function histogramOf(
  c: Pick<ReportColumns, 'length' | 'pnl' | 'risk'>,
  { min = -3, max = 5, width = 0.5 }: HistogramOptions = {},
): RHistogram {
  const inner = Math.round((max - min) / width);
  const counts = new Array<number>(inner + 2).fill(0);
  let without = 0;
  for (let i = 0; i < c.length; i++) {
    const r = rOf(c.pnl[i]!, c.risk[i]!);
    if (Number.isNaN(r)) {
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

/** P/L and risk of trade objects as the columns the functions here read. */
function moneyColumns(trades: readonly Partial<Pick<ReportTrade, 'pnl_minor' | 'initial_risk_minor'>>[]) {
  const pnl = new Float64Array(trades.length);
  const risk = new Float64Array(trades.length);
  trades.forEach((t, i) => {
    pnl[i] = t.pnl_minor ?? 0;
    risk[i] = t.initial_risk_minor ?? NaN;
  });
  return { length: trades.length, pnl, risk };
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
  const c = { ...moneyColumns(trades), closedAt: (i: number) => trades[i]!.closed_at };
  return equityOf(c, Infinity, startMinor);
}

/**
 * The equity curve of the columns' trades (in closing order) with its drawdown, kept to at most
 * `maxPoints` points as `downsample` keeps them (the maximum drawdown is over every trade); only
 * the points kept are built.
 */
export function equityOf(
  c: Pick<ReportColumns, 'length' | 'pnl' | 'closedAt'>,
  maxPoints = Infinity,
  startMinor = 0,
): EquityWithDrawdown {
  const equity = new Float64Array(c.length);
  const drawdown = new Float64Array(c.length);
  let running = startMinor;
  let peak = startMinor;
  let max = 0;
  for (let i = 0; i < c.length; i++) {
    running += c.pnl[i]!;
    if (running > peak) peak = running;
    const dd = peak - running;
    if (dd > max) max = dd;
    equity[i] = running;
    drawdown[i] = dd;
  }
  const kept = downsampleIndexes(c.length, (i) => equity[i]!, maxPoints);
  const point = (i: number): DrawdownPoint => ({
    time: c.closedAt(i),
    equity_minor: equity[i]!,
    drawdown_minor: drawdown[i]!,
  });
  return {
    points: kept ? kept.map(point) : Array.from({ length: c.length }, (_, i) => point(i)),
    max_drawdown_minor: max,
  };
}

export interface Streaks {
  longest_win: number;
  longest_loss: number;
  /** Positive: the run of wins the range ends on; negative: of losses; 0 after a breakeven or none. */
  current: number;
}

/** Trades in closing order; a breakeven trade ends either run. */
export function streaks(trades: readonly Pick<ReportTrade, 'pnl_minor'>[]): Streaks {
  return streaksOf(moneyColumns(trades));
}

/** `streaks` of the columns' trades. */
export function streaksOf(c: Pick<ReportColumns, 'length' | 'pnl'>): Streaks {
  let win = 0;
  let loss = 0;
  let longestWin = 0;
  let longestLoss = 0;
  for (let i = 0; i < c.length; i++) {
    const pnl = c.pnl[i]!;
    if (pnl > 0) {
      win++;
      loss = 0;
    } else if (pnl < 0) {
      loss++;
      win = 0;
    } else {
      win = 0;
      loss = 0;
    }
    if (win > longestWin) longestWin = win;
    if (loss > longestLoss) longestLoss = loss;
  }
  return { longest_win: longestWin, longest_loss: longestLoss, current: win ? win : loss ? -loss : 0 };
}
