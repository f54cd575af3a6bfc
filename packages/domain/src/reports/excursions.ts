/**
 * Maximum favourable and adverse excursion (MFE/MAE) of closed trades from M1 candles: how far the
 * price went for and against each trade between entry and exit, in price, R and money.
 * The bar holding the entry and the bar holding the exit are read whole (M1 resolution).
 */
import type { CandleSeries } from '../candles/series';
import { lowerBound } from '../candles/series-ops';
import { rMultiple } from './figures';
import { isoMs } from './time-zone';

export interface ExcursionTrade {
  id: string;
  direction: 'BUY' | 'SELL';
  entry_price: number;
  /** The initial stop; null when none was set. */
  stop_loss: number | null;
  initial_risk_minor: number | null;
  pnl_minor: number;
  opened_at: string;
  closed_at: string;
}

export interface TradeExcursion {
  id: string;
  /** Price distances from entry, >= 0. */
  mfe_price: number;
  mae_price: number;
  /** In R (distance over entry-to-stop); null without a stop. */
  mfe_r: number | null;
  mae_r: number | null;
  /** In money (the risk's minor units per price unit); null without a stop and risk. */
  mfe_minor: number | null;
  mae_minor: number | null;
  /** The trade's result in R; null without a risk. */
  final_r: number | null;
  /** The price went against the trade in an earlier bar than it first went for it. */
  negative_first: boolean;
}

export interface LeftOnTable {
  target_r: number;
  /** Trades whose MFE reached the target. */
  reached: number;
  /** Of those, the ones that closed below it. */
  closed_below: number;
  /** What closing at the target would have added over those trades, minor units. */
  left_minor: number;
}

export interface ExcursionReport {
  trades: TradeExcursion[];
  /** Ids of closed trades for which no candle of their time was found. */
  without_candles: string[];
  winners: number;
  winners_negative_first: number;
  /** Share of measured winners that went negative first, 0..1; null without winners. */
  winners_negative_first_share: number | null;
  left_on_table: LeftOnTable[];
}

const MINUTE = 60_000;

/** How far the price went for and against a trade, before it is put in R and money. */
export interface PriceExcursion {
  mfe_price: number;
  mae_price: number;
  negative_first: boolean;
}

/**
 * The price excursion of a position (`buy`, `entry`) held from `openedMs` to `closedMs`, from the
 * M1 bars of any series holding that time; null when no bar of the time is in the series. The bar
 * holding the entry (from its minute) and the bar holding the exit are read whole.
 */
export function measureExcursion(
  buy: boolean,
  entry: number,
  openedMs: number,
  closedMs: number,
  m1: CandleSeries,
): PriceExcursion | null {
  const from = Math.floor(openedMs / MINUTE) * MINUTE;
  let i = lowerBound(m1.time, from);
  let mfe = 0;
  let mae = 0;
  let firstFor = -1;
  let firstAgainst = -1;
  let bars = 0;
  for (; i < m1.time.length && m1.time[i]! <= closedMs; i++, bars++) {
    const favour = buy ? m1.high[i]! - entry : entry - m1.low[i]!;
    const against = buy ? entry - m1.low[i]! : m1.high[i]! - entry;
    if (favour > mfe) mfe = favour;
    if (against > mae) mae = against;
    if (favour > 0 && firstFor < 0) firstFor = bars;
    if (against > 0 && firstAgainst < 0) firstAgainst = bars;
  }
  if (!bars) return null;
  return {
    mfe_price: mfe,
    mae_price: mae,
    negative_first: firstAgainst >= 0 && (firstFor < 0 || firstAgainst < firstFor),
  };
}

