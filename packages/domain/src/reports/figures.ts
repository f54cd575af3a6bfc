import type { ReportColumns } from './columns';

/**
 * The figures every report row shows for a group of closed trades. Money is integer minor units of
 * the account currency, summed as integers; averages are rounded to the minor unit.
 */

/** A closed trade as the reports read it. */
export interface ReportTrade {
  id: string;
  symbol: string;
  direction: 'BUY' | 'SELL';
  /** ISO 8601 instant of the first fill (falls back to creation when the broker gave none). */
  opened_at: string;
  /** ISO 8601 instant of the last closing deal. */
  closed_at: string;
  /** Realised P/L including commission and swap, minor units. */
  pnl_minor: number;
  /** Money risked at entry (entry to initial stop), minor units; null when unknown. */
  initial_risk_minor: number | null;
  /** Who placed it ('' when nobody was named). */
  trader: string;
  /** Placed by a trading bot rather than by hand (unknown counts as by hand). */
  bot?: boolean;
  /** From the trade's journal ('' or null when none was given). */
  strategy_tag: string | null;
  emotional_state: string | null;
  market_condition: string | null;
  /** Has at least one journal entry. */
  journaled: boolean;
  /** A journal entry of the trade carries a chart snapshot or another attachment. */
  with_snapshot: boolean;
  /** The trade or its journal states a reason. */
  with_reason: boolean;
}

export interface GroupFigures {
  trades: number;
  wins: number;
  losses: number;
  /** wins / trades, 0..1; null without trades. */
  win_rate: number | null;
  net_minor: number;
  gross_profit_minor: number;
  gross_loss_minor: number;
  /** gross profit / gross loss; null when there is no loss. */
  profit_factor: number | null;
  /** Average P/L per trade, minor units; null without trades. */
  expectancy_minor: number | null;
  /** Average R over the trades whose risk is known; null when none is. */
  expectancy_r: number | null;
  r_trades: number;
}

/** R of a P/L: over the money risked; NaN when the risk is unknown (null or NaN) or not positive. */
export const rOf = (pnl: number, risk: number | null): number =>
  risk !== null && risk > 0 ? pnl / risk : NaN;

/** R of one trade: P/L over the money risked; null when the risk is unknown or not positive. */
export function rMultiple(t: Pick<ReportTrade, 'pnl_minor' | 'initial_risk_minor'>): number | null {
  const r = rOf(t.pnl_minor, t.initial_risk_minor);
  return Number.isNaN(r) ? null : r;
}

/** Each trade's R (`rMultiple`), NaN where there is none: computed once for every tally. */
export function rValues(c: Pick<ReportColumns, 'length' | 'pnl' | 'risk'>): Float64Array {
  const r = new Float64Array(c.length);
  for (let i = 0; i < c.length; i++) r[i] = rOf(c.pnl[i]!, c.risk[i]!);
  return r;
}

/**
 * Running tallies of many groups at once (typed arrays indexed by group): add trades in closing
 * order, read each group's figures at the end. The one place the figures are summed.
 */
export class FigureTallies {
  private n: Float64Array;
  private wins: Float64Array;
  private losses: Float64Array;
  private profit: Float64Array;
  private loss: Float64Array;
  private rSum: Float64Array;
  private rCount: Float64Array;

  constructor(readonly groups: number) {
    this.n = new Float64Array(groups);
    this.wins = new Float64Array(groups);
    this.losses = new Float64Array(groups);
    this.profit = new Float64Array(groups);
    this.loss = new Float64Array(groups);
    this.rSum = new Float64Array(groups);
    this.rCount = new Float64Array(groups);
  }

  /**
   * Trades 0 … count − 1 into their groups `of[i]`, with their P/L and R (NaN when unknown, see
   * `rValues`), in that order.
   */
  addAll(of: Int32Array, pnl: Float64Array, r: Float64Array, count = of.length): void {
    const { n, wins, losses, profit, loss, rSum, rCount } = this;
    for (let i = 0; i < count; i++) {
      const g = of[i]!;
      const p = pnl[i]!;
      n[g]!++;
      if (p > 0) {
        wins[g]!++;
        profit[g]! += p;
      } else if (p < 0) {
        losses[g]!++;
        loss[g]! -= p;
      }
      const x = r[i]!;
      if (!Number.isNaN(x)) {
        rSum[g]! += x;
        rCount[g]!++;
      }
    }
  }

  count(g: number): number {
    return this.n[g]!;
  }

  figures(g: number): GroupFigures {
    const n = this.n[g]!;
    const profit = this.profit[g]!;
    const loss = this.loss[g]!;
    const rCount = this.rCount[g]!;
    const net = profit - loss;
    return {
      trades: n,
      wins: this.wins[g]!,
      losses: this.losses[g]!,
      win_rate: n ? this.wins[g]! / n : null,
      net_minor: net,
      gross_profit_minor: profit,
      gross_loss_minor: loss,
      profit_factor: loss > 0 ? profit / loss : null,
      expectancy_minor: n ? Math.round(net / n) : null,
      expectancy_r: rCount ? this.rSum[g]! / rCount : null,
      r_trades: rCount,
    };
  }
}

/** The figures of every trade of the columns. */
export function columnFigures(c: Pick<ReportColumns, 'length' | 'pnl' | 'risk'>): GroupFigures {
  const tally = new FigureTallies(1);
  tally.addAll(new Int32Array(c.length), c.pnl, rValues(c), c.length);
  return tally.figures(0);
}

export function groupFigures(trades: readonly Pick<ReportTrade, 'pnl_minor' | 'initial_risk_minor'>[]) {
  return columnFigures({
    length: trades.length,
    pnl: Float64Array.from(trades, (t) => t.pnl_minor),
    risk: Float64Array.from(trades, (t) => t.initial_risk_minor ?? NaN),
  });
}
