import { roundToDigits as roundTo } from '@tradedesk/domain';
import type { SimOrdersTable, SimPositionsTable } from '../../db/schema';
import { newId } from '../../lib/ids';
import { BrokerError, type BrokerAdapter, type PlaceOrderRequest, type PlaceOrderResult } from '../types';
import { cancelPending, closeVolume, fill } from './sim-fills';
import { resultOf, toOrder, toPosition } from './sim-mapping';
import {
  checkStops,
  closePrice,
  normaliseVolume,
  requireMargin,
  requireOpen,
  stopPrice,
} from './sim-pricing';
import { ensureLoaded, syncSubscriptions, write } from './sim-session';
import { emit, serial, specOf, type SimState } from './sim-state';

/** Orders and positions of the SIM broker: place, amend, close, cancel, reconcile. */

type OrderMethods = Pick<
  BrokerAdapter,
  'placeOrder' | 'amendPosition' | 'closePosition' | 'cancelOrder' | 'reconcile'
>;

const iso = (ms: number) => new Date(ms).toISOString();
/** An amended SL or TP: undefined keeps the current level, null removes it, a price is rounded. */
const amendedStop = (v: number | null | undefined, current: number | null, digits: number) =>
  v === undefined ? current : v === null ? null : roundTo(v, digits);

function positionOr404(st: SimState, id: string): SimPositionsTable {
  const p = st.positions.get(id);
  if (!p) throw new BrokerError(`Position ${id} is not open.`, 'not_found');
  return p;
}

async function placeOnce(st: SimState, req: PlaceOrderRequest): Promise<PlaceOrderResult> {
  const { market, account } = st;
  await ensureLoaded(st);
  const existing = await st.store.orderByClientId(req.client_order_id);
  if (existing) return resultOf(existing);
  const s = specOf(st, req.symbol);
  const volume = normaliseVolume(req.volume, s);
  const t = st.now();
  const base: SimOrdersTable = {
    id: newId(),
    account_id: account.id,
    user_id: account.user_id,
    client_order_id: req.client_order_id,
    symbol: s.symbol,
    side: req.side,
    kind: req.kind,
    volume,
    limit_price: null,
    stop_loss: null,
    take_profit: null,
    stop_loss_distance: null,
    take_profit_distance: null,
    comment: req.comment ?? '',
    status: 'PENDING',
    position_id: null,
    fill_price: null,
    filled_at: null,
    created_at: iso(t),
  };
  if (req.kind === 'MARKET') {
    requireOpen(st, s.symbol, t);
    const q = market.quoteAt(s.symbol, t);
    const price = req.side === 'BUY' ? q.ask : q.bid;
    const sl = stopPrice(req.stop_loss, 'sl', req.side, price, s.digits);
    const tp = stopPrice(req.take_profit, 'tp', req.side, price, s.digits);
    checkStops(req.side, closePrice(req.side, q), sl, tp);
    requireMargin(st, s, volume, price, t);
    const { order } = await fill(st, { ...base, stop_loss: sl, take_profit: tp }, q, t, true);
    return resultOf(order);
  }
  if (req.limit_price === undefined || !(req.limit_price > 0)) {
    throw new BrokerError('A limit order needs a positive limit price.', 'rejected');
  }
  const limit = roundTo(req.limit_price, s.digits);
  const slPrice = req.stop_loss && 'price' in req.stop_loss ? roundTo(req.stop_loss.price, s.digits) : null;
  const tpPrice =
    req.take_profit && 'price' in req.take_profit ? roundTo(req.take_profit.price, s.digits) : null;
  checkStops(
    req.side,
    limit,
    slPrice ?? stopPrice(req.stop_loss, 'sl', req.side, limit, s.digits),
    tpPrice ?? stopPrice(req.take_profit, 'tp', req.side, limit, s.digits),
  );
  requireMargin(st, s, volume, limit, t);
  const order: SimOrdersTable = {
    ...base,
    limit_price: limit,
    stop_loss: slPrice,
    take_profit: tpPrice,
    stop_loss_distance: req.stop_loss && 'distance' in req.stop_loss ? req.stop_loss.distance : null,
    take_profit_distance: req.take_profit && 'distance' in req.take_profit ? req.take_profit.distance : null,
  };
  await write(st, { insertOrder: order }, `Order ${order.client_order_id}`);
  st.orders.set(order.id, order);
  syncSubscriptions(st);
  emit(st, { type: 'order', order: toOrder(order), status: 'PLACED' });
  // A limit that is already marketable fills on the current price, at that price or better.
  if (market.isOpen(s.symbol, t)) st.onTick(market.quoteAt(s.symbol, t));
  return resultOf(order);
}

export function simOrders(st: SimState): OrderMethods {
  const { market, now } = st;
  return {
    placeOrder(req: PlaceOrderRequest) {
      return serial(st, () =>
        placeOnce(st, req).catch(async (e: unknown) => {
          // Another process may have placed the same client order id a moment earlier: its result stands.
          const existing =
            e instanceof BrokerError ? await st.store.orderByClientId(req.client_order_id) : undefined;
          if (existing) return resultOf(existing);
          throw e;
        }),
      );
    },

    amendPosition(positionId, stops) {
      return serial(st, async () => {
        await ensureLoaded(st);
        const p = positionOr404(st, positionId);
        const s = specOf(st, p.symbol);
        const sl = amendedStop(stops.stop_loss, p.stop_loss, s.digits);
        const tp = amendedStop(stops.take_profit, p.take_profit, s.digits);
        const t = now();
        checkStops(p.side, closePrice(p.side, market.quoteAt(p.symbol, t)), sl, tp);
        await write(st, { updatePosition: { id: p.id, stop_loss: sl, take_profit: tp } }, `Position ${p.id}`);
        const updated = { ...p, stop_loss: sl, take_profit: tp };
        st.positions.set(p.id, updated);
        const out = toPosition(st, updated, t);
        emit(st, { type: 'position', position: out, status: 'UPDATED' });
        return out;
      });
    },

    closePosition(positionId, volume) {
      return serial(st, async () => {
        await ensureLoaded(st);
        const p = positionOr404(st, positionId);
        const s = specOf(st, p.symbol);
        const t = now();
        requireOpen(st, p.symbol, t);
        let closing = p.volume;
        if (volume !== undefined) {
          closing = normaliseVolume(volume, { ...s, volume_max: Number.MAX_VALUE });
          if (closing > p.volume + 1e-9) {
            throw new BrokerError(
              `Cannot close ${closing} lots: the position holds ${p.volume}.`,
              'rejected',
            );
          }
        }
        const full = closing >= p.volume - 1e-9;
        return closeVolume(
          st,
          p,
          closing,
          closePrice(p.side, market.quoteAt(p.symbol, t)),
          t,
          full ? 'CLOSE' : 'PARTIAL_CLOSE',
        );
      });
    },

    cancelOrder(orderId) {
      return serial(st, async () => {
        await ensureLoaded(st);
        const o = st.orders.get(orderId);
        if (!o) throw new BrokerError(`Order ${orderId} is not pending.`, 'not_found');
        await cancelPending(st, o, now());
      });
    },

    async reconcile() {
      await ensureLoaded(st);
      const t = now();
      return {
        positions: [...st.positions.values()].map((p) => toPosition(st, p, t)),
        orders: [...st.orders.values()].map(toOrder),
      };
    },
  };
}
