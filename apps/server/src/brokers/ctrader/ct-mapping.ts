import type { Deal, PendingOrder, Position } from '../types';
import { digitsOf, nameOf, toLots } from './ct-symbols';
import { iso, roundTo, sideOf, type CtState } from './ct-state';
import {
  OrderType,
  PRICE_SCALE,
  TradeSide,
  type ProtoDeal,
  type ProtoOrder,
  type ProtoPosition,
} from './protocol';
import { money } from './protocol-normalise';

/** Open API positions, orders and deals as the shapes of the broker interface. */

export function toPosition(st: CtState, p: ProtoPosition, pnl?: Map<number, number>): Position {
  const digits = digitsOf(st, p.tradeData.symbolId);
  const label = p.tradeData.label;
  return {
    position_id: String(p.positionId),
    symbol: nameOf(st, p.tradeData.symbolId),
    side: sideOf(p.tradeData.tradeSide),
    volume: toLots(st, p.tradeData.symbolId, p.tradeData.volume),
    entry_price: roundTo(p.price ?? 0, digits),
    stop_loss: p.stopLoss !== undefined ? roundTo(p.stopLoss, digits) : null,
    take_profit: p.takeProfit !== undefined ? roundTo(p.takeProfit, digits) : null,
    profit: roundTo(pnl?.get(p.positionId) ?? 0, 2),
    swap: money(p.swap, p.moneyDigits),
    commission: money(p.commission, p.moneyDigits),
    opened_at: iso(p.tradeData.openTimestamp),
    ...(label ? { client_order_id: label } : {}),
  };
}

export function toPendingOrder(st: CtState, o: ProtoOrder): PendingOrder {
  const digits = digitsOf(st, o.tradeData.symbolId);
  const cid = o.clientOrderId ?? o.tradeData.label;
  const limit = roundTo(o.limitPrice ?? 0, digits);
  // A pending order placed with relative SL/TP carries only the distance (in 1/100000 of a price
  // unit) until it fills: the level is that far from the limit price, on the side the order trades.
  const away = o.tradeData.tradeSide === TradeSide.SELL ? -1 : 1;
  const level = (absolute: number | undefined, relative: number | undefined, sign: number) =>
    absolute !== undefined
      ? roundTo(absolute, digits)
      : relative !== undefined
        ? roundTo(limit + (sign * relative) / PRICE_SCALE, digits)
        : null;
  return {
    order_id: String(o.orderId),
    symbol: nameOf(st, o.tradeData.symbolId),
    side: sideOf(o.tradeData.tradeSide),
    kind: o.orderType === OrderType.LIMIT ? 'LIMIT' : 'MARKET',
    volume: toLots(st, o.tradeData.symbolId, o.tradeData.volume),
    limit_price: limit,
    stop_loss: level(o.stopLoss, o.relativeStopLoss, -away),
    take_profit: level(o.takeProfit, o.relativeTakeProfit, away),
    created_at: iso(o.tradeData.openTimestamp),
    ...(cid ? { client_order_id: cid } : {}),
  };
}

export function toDeal(st: CtState, d: ProtoDeal, order?: ProtoOrder): Deal {
  const digits = digitsOf(st, d.symbolId);
  const close = d.closePositionDetail;
  const md = close?.moneyDigits ?? d.moneyDigits;
  let reason: Deal['reason'] = close ? 'CLOSE' : 'MARKET';
  if (order?.isStopOut) reason = 'STOP_OUT';
  else if (order?.orderType === OrderType.LIMIT) reason = 'LIMIT';
  else if (order?.orderType === OrderType.STOP_LOSS_TAKE_PROFIT) {
    // The protection order that fired: SL sits on the losing side of the entry.
    const entry = close?.entryPrice ?? 0;
    const px = d.executionPrice ?? 0;
    const positionWasBuy = d.tradeSide === TradeSide.SELL;
    reason = (positionWasBuy ? px < entry : px > entry) ? 'STOP_LOSS' : 'TAKE_PROFIT';
  } else if (
    close &&
    order &&
    order.tradeData.volume > 0 &&
    (close.closedVolume ?? d.filledVolume) < order.tradeData.volume
  ) {
    reason = 'PARTIAL_CLOSE';
  }
  return {
    deal_id: String(d.dealId),
    order_id: String(d.orderId),
    position_id: String(d.positionId),
    symbol: nameOf(st, d.symbolId),
    side: sideOf(d.tradeSide),
    entry: close ? 'OUT' : 'IN',
    volume: toLots(st, d.symbolId, d.filledVolume || d.volume),
    price: roundTo(d.executionPrice ?? 0, digits),
    profit: close ? money(close.grossProfit, md) : 0,
    commission: money(close ? close.commission : d.commission, md),
    swap: close ? money(close.swap, md) : 0,
    reason,
    time: iso(d.executionTimestamp),
  };
}
