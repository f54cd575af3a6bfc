import {
  BrokerError,
  type Deal,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Position,
  type Reconciliation,
} from '../types';
import { unrealized } from './ct-account';
import { call, execute, live } from './ct-call';
import { toDeal, toPendingOrder, toPosition } from './ct-mapping';
import { digitsOf, entry, loadFull, toProtocolVolume } from './ct-symbols';
import { iso, roundTo, type CtState } from './ct-state';
import { toBrokerError } from './openapi-client';
import {
  ExecutionType,
  OrderStatus,
  OrderType,
  PRICE_SCALE,
  PT,
  TimeInForce,
  TradeSide,
  enumValue,
  num,
  type OpenApiFrame,
  type ProtoPosition,
} from './protocol';
import { arr, normDeal, normOrder, normPosition } from './protocol-normalise';

/** Orders and positions: reconcile, place (once per client order id), amend, close, cancel. */

export async function reconcile(st: CtState): Promise<Reconciliation> {
  const res = await call(st, PT.RECONCILE_REQ, {}, PT.RECONCILE_RES);
  const pnl = await unrealized(st);
  const positions = arr(res.position)
    .map(normPosition)
    .filter((p) => p.positionStatus === 1)
    .map((p) => toPosition(st, p, pnl));
  const orders = arr(res.order)
    .map(normOrder)
    .filter(
      (o) =>
        o.orderType === OrderType.LIMIT &&
        o.orderStatus === OrderStatus.ORDER_STATUS_ACCEPTED &&
        !o.closingOrder,
    )
    .map((o) => toPendingOrder(st, o));
  st.lastReconciliation = { positions, orders };
  return st.lastReconciliation;
}

export async function placeOrder(st: CtState, req: PlaceOrderRequest): Promise<PlaceOrderResult> {
  const known = st.placed.get(req.client_order_id);
  if (known) return known;
  const p = placeOnce(st, req);
  st.placed.set(req.client_order_id, p);
  // A failed attempt may be retried with the same id; the reconcile check in placeOnce keeps it single.
  p.catch(() => st.placed.delete(req.client_order_id));
  return p;
}

async function placeOnce(st: CtState, req: PlaceOrderRequest): Promise<PlaceOrderResult> {
  if (!req.client_order_id) throw new BrokerError('cTrader: a client order id is required', 'rejected');
  const e = await entry(st, req.symbol);
  const digits = e.full?.digits ?? 5;
  // The order may have reached cTrader before (a retry after a timeout, or after a restart).
  const existing = await reconcile(st);
  const pos = existing.positions.find((x) => x.client_order_id === req.client_order_id);
  if (pos) {
    return {
      client_order_id: req.client_order_id,
      order_id: '',
      position_id: pos.position_id,
      status: 'FILLED',
      fill_price: pos.entry_price,
      filled_at: pos.opened_at,
    };
  }
  const ord = existing.orders.find((x) => x.client_order_id === req.client_order_id);
  if (ord) return { client_order_id: req.client_order_id, order_id: ord.order_id, status: 'PENDING' };

  const isLimit = req.kind === 'LIMIT';
  if (isLimit && !(req.limit_price && req.limit_price > 0))
    throw new BrokerError('cTrader: a limit order needs a limit price', 'rejected');
  const payload: Record<string, unknown> = {
    symbolId: e.light.symbolId,
    orderType: isLimit ? OrderType.LIMIT : OrderType.MARKET,
    tradeSide: req.side === 'SELL' ? TradeSide.SELL : TradeSide.BUY,
    volume: toProtocolVolume(st, e, req.volume),
    label: req.client_order_id.slice(0, 100),
    clientOrderId: req.client_order_id.slice(0, 50),
  };
  if (req.comment) payload.comment = req.comment.slice(0, 512);
  if (isLimit) {
    payload.limitPrice = roundTo(req.limit_price as number, digits);
    payload.timeInForce = TimeInForce.GOOD_TILL_CANCEL;
  }
  // Distances go as relative SL/TP in 1/100000 of a price unit (rounded to the symbol's digits);
  // absolute prices are accepted on pending orders only, so on market orders they are set after the fill.
  const relative = (d: number) => Math.round(roundTo(d, digits) * PRICE_SCALE);
  const later: { stop_loss?: number; take_profit?: number } = {};
  if (req.stop_loss) {
    if ('distance' in req.stop_loss) payload.relativeStopLoss = relative(req.stop_loss.distance);
    else if (isLimit) payload.stopLoss = roundTo(req.stop_loss.price, digits);
    else later.stop_loss = req.stop_loss.price;
  }
  if (req.take_profit) {
    if ('distance' in req.take_profit) payload.relativeTakeProfit = relative(req.take_profit.distance);
    else if (isLimit) payload.takeProfit = roundTo(req.take_profit.price, digits);
    else later.take_profit = req.take_profit.price;
  }

  const conn = await live(st);
  const msgId = crypto.randomUUID();
  let orderId: number | undefined;
  const done = conn.waitFor((f) => {
    if (
      f.payloadType === PT.ORDER_ERROR_EVENT ||
      f.payloadType === PT.ERROR_RES_OA ||
      f.payloadType === PT.ERROR_RES
    ) {
      return f.clientMsgId === msgId || (orderId !== undefined && num(f.payload?.orderId) === orderId)
        ? 'reject'
        : undefined;
    }
    if (f.payloadType !== PT.EXECUTION_EVENT) return undefined;
    const o = f.payload?.order as Record<string, unknown> | undefined;
    const oid = num(o?.orderId);
    const mine =
      f.clientMsgId === msgId ||
      (orderId !== undefined && oid === orderId) ||
      o?.clientOrderId === payload.clientOrderId;
    if (!mine) return undefined;
    const t = enumValue('executionType', f.payload?.executionType);
    if (
      t === ExecutionType.ORDER_REJECTED ||
      t === ExecutionType.ORDER_CANCELLED ||
      t === ExecutionType.ORDER_EXPIRED
    )
      return 'reject';
    if (t === ExecutionType.ORDER_ACCEPTED) {
      orderId = oid;
      return isLimit ? 'resolve' : undefined;
    }
    return t === ExecutionType.ORDER_FILLED ? 'resolve' : undefined;
  });
  let f: OpenApiFrame;
  try {
    conn.send(PT.NEW_ORDER_REQ, { ctidTraderAccountId: st.opts.ctidTraderAccountId, ...payload }, msgId);
    f = await done;
  } catch (err) {
    done.catch(() => undefined);
    throw toBrokerError(err);
  }
  const order = normOrder((f.payload?.order ?? {}) as Record<string, unknown>);
  if (isLimit) {
    return { client_order_id: req.client_order_id, order_id: String(order.orderId), status: 'PENDING' };
  }
  const position = f.payload?.position
    ? normPosition(f.payload.position as Record<string, unknown>)
    : undefined;
  const deal = f.payload?.deal ? normDeal(f.payload.deal as Record<string, unknown>) : undefined;
  const positionId = String(position?.positionId ?? deal?.positionId ?? order.positionId ?? '');
  const result: PlaceOrderResult = {
    client_order_id: req.client_order_id,
    order_id: String(order.orderId),
    position_id: positionId,
    status: 'FILLED',
    fill_price: roundTo(deal?.executionPrice ?? order.executionPrice ?? position?.price ?? 0, digits),
    filled_at: iso(deal?.executionTimestamp),
  };
  if (later.stop_loss !== undefined || later.take_profit !== undefined)
    await amendPosition(st, positionId, later);
  return result;
}

