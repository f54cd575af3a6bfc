import { currencyDecimals, fromMinor, toMinor } from '@tradedesk/domain';
import type { OpenPosition } from '@tradedesk/contract';
import type { Deal, Position, Side } from '../../brokers/types';
import type { TradeDealsTable, TradesTable, TradingAccountsTable } from '../../db/schema';
import { newId, nowIso } from '../../lib/ids';

/**
 * One target of a multi-TP trade as the server manages it. Every target but the last is closed by
 * the server's quote watcher as a partial close (status 'hit'); the last one is the position's
 * take profit at the broker (managed_by 'broker'), so that the rest of the position is protected
 * even while this server is down. Nothing else (the stop loss in particular) is moved on a hit.
 */
export interface ManagedTarget {
  rank: number;
  share: number;
  tp_type: 'RR' | 'ATR' | 'PRICE';
  rr: number | null;
  atr_multiplier: number | null;
  /** Target price, resolved from the fill price once the order fills. */
  price: number;
  r_multiple: number;
  /** |price − entry| in price units when it was resolved; RR and ATR targets keep it from the fill. */
  distance: number;
  /** Lots this target closes (0 when the share is smaller than one volume step: skipped). */
  volume: number;
  managed_by: 'server' | 'broker';
  status: 'pending' | 'hit' | 'skipped' | 'cancelled';
  closed_at: string | null;
  close_price: number | null;
  closed_volume: number | null;
}

export const parseTargets = (row: Pick<TradesTable, 'targets'>): ManagedTarget[] =>
  row.targets ? (JSON.parse(row.targets) as ManagedTarget[]) : [];

/** The targets the watcher still has to close. */
export const pendingServerTargets = (targets: readonly ManagedTarget[]) =>
  targets.filter((t) => t.managed_by === 'server' && t.status === 'pending');

/** Minor units (as stored) to an amount of the currency; a missing amount stays null. */
export const money = (minor: number | null | undefined, currency: string): number | null =>
  minor === null || minor === undefined ? null : fromMinor(Number(minor), currencyDecimals(currency));

export const minor = (amount: number, currency: string): number =>
  toMinor(amount, currencyDecimals(currency));

export function toOpenPosition(t: TradesTable, p: Position | undefined): OpenPosition {
  return {
    id: t.id,
    position_id: t.position_id,
    instrument: t.symbol,
    direction: t.direction,
    lot_size: p?.volume ?? t.remaining_volume,
    entry_price: p?.entry_price ?? t.entry_price,
    stop_loss: p ? p.stop_loss : t.stop_loss,
    profit_target: p ? p.take_profit : t.take_profit,
    rr_ratio: t.rr_ratio,
    current_pl: p ? p.profit : null,
    created_at: t.created_at,
  };
}

export function dealRow(
  t: Pick<TradesTable, 'id' | 'user_id' | 'account_id' | 'currency'>,
  d: Deal,
): TradeDealsTable {
  return {
    id: newId(),
    trade_id: t.id,
    user_id: t.user_id,
    account_id: t.account_id,
    broker_deal_id: d.deal_id,
    order_id: d.order_id || null,
    position_id: d.position_id || null,
    filled_at: d.time,
    order_type: d.entry === 'IN' ? (d.reason === 'LIMIT' ? 'LIMIT' : 'MARKET') : 'CLOSE',
    direction: d.side,
    entry: d.entry,
    filled_price: d.price,
    filled_volume: d.volume,
    profit_minor: minor(d.profit, t.currency),
    commission_minor: minor(d.commission, t.currency),
    swap_minor: minor(d.swap, t.currency),
    deal_reason: d.reason,
  };
}

/**
 * Money lost if the stop of an open trade is hit now, from its stored one-R figures (0 when the stop
 * locks in profit); an order not filled yet counts its planned risk.
 */
export function openRisk(t: TradesTable): number {
  if ((t.status === 'submitting' || t.status === 'pending') && t.initial_risk_minor !== null)
    return money(t.initial_risk_minor, t.currency)!;
  if (
    t.stop_loss === null ||
    t.entry_price === null ||
    !t.sl_distance ||
    t.initial_risk_minor === null ||
    t.volume <= 0
  )
    return 0;
  const perPriceLot = money(t.initial_risk_minor, t.currency)! / (t.sl_distance * t.volume);
  const adverse = t.direction === 'BUY' ? t.entry_price - t.stop_loss : t.stop_loss - t.entry_price;
  return Math.max(0, adverse * t.remaining_volume * perPriceLot);
}

export const closePriceOf = (side: Side, q: { bid: number; ask: number }) => (side === 'BUY' ? q.bid : q.ask);

/** What the broker tells us about a trade opened outside this app (its terminal, another app). */
export type ExternalTradeFields = Pick<
  TradesTable,
  | 'client_order_id'
  | 'order_id'
  | 'position_id'
  | 'symbol'
  | 'direction'
  | 'order_type'
  | 'volume'
  | 'remaining_volume'
  | 'entry_price'
  | 'stop_loss'
  | 'take_profit'
  | 'sl_distance'
  | 'rr_ratio'
  | 'created_at'
  | 'opened_at'
>;

/**
 * An open trade with source 'external', adopted from the broker (a live position, or a position
 * found in the deal history): no plan, risk, journal or targets, as the app never planned it.
 */
export function externalTrade(
  account: TradingAccountsTable,
  f: ExternalTradeFields,
  now = nowIso(),
): TradesTable {
  return {
    id: newId(),
    user_id: account.user_id,
    account_id: account.id,
    source: 'external',
    ...f,
    status: 'open',
    limit_price: null,
    initial_risk_minor: null,
    risk_percent: null,
    projected_profit_minor: null,
    projected_loss_minor: null,
    atr_multiplier: null,
    reason: '',
    trader: '',
    timeframe: '',
    targets: null,
    currency: account.currency,
    closed_at: null,
    actual_pl_minor: null,
    updated_at: now,
  };
}
