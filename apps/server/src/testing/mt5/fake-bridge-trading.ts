/**
 * The fake bridge's trade server: market and limit orders (once per client id), fills at bid/ask,
 * SL/TP and limits checked on every price change, full and partial closes, stop changes, cancels,
 * commission and deals; every change is announced on the account's streams.
 */
import {
  RETCODE,
  clientTag,
  type ClosePositionResponse,
  type PlaceOrderBody,
  type PlaceOrderResponse,
  type WireDeal,
  type WireDealReason,
  type WireOrder,
  type WirePosition,
  type WireTick,
} from '../../brokers/mt5/protocol';
import { accountOf, marginOf, tickOf, toUsd, withProfit } from './fake-bridge-market';
import {
  BridgeFailure,
  money,
  mustSymbol,
  round,
  type AccountState,
  type BridgeState,
  type SymbolState,
} from './fake-bridge-state';
import { broadcast, broadcastAccount, sendTo } from './fake-bridge-stream';

/** After any price change: limits fill, stops trigger, subscribed streams get the tick. */
export function afterPriceChange(st: BridgeState, s: SymbolState): void {
  const tick = tickOf(s);
  for (const acc of st.accounts.values()) checkTriggers(st, acc, tick);
  for (const c of st.clients) if (c.symbols.has(tick.symbol)) sendTo(st, c, { type: 'tick', tick });
}

function checkTriggers(st: BridgeState, acc: AccountState, t: WireTick): void {
  for (const o of [...acc.orders.values()]) {
    if (o.symbol !== t.symbol) continue;
    const hit = o.type === 'BUY_LIMIT' ? t.ask <= o.price_open : t.bid >= o.price_open;
    if (hit) fillLimit(st, acc, o);
  }
  for (const p of [...acc.positions.values()]) {
    if (p.symbol !== t.symbol) continue;
    const px = p.type === 'BUY' ? t.bid : t.ask;
    const dir = p.type === 'BUY' ? 1 : -1;
    if (p.sl !== null && dir * (px - p.sl) <= 0) closeAt(st, acc, p, p.volume, 'SL');
    else if (p.tp !== null && dir * (px - p.tp) >= 0) closeAt(st, acc, p, p.volume, 'TP');
  }
}

export function placeOrder(st: BridgeState, acc: AccountState, body: PlaceOrderBody): PlaceOrderResponse {
  if (!body || typeof body.client_id !== 'string' || !body.client_id)
    throw new BridgeFailure(400, 'BAD_REQUEST', 'client_id is required');
  const tag = clientTag(body.client_id);
  const earlier = acc.byTag.get(tag);
  if (earlier) return { ...earlier, duplicate: true };
  const s = st.symbols.get(body.symbol);
  if (!s) throw new BridgeFailure(404, 'NOT_FOUND', `Unknown symbol ${body.symbol}`);
  const v = body.volume;
  const steps = (v - s.spec.volume_min) / s.spec.volume_step;
  if (
    !(typeof v === 'number' && v >= s.spec.volume_min && v <= s.spec.volume_max) ||
    Math.abs(steps - Math.round(steps)) > 1e-6
  ) {
    throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid volume', RETCODE.INVALID_VOLUME);
  }
  const t = tickOf(s);
  const isBuy = body.type === 'BUY' || body.type === 'BUY_LIMIT';
  const isLimit = body.type === 'BUY_LIMIT' || body.type === 'SELL_LIMIT';
  if (!['BUY', 'SELL', 'BUY_LIMIT', 'SELL_LIMIT'].includes(body.type))
    throw new BridgeFailure(400, 'BAD_REQUEST', 'Unsupported order type');
  const price = isLimit ? Number(body.price) : isBuy ? t.ask : t.bid;
  if (isLimit && !(price > 0 && (isBuy ? price < t.ask : price > t.bid))) {
    throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid price', RETCODE.INVALID_PRICE);
  }
  const sl = body.sl ?? null;
  const tp = body.tp ?? null;
  if (!stopsValid(isBuy, price, sl, tp))
    throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid stops', RETCODE.INVALID_STOPS);
  const account = accountOf(st, acc);
  if (!isLimit && marginOf(st, s.spec.name, v, price, acc.spec.leverage) > account.margin_free) {
    throw new BridgeFailure(422, 'TRADE_REJECTED', 'No money', RETCODE.NO_MONEY);
  }
  st.ordersSent += 1;
  const now = Date.now();
  const order: WireOrder = {
    ticket: st.nextTicket++,
    symbol: s.spec.name,
    type: body.type,
    volume_initial: v,
    volume_current: v,
    price_open: round(price, s.spec.digits),
    sl,
    tp,
    time_setup_msc: now,
    magic: body.magic ?? 0,
    comment: tag,
    client_id: body.client_id,
  };
  let result: PlaceOrderResponse;
  if (isLimit) {
    acc.orders.set(order.ticket, order);
    broadcast(st, acc, { type: 'order', order, status: 'PLACED' });
    result = {
      retcode: RETCODE.PLACED,
      retcode_text: 'Request placed',
      client_id: body.client_id,
      order: order.ticket,
      deal: null,
      position: null,
      status: 'PLACED',
      price: order.price_open,
      volume: v,
      time_msc: now,
      duplicate: false,
    };
  } else {
    const { deal, position } = open(st, acc, order, price);
    result = {
      retcode: RETCODE.DONE,
      retcode_text: 'Request completed',
      client_id: body.client_id,
      order: order.ticket,
      deal: deal.ticket,
      position: position.ticket,
      status: 'FILLED',
      price: deal.price,
      volume: v,
      time_msc: deal.time_msc,
      duplicate: false,
    };
  }
  acc.byTag.set(tag, result);
  return result;
}