async function findPosition(st: CtState, positionId: string): Promise<ProtoPosition> {
  const res = await call(st, PT.RECONCILE_REQ, {}, PT.RECONCILE_RES);
  const p = arr(res.position)
    .map(normPosition)
    .find((x) => String(x.positionId) === String(positionId));
  if (!p) throw new BrokerError(`cTrader: position ${positionId} is not open`, 'not_found');
  return p;
}

export async function amendPosition(
  st: CtState,
  positionId: string,
  stops: { stop_loss?: number | null; take_profit?: number | null },
): Promise<Position> {
  const current = await findPosition(st, positionId);
  const digits = digitsOf(st, current.tradeData.symbolId);
  // The request replaces both levels: an omitted field removes it, so unchanged ones are sent again.
  const sl = stops.stop_loss === undefined ? current.stopLoss : stops.stop_loss;
  const tp = stops.take_profit === undefined ? current.takeProfit : stops.take_profit;
  const payload: Record<string, unknown> = { positionId: current.positionId };
  if (sl !== null && sl !== undefined) payload.stopLoss = roundTo(sl, digits);
  if (tp !== null && tp !== undefined) payload.takeProfit = roundTo(tp, digits);
  const res = await execute(
    st,
    PT.AMEND_POSITION_SLTP_REQ,
    payload,
    (t) => t === ExecutionType.ORDER_REPLACED || t === ExecutionType.ORDER_ACCEPTED,
  );
  const p = res.position
    ? normPosition(res.position as Record<string, unknown>)
    : await findPosition(st, positionId);
  return toPosition(st, p, await unrealized(st));
}

export async function closePosition(st: CtState, positionId: string, volume?: number): Promise<Deal> {
  const current = await findPosition(st, positionId);
  const e = st.symbolsById.get(current.tradeData.symbolId);
  let v = current.tradeData.volume;
  if (volume !== undefined) {
    if (!e) throw new BrokerError(`cTrader: unknown symbol of position ${positionId}`, 'not_found');
    if (!e.full) await loadFull(st, [e]);
    v = Math.min(toProtocolVolume(st, e, volume), current.tradeData.volume);
  }
  const res = await execute(
    st,
    PT.CLOSE_POSITION_REQ,
    { positionId: current.positionId, volume: v },
    (t, p) => t === ExecutionType.ORDER_FILLED && p.deal !== undefined,
  );
  const deal = normDeal(res.deal as Record<string, unknown>);
  const d = toDeal(st, deal, res.order ? normOrder(res.order as Record<string, unknown>) : undefined);
  return { ...d, reason: v < current.tradeData.volume ? 'PARTIAL_CLOSE' : 'CLOSE' };
}

export async function cancelOrder(st: CtState, orderId: string): Promise<void> {
  const id = Number(orderId);
  if (!Number.isSafeInteger(id)) throw new BrokerError(`cTrader: order ${orderId} not found`, 'not_found');
  await execute(st, PT.CANCEL_ORDER_REQ, { orderId: id }, (t) => t === ExecutionType.ORDER_CANCELLED);
}
