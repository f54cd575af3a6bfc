/**
 * An open position of the backtest engine and the trade it becomes: one entry, closed at once or in
 * parts (targets, then the rest), recorded as one trade whose parts add up.
 */
import type { TargetLeg } from './order-targets';
import type { BacktestTrade, BacktestTradePart } from './types';

export interface OpenPosition {
  dir: 1 | -1;
  entryIndex: number;
  entryPrice: number;
  /** Lots still open (targets close parts of it). */
  volume: number;
  initialVolume: number;
  sl: number;
  tp: number;
  /** Targets still to close, nearest first. */
  targets: TargetLeg[];
  /** The nearest level on the profit side that closes anything (next target or tp); NaN for none. */
  reach: number;
  initialSl: number;
  riskMoney: number;
  /** Entry commission not yet charged to a closed part. */
  entryCommission: number;
  entryBarExit: boolean;
  /** Parts closed so far (targets), when the position closes in more than one. */
  parts: BacktestTradePart[];
}

/** Sets p.reach: its next target, or its take profit when that is as near or nearer. */
export function setReach(p: OpenPosition): void {
  const next = p.targets[0];
  p.reach = next && !((next.price - p.tp) * p.dir >= 0) ? next.price : p.tp;
}

/**
 * The trade of a position whose `last` part closed what was left: a single exit as it is; a position
 * closed in parts with the parts' total P/L, commission and R (money summed, then rounded once by
 * `money`) and the last part's exit.
 */
export function closedTrade(
  p: OpenPosition,
  time: ArrayLike<number>,
  last: BacktestTradePart,
  money: (x: number) => number,
): BacktestTrade {
  const trade: BacktestTrade = {
    side: p.dir === 1 ? 'buy' : 'sell',
    entryIndex: p.entryIndex,
    entryTime: time[p.entryIndex]!,
    entryPrice: p.entryPrice,
    exitIndex: last.exitIndex,
    exitTime: last.exitTime,
    exitPrice: last.exitPrice,
    volume: p.initialVolume,
    sl: p.initialSl,
    tp: p.tp,
    pnl: last.pnl,
    commission: last.commission,
    r: last.r,
    exitReason: last.exitReason,
    entryBarExit: p.entryBarExit,
  };
  if (!p.parts.length) return trade;
  const parts = [...p.parts, last];
  trade.pnl = money(parts.reduce((a, x) => a + x.pnl, 0));
  trade.commission = money(parts.reduce((a, x) => a + x.commission, 0));
  trade.r = p.riskMoney > 0 ? trade.pnl / p.riskMoney : 0;
  trade.parts = parts;
  return trade;
}