function stopsValid(isBuy: boolean, ref: number, sl: number | null, tp: number | null): boolean {
  const dir = isBuy ? 1 : -1;
  if (sl !== null && !(typeof sl === 'number' && dir * (ref - sl) > 0)) return false;
  if (tp !== null && !(typeof tp === 'number' && dir * (tp - ref) > 0)) return false;
  return true;
}

function open(
  st: BridgeState,
  acc: AccountState,
  order: WireOrder,
  price: number,
): { deal: WireDeal; position: WirePosition } {
  const s = mustSymbol(st, order.symbol);
  const now = Date.now();
  const commission = -money(st.commissionPerLot * order.volume_current);
  const side = order.type === 'BUY' || order.type === 'BUY_LIMIT' ? 'BUY' : 'SELL';
  const position: WirePosition = {
    ticket: order.ticket,
    symbol: order.symbol,
    type: side,
    volume: order.volume_current,
    price_open: round(price, s.spec.digits),
    price_current: round(price, s.spec.digits),
    sl: order.sl,
    tp: order.tp,
    profit: 0,
    swap: 0,
    commission,
    time_msc: now,
    magic: order.magic,
    comment: order.comment,
    client_id: order.client_id,
  };
  const deal = addDeal(st, acc, {
    order: order.ticket,
    position_id: position.ticket,
    symbol: order.symbol,
    type: side,
    entry: 'IN',
    volume: order.volume_current,
    price: position.price_open,
    profit: 0,
    commission,
    reason: 'EXPERT',
    magic: order.magic,
    comment: order.comment,
    client_id: order.client_id,
    order_type: order.type,
  });
  acc.balance += commission;
  acc.positions.set(position.ticket, position);
  broadcast(st, acc, { type: 'position', position: withProfit(st, position), status: 'OPENED' });
  broadcastAccount(st, acc);
  return { deal, position };
}

function fillLimit(st: BridgeState, acc: AccountState, o: WireOrder): void {
  acc.orders.delete(o.ticket);
  broadcast(st, acc, { type: 'order', order: o, status: 'FILLED' });
  open(st, acc, o, o.price_open);
}

function addDeal(
  st: BridgeState,
  acc: AccountState,
  d: Omit<WireDeal, 'ticket' | 'time_msc' | 'swap'>,
): WireDeal {
  const deal: WireDeal = { ...d, ticket: st.nextTicket++, time_msc: Date.now(), swap: 0 };
  acc.deals.push(deal);
  broadcast(st, acc, { type: 'deal', deal });
  return deal;
}

