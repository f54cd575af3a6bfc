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

/** R of one trade: P/L over the money risked; null when the risk is unknown or not positive. */
export function rMultiple(t: Pick<ReportTrade, 'pnl_minor' | 'initial_risk_minor'>): number | null {
  return t.initial_risk_minor !== null && t.initial_risk_minor > 0
    ? t.pnl_minor / t.initial_risk_minor
    : null;
}

/** A running tally: add trades one by one, read the figures at the end. */
export class FiguresAccumulator {
  private n = 0;
  private wins = 0;
  private losses = 0;
  private profit = 0;
  private loss = 0;
  private rSum = 0;
  private rCount = 0;

  add(t: Pick<ReportTrade, 'pnl_minor' | 'initial_risk_minor'>): void {
    this.n++;
    if (t.pnl_minor > 0) {
      this.wins++;
      this.profit += t.pnl_minor;
    } else if (t.pnl_minor < 0) {
      this.losses++;
      this.loss -= t.pnl_minor;
    }
    const r = rMultiple(t);
    if (r !== null) {
      this.rSum += r;
      this.rCount++;
    }
  }

  figures(): GroupFigures {
    const net = this.profit - this.loss;
    return {
      trades: this.n,
      wins: this.wins,
      losses: this.losses,
      win_rate: this.n ? this.wins / this.n : null,
      net_minor: net,
      gross_profit_minor: this.profit,
      gross_loss_minor: this.loss,
      profit_factor: this.loss > 0 ? this.profit / this.loss : null,
      expectancy_minor: this.n ? Math.round(net / this.n) : null,
      expectancy_r: this.rCount ? this.rSum / this.rCount : null,
      r_trades: this.rCount,
    };
  }
}

export function groupFigures(trades: readonly Pick<ReportTrade, 'pnl_minor' | 'initial_risk_minor'>[]) {
  const acc = new FiguresAccumulator();
  for (const t of trades) acc.add(t);
  return acc.figures();
}