/** A trade's excursion in price, R and money, from its price excursion. */
export function excursionFigures(
  t: Pick<ExcursionTrade, 'id' | 'entry_price' | 'stop_loss' | 'initial_risk_minor' | 'pnl_minor'>,
  p: PriceExcursion,
): TradeExcursion {
  const stopDist = t.stop_loss === null ? 0 : Math.abs(t.entry_price - t.stop_loss);
  const perPrice = stopDist > 0 && t.initial_risk_minor ? t.initial_risk_minor / stopDist : null;
  return {
    id: t.id,
    mfe_price: p.mfe_price,
    mae_price: p.mae_price,
    mfe_r: stopDist > 0 ? p.mfe_price / stopDist : null,
    mae_r: stopDist > 0 ? p.mae_price / stopDist : null,
    mfe_minor: perPrice === null ? null : Math.round(p.mfe_price * perPrice),
    mae_minor: perPrice === null ? null : Math.round(p.mae_price * perPrice),
    final_r: rMultiple(t),
    negative_first: p.negative_first,
  };
}

/** One trade against the candles of its symbol (any series holding its time; null when none does). */
export function tradeExcursion(t: ExcursionTrade, m1: CandleSeries): TradeExcursion | null {
  const p = measureExcursion(
    t.direction === 'BUY',
    t.entry_price,
    isoMs(t.opened_at),
    isoMs(t.closed_at),
    m1,
  );
  return p && excursionFigures(t, p);
}

/**
 * Every trade against its symbol's M1 candles (`candlesOf` answers the series for a trade, or null
 * when the store has none). `targets` are the R levels "left on the table" is measured at.
 */
export function excursionReport(
  trades: readonly ExcursionTrade[],
  candlesOf: (t: ExcursionTrade) => CandleSeries | null,
  targets: readonly number[] = [1, 2, 3],
): ExcursionReport {
  return summariseExcursions(
    trades,
    trades.map((t) => {
      const series = candlesOf(t);
      return series ? tradeExcursion(t, series) : null;
    }),
    targets,
  );
}

/** The report's sums, trade by trade: measured or not, winners negative first, left per target. */
export class ExcursionTally {
  measured = 0;
  without = 0;
  winners = 0;
  negativeFirst = 0;
  readonly left: LeftOnTable[];

  constructor(targets: readonly number[] = [1, 2, 3]) {
    this.left = targets.map((target_r) => ({ target_r, reached: 0, closed_below: 0, left_minor: 0 }));
  }

  /** A trade (in any order) and its measure, null when no candle of its time was found. */
  add(
    t: Pick<ExcursionTrade, 'pnl_minor' | 'initial_risk_minor'>,
    x: Pick<TradeExcursion, 'mfe_r' | 'final_r' | 'negative_first'> | null,
  ): void {
    if (!x) {
      this.without++;
      return;
    }
    this.measured++;
    if (t.pnl_minor > 0) {
      this.winners++;
      if (x.negative_first) this.negativeFirst++;
    }
    if (x.mfe_r === null || x.final_r === null || !t.initial_risk_minor) return;
    for (const l of this.left) {
      if (x.mfe_r + 1e-9 < l.target_r) continue;
      l.reached++;
      if (x.final_r < l.target_r) {
        l.closed_below++;
        l.left_minor += Math.round((l.target_r - x.final_r) * t.initial_risk_minor);
      }
    }
  }

  get negativeFirstShare(): number | null {
    return this.winners ? this.negativeFirst / this.winners : null;
  }
}

/**
 * The report from each trade's measure (`excursions[i]` belongs to `trades[i]`; null when no candle
 * of its time was found): callers that read candles piece by piece measure first, then sum here.
 */
export function summariseExcursions(
  trades: readonly Pick<ExcursionTrade, 'id' | 'pnl_minor' | 'initial_risk_minor'>[],
  excursions: readonly (TradeExcursion | null)[],
  targets: readonly number[] = [1, 2, 3],
): ExcursionReport {
  const measured: TradeExcursion[] = [];
  const without: string[] = [];
  const tally = new ExcursionTally(targets);
  trades.forEach((t, i) => {
    const x = excursions[i] ?? null;
    if (x) measured.push(x);
    else without.push(t.id);
    tally.add(t, x);
  });
  return {
    trades: measured,
    without_candles: without,
    winners: tally.winners,
    winners_negative_first: tally.negativeFirst,
    winners_negative_first_share: tally.negativeFirstShare,
    left_on_table: tally.left,
  };
}
