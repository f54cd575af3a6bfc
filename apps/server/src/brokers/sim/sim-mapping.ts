import type { SimDealsTable, SimOrdersTable, SimPositionsTable } from '../../db/schema';
import type { Deal, DealReason, PendingOrder, PlaceOrderResult, Position, SymbolInfo } from '../types';
import type { SimSymbolSpec } from './market-types';
import { unrealised } from './sim-pricing';
import type { SimState } from './sim-state';

/** Rows of the SIM ledger as the shapes of the broker interface. */
export function toSymbolInfo(s: SimSymbolSpec): SymbolInfo {
  return {
    symbol: s.symbol,
    description: s.description,
    digits: s.digits,
    pip_size: s.pip_size,
    tick_size: s.tick_size,
    contract_size: s.contract_size,
    base_currency: s.base_currency,
    quote_currency: s.quote_currency,
    volume_min: s.volume_min,
    volume_step: s.volume_step,
    volume_max: s.volume_max,
  };
}

export function toPosition(st: SimState, p: SimPositionsTable, t: number): Position {
  const { toMinor, fromMinor } = st;
  return {
    position_id: p.id,
    symbol: p.symbol,
    side: p.side,
    volume: p.volume,
    entry_price: p.entry_price,
    stop_loss: p.stop_loss,
    take_profit: p.take_profit,
    profit: fromMinor(toMinor(unrealised(st, p, t))),
    swap: fromMinor(p.swap_minor),
    commission: fromMinor(p.commission_minor),
    opened_at: p.opened_at,
    ...(p.client_order_id ? { client_order_id: p.client_order_id } : {}),
  };
}

export const toOrder = (o: SimOrdersTable): PendingOrder => ({
  order_id: o.id,
  symbol: o.symbol,
  side: o.side,
  kind: o.kind,
  volume: o.volume,
  limit_price: o.limit_price ?? 0,
  stop_loss: o.stop_loss,
  take_profit: o.take_profit,
  created_at: o.created_at,
  client_order_id: o.client_order_id,
});

export const toDeal = (st: SimState, d: SimDealsTable): Deal => ({
  deal_id: d.id,
  order_id: d.order_id,
  position_id: d.position_id,
  symbol: d.symbol,
  side: d.side,
  entry: d.entry,
  volume: d.volume,
  price: d.price,
  profit: st.fromMinor(d.profit_minor),
  commission: st.fromMinor(d.commission_minor),
  swap: st.fromMinor(d.swap_minor),
  reason: d.reason as DealReason,
  time: d.time,
});

export const resultOf = (o: SimOrdersTable): PlaceOrderResult => ({
  client_order_id: o.client_order_id,
  order_id: o.id,
  status: o.status === 'FILLED' ? 'FILLED' : 'PENDING',
  ...(o.position_id ? { position_id: o.position_id } : {}),
  ...(o.fill_price !== null ? { fill_price: o.fill_price } : {}),
  ...(o.filled_at ? { filled_at: o.filled_at } : {}),
});
