import {
  BrokerError,
  type Deal,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Position,
  type PriceOrDistance,
  type Reconciliation,
} from '../types';
import { http } from './mt5-http';
import {
  TRADEDESK_MAGIC,
  asBrokerError,
  iso,
  roundTo,
  ticketOf,
  toDeal,
  toOrder,
  toPosition,
} from './mt5-mapping';
import { symbolInfo } from './mt5-quotes';
import type { Mt5State } from './mt5-state';
import { noteDeal } from './mt5-stream';
import type {
  ClosePositionResponse,
  PlaceOrderBody,
  PlaceOrderResponse,
  WireOrder,
  WirePosition,
} from './protocol';

/** Orders and positions: place (once per client order id), amend, close, cancel, reconcile. */

export function placeOrder(st: Mt5State, req: PlaceOrderRequest): Promise<PlaceOrderResult> {
  const done = st.placed.get(req.client_order_id);
  if (done) return Promise.resolve(done);
  // A double click must not race two requests to the bridge either.
  let p = st.placing.get(req.client_order_id);
  if (!p) {
    p = sendOrder(st, req).finally(() => st.placing.delete(req.client_order_id));
    st.placing.set(req.client_order_id, p);
  }
  return p;
}

async function sendOrder(st: Mt5State, req: PlaceOrderRequest): Promise<PlaceOrderResult> {
  if (!req.client_order_id) throw new BrokerError('An order needs a client order id.', 'rejected');
  if (req.kind === 'LIMIT' && !(typeof req.limit_price === 'number' && req.limit_price > 0)) {
    throw new BrokerError('A limit order needs a limit price.', 'rejected');
  }
  const info = await symbolInfo(st, req.symbol);
  const sign = req.side === 'BUY' ? 1 : -1;
  // Distances count from the fill: for a limit that is its price; a market fill is only known afterwards.
  const reference = req.kind === 'LIMIT' ? req.limit_price : undefined;
  const absolute = (v: PriceOrDistance | undefined, dir: 1 | -1): number | null | 'later' => {
    if (!v) return null;
    if ('price' in v) return roundTo(v.price, info.digits);
    if (reference === undefined) return 'later';
    return roundTo(reference + dir * sign * v.distance, info.digits);
  };
  const sl = absolute(req.stop_loss, -1);
  const tp = absolute(req.take_profit, 1);
  const body: PlaceOrderBody = {
    symbol: req.symbol,
    type: req.kind === 'LIMIT' ? (req.side === 'BUY' ? 'BUY_LIMIT' : 'SELL_LIMIT') : req.side,
    volume: req.volume,
    ...(req.kind === 'LIMIT' ? { price: roundTo(req.limit_price as number, info.digits) } : {}),
    sl: sl === 'later' ? null : sl,
    tp: tp === 'later' ? null : tp,
    client_id: req.client_order_id,
    magic: TRADEDESK_MAGIC,
  };
  const res = await http<PlaceOrderResponse>(st, 'POST', '/orders', body);
  const result: PlaceOrderResult = {
    client_order_id: req.client_order_id,
    order_id: String(res.order),
    status: res.status === 'FILLED' ? 'FILLED' : 'PENDING',
    ...(res.position !== null ? { position_id: String(res.position) } : {}),
    ...(res.status === 'FILLED' && res.price !== null
      ? { fill_price: res.price, filled_at: iso(res.time_msc) }
      : {}),
  };
  // Stops given as distances from a market fill are set right after it. A retry of the same client id
  // (after this step failed or timed out) sets them again; a position already gone needs none.
  if ((sl === 'later' || tp === 'later') && result.position_id && res.price !== null) {
    const fill = res.price;
    const stopAt = (v: PriceOrDistance | undefined, dir: 1 | -1) =>
      v && 'distance' in v ? roundTo(fill + dir * sign * v.distance, info.digits) : undefined;
    try {
      await amendPosition(st, result.position_id, {
        ...(sl === 'later' ? { stop_loss: stopAt(req.stop_loss, -1) } : {}),
        ...(tp === 'later' ? { take_profit: stopAt(req.take_profit, 1) } : {}),
      });
    } catch (e) {
      const err = asBrokerError(e);
      if (!(res.duplicate && err.kind === 'not_found')) {
        throw new BrokerError(
          `The order filled (position ${result.position_id}) but MT5 did not accept its SL/TP: ${err.message}`,
          err.kind,
        );
      }
    }
  }
  st.placed.set(req.client_order_id, result);
  st.log.info(
    {
      login: st.who.login,
      client_order_id: req.client_order_id,
      order: result.order_id,
      status: result.status,
      duplicate: res.duplicate,
    },
    'mt5 order placed',
  );
  return result;
}

export async function amendPosition(
  st: Mt5State,
  positionId: string,
  stops: { stop_loss?: number | null; take_profit?: number | null },
): Promise<Position> {
  const body: { sl?: number | null; tp?: number | null } = {};
  if (stops.stop_loss !== undefined) body.sl = stops.stop_loss;
  if (stops.take_profit !== undefined) body.tp = stops.take_profit;
  const p = toPosition(
    await http<WirePosition>(st, 'PUT', `/positions/${ticketOf(positionId, 'position')}`, body),
  );
  st.knownPositions.set(p.position_id, p);
  return p;
}

export async function closePosition(st: Mt5State, positionId: string, volume?: number): Promise<Deal> {
  const res = await http<ClosePositionResponse>(
    st,
    'POST',
    `/positions/${ticketOf(positionId, 'position')}/close`,
    volume === undefined ? {} : { volume },
  );
  noteDeal(st, res.deal);
  if (res.position) st.knownPositions.set(positionId, toPosition(res.position));
  else st.knownPositions.delete(positionId);
  return toDeal(res.deal, res.position !== null);
}

export async function cancelOrder(st: Mt5State, orderId: string): Promise<void> {
  await http(st, 'DELETE', `/orders/${ticketOf(orderId, 'order')}`);
  st.knownOrders.delete(orderId);
}

export async function reconcile(st: Mt5State): Promise<Reconciliation> {
  const [p, o] = await Promise.all([
    http<{ positions: WirePosition[] }>(st, 'GET', '/positions'),
    http<{ orders: WireOrder[] }>(st, 'GET', '/orders'),
  ]);
  return { positions: p.positions.map(toPosition), orders: o.orders.map(toOrder) };
}