export function closeAt(
  st: BridgeState,
  acc: AccountState,
  p: WirePosition,
  volume: number,
  reason: WireDealReason,
): WireDeal {
  const s = mustSymbol(st, p.symbol);
  const t = tickOf(s);
  const price = p.type === 'BUY' ? t.bid : t.ask;
  const dir = p.type === 'BUY' ? 1 : -1;
  const profit = money(
    toUsd(st, dir * (price - p.price_open) * volume * s.spec.trade_contract_size, s.spec.currency_profit),
  );
  const commission = -money(st.commissionPerLot * volume);
  const remaining = round(p.volume - volume, 2);
  // A partial close leaves the remainder as the same position; the full close removes it.
  if (remaining > 0) {
    p.volume = remaining;
    p.commission = money(p.commission + commission);
  } else acc.positions.delete(p.ticket);
  acc.balance += profit + commission;
  const deal = addDeal(st, acc, {
    order: st.nextTicket++,
    position_id: p.ticket,
    symbol: p.symbol,
    type: p.type === 'BUY' ? 'SELL' : 'BUY',
    entry: 'OUT',
    volume,
    price,
    profit,
    commission,
    reason,
    magic: reason === 'MOBILE' ? 0 : p.magic,
    comment: reason === 'SL' ? `[sl ${p.sl}]` : reason === 'TP' ? `[tp ${p.tp}]` : '',
    client_id: null,
    order_type: null,
  });
  broadcast(st, acc, {
    type: 'position',
    position: withProfit(st, p),
    status: remaining > 0 ? 'UPDATED' : 'CLOSED',
  });
  broadcastAccount(st, acc);
  return deal;
}

export function closePosition(
  st: BridgeState,
  acc: AccountState,
  ticket: number,
  body: { volume?: number },
): ClosePositionResponse {
  const p = acc.positions.get(ticket);
  if (!p) throw new BridgeFailure(404, 'NOT_FOUND', `Position ${ticket} not found`);
  const volume = body?.volume ?? p.volume;
  if (!(typeof volume === 'number' && volume > 0 && volume <= p.volume + 1e-9)) {
    throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid volume', RETCODE.INVALID_VOLUME);
  }
  const deal = closeAt(st, acc, p, Math.min(volume, p.volume), 'EXPERT');
  const left = acc.positions.get(ticket);
  return {
    retcode: RETCODE.DONE,
    retcode_text: 'Request completed',
    deal,
    position: left ? withProfit(st, left) : null,
  };
}

export function modifyPosition(
  st: BridgeState,
  acc: AccountState,
  ticket: number,
  body: { sl?: number | null; tp?: number | null },
): WirePosition {
  const p = acc.positions.get(ticket);
  if (!p) throw new BridgeFailure(404, 'NOT_FOUND', `Position ${ticket} not found`);
  const sl = body?.sl === undefined ? p.sl : body.sl;
  const tp = body?.tp === undefined ? p.tp : body.tp;
  const t = tickOf(mustSymbol(st, p.symbol));
  const ref = p.type === 'BUY' ? t.bid : t.ask;
  if (!stopsValid(p.type === 'BUY', ref, sl, tp))
    throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid stops', RETCODE.INVALID_STOPS);
  p.sl = sl;
  p.tp = tp;
  const out = withProfit(st, p);
  broadcast(st, acc, { type: 'position', position: out, status: 'UPDATED' });
  return out;
}

export function cancelOrder(
  st: BridgeState,
  acc: AccountState,
  ticket: number,
): { retcode: number; retcode_text: string; order: WireOrder } {
  const o = acc.orders.get(ticket);
  if (!o) throw new BridgeFailure(404, 'NOT_FOUND', `Order ${ticket} not found`);
  acc.orders.delete(ticket);
  broadcast(st, acc, { type: 'order', order: o, status: 'CANCELLED' });
  return { retcode: RETCODE.DONE, retcode_text: 'Request completed', order: o };
}
