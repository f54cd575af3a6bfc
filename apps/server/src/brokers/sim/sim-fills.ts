import { roundToDigits as roundTo } from '@tradedesk/domain';
import type { SimDealsTable, SimOrdersTable, SimPositionsTable } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { Deal, DealReason, Quote, Side } from '../types';
import { toDeal, toOrder, toPosition } from './sim-mapping';
import { commissionMinor, infoAt, profitOf, requireMargin, stopPrice } from './sim-pricing';
import { syncSubscriptions, write } from './sim-session';
import { emit, specOf, type SimState } from './sim-state';
import type { SimChange } from './sim-store';

/** The ledger's moves: opening a position from an order, cancelling an order, closing volume. */

const iso = (ms: number) => new Date(ms).toISOString();
const opposite = (s: Side): Side => (s === 'BUY' ? 'SELL' : 'BUY');

/** Opens the position of an order at the quote: buys at the ask, sells at the bid. */
export async function fill(
  st: SimState,
  order: SimOrdersTable,
  q: Quote,
  t: number,
  isNew: boolean,
): Promise<{ order: SimOrdersTable; position: SimPositionsTable; deal: SimDealsTable }> {
  const { account } = st;
  const s = specOf(st, order.symbol);
  const price = order.side === 'BUY' ? q.ask : q.bid;
  const time = iso(t);
  const sl =
    order.stop_loss ??
    (order.stop_loss_distance !== null
      ? stopPrice({ distance: order.stop_loss_distance }, 'sl', order.side, price, s.digits)
      : null);
  const tp =
    order.take_profit ??
    (order.take_profit_distance !== null
      ? stopPrice({ distance: order.take_profit_distance }, 'tp', order.side, price, s.digits)
      : null);
  const commission = commissionMinor(st, s, order.volume, t);
  const positionId = newId();
  const position: SimPositionsTable = {
    id: positionId,
    account_id: account.id,
    user_id: account.user_id,
    order_id: order.id,
    client_order_id: order.client_order_id,
    symbol: order.symbol,
    side: order.side,
    volume: order.volume,
    entry_price: price,
    stop_loss: sl,
    take_profit: tp,
    commission_minor: commission,
    swap_minor: 0,
    opened_at: time,
  };
  const deal: SimDealsTable = {
    id: newId(),
    account_id: account.id,
    user_id: account.user_id,
    order_id: order.id,
    position_id: positionId,
    symbol: order.symbol,
    side: order.side,
    entry: 'IN',
    volume: order.volume,
    price,
    profit_minor: 0,
    commission_minor: commission,
    swap_minor: 0,
    reason: order.kind === 'LIMIT' ? 'LIMIT' : 'MARKET',
    time,
  };
  const filled: SimOrdersTable = {
    ...order,
    status: 'FILLED',
    position_id: positionId,
    fill_price: price,
    filled_at: time,
    stop_loss: sl,
    take_profit: tp,
  };
  const change: SimChange = {
    insertPosition: position,
    insertDeal: deal,
    balance: { delta: commission, time },
  };
  if (isNew) change.insertOrder = filled;
  else
    change.updateOrder = {
      id: order.id,
      status: 'FILLED',
      position_id: positionId,
      fill_price: price,
      filled_at: time,
      stop_loss: sl,
      take_profit: tp,
    };
  await write(st, change, `Order ${order.id}`);
  st.orders.delete(order.id);
  st.positions.set(positionId, position);
  syncSubscriptions(st);
  emit(st, { type: 'execution', deal: toDeal(st, deal) });
  if (!isNew) emit(st, { type: 'order', order: toOrder(filled), status: 'FILLED' });
  emit(st, { type: 'position', position: toPosition(st, position, t), status: 'OPENED' });
  emit(st, { type: 'account', info: infoAt(st, t) });
  return { order: filled, position, deal };
}

export async function fillPending(st: SimState, o: SimOrdersTable, q: Quote): Promise<void> {
  const s = specOf(st, o.symbol);
  try {
    requireMargin(st, s, o.volume, o.side === 'BUY' ? q.ask : q.bid, q.time);
  } catch (e) {
    // Like a real broker: a limit that can no longer be covered is cancelled, not left hanging.
    await cancelPending(st, o, q.time);
    st.log?.info({ order: o.id, reason: (e as Error).message }, 'sim limit order cancelled at fill');
    return;
  }
  await fill(st, o, q, q.time, false);
}

export async function cancelPending(st: SimState, o: SimOrdersTable, t: number): Promise<void> {
  await write(st, { updateOrder: { id: o.id, status: 'CANCELLED' } }, `Order ${o.id}`);
  st.orders.delete(o.id);
  syncSubscriptions(st);
  emit(st, { type: 'order', order: toOrder(o), status: 'CANCELLED' });
  emit(st, { type: 'account', info: infoAt(st, t) });
}

export async function closeVolume(
  st: SimState,
  p: SimPositionsTable,
  volume: number,
  price: number,
  t: number,
  reason: DealReason,
): Promise<Deal> {
  const { account } = st;
  const s = specOf(st, p.symbol);
  const full = volume >= p.volume - 1e-9;
  const closed = full ? p.volume : volume;
  const profit = st.toMinor(profitOf(st, s, p.side, closed, p.entry_price, price, t));
  const commission = commissionMinor(st, s, closed, t);
  const time = iso(t);
  const deal: SimDealsTable = {
    id: newId(),
    account_id: account.id,
    user_id: account.user_id,
    order_id: newId(),
    position_id: p.id,
    symbol: p.symbol,
    // The closing deal trades the other way, as on MT5 and cTrader.
    side: opposite(p.side),
    entry: 'OUT',
    volume: closed,
    price,
    profit_minor: profit,
    commission_minor: commission,
    swap_minor: 0,
    reason: !full && (reason === 'CLOSE' || reason === 'PARTIAL_CLOSE') ? 'PARTIAL_CLOSE' : reason,
    time,
  };
  const delta = profit + commission;
  const remaining = roundTo(p.volume - closed, 8);
  const updated: SimPositionsTable = {
    ...p,
    volume: remaining,
    commission_minor: p.commission_minor + commission,
  };
  await write(
    st,
    {
      insertDeal: deal,
      balance: { delta, time },
      ...(full
        ? { deletePosition: { id: p.id, expectVolume: p.volume } }
        : {
            updatePosition: {
              id: p.id,
              expectVolume: p.volume,
              volume: remaining,
              commission_minor: updated.commission_minor,
            },
          }),
    },
    `Position ${p.id}`,
  );
  if (full) st.positions.delete(p.id);
  else st.positions.set(p.id, updated);
  syncSubscriptions(st);
  const out = toDeal(st, deal);
  emit(st, { type: 'execution', deal: out });
  emit(st, {
    type: 'position',
    position: toPosition(st, full ? p : updated, t),
    status: full ? 'CLOSED' : 'UPDATED',
  });
  emit(st, { type: 'account', info: infoAt(st, t) });
  return out;
}
