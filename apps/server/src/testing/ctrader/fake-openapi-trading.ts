/**
 * The fake Open API server's trade server: market orders filling at bid/ask (refused beyond the free
 * margin), limit orders filling when crossed, absolute or relative SL/TP checked on every price,
 * amend, full and partial close, cancel, commission and deals; every change is an execution event
 * to each session of the account.
 */
import {
  ExecutionType,
  OrderStatus,
  OrderType,
  PRICE_SCALE,
  PT,
  TradeSide,
  enumValue,
  num,
} from '../../brokers/ctrader/protocol';
import {
  newId,
  symbolOf,
  type AccountState,
  type DealRec,
  type FakeSymbol,
  type OpenApiState,
  type Ord,
  type Origin,
  type Pos,
} from './fake-openapi-state';
import { execution, orderOf, pnlCents, positionOf, sendError, sendTo, usedMargin } from './fake-openapi-wire';

function fillPrice(st: OpenApiState, symbolId: number, side: number): number {
  const sym = symbolOf(st, symbolId);
  return (side === TradeSide.BUY ? sym.ask : sym.bid) / PRICE_SCALE;
}

export function newOrder(
  st: OpenApiState,
  origin: Origin,
  acc: AccountState,
  p: Record<string, unknown>,
): void {
  const ctid = acc.account.ctidTraderAccountId;
  const refuse = (code: string, description: string) => sendError(st, origin, code, description, ctid);
  const symbolId = num(p.symbolId) ?? 0;
  if (!st.symbols.some((x) => x.symbolId === symbolId)) return refuse('SYMBOL_NOT_FOUND', 'Symbol not found');
  const orderType = enumValue('orderType', p.orderType) ?? 0;
  const side = enumValue('tradeSide', p.tradeSide) ?? 0;
  const volume = num(p.volume) ?? 0;
  if (orderType !== OrderType.MARKET && orderType !== OrderType.LIMIT)
    return refuse('INVALID_REQUEST', 'Unsupported order type');
  if (side !== TradeSide.BUY && side !== TradeSide.SELL)
    return refuse('INVALID_REQUEST', 'Invalid trade side');
  if (volume < 100_000 || volume % 100_000 !== 0 || volume > 10_000_000_000) {
    return refuse('TRADING_BAD_VOLUME', `Order volume ${volume} is invalid`);
  }
  if (orderType === OrderType.MARKET && (p.stopLoss !== undefined || p.takeProfit !== undefined)) {
    return refuse(
      'INVALID_REQUEST',
      'SL/TP in absolute values are allowed only for order types: [LIMIT, STOP, STOP_LIMIT]',
    );
  }
  if (orderType === OrderType.LIMIT && !(num(p.limitPrice) ?? 0))
    return refuse('INVALID_REQUEST', 'Limit price is required');
  const o: Ord = {
    orderId: newId(st),
    symbolId,
    side,
    volume,
    orderType,
    orderStatus: OrderStatus.ORDER_STATUS_ACCEPTED,
    limitPrice: num(p.limitPrice),
    stopLoss: num(p.stopLoss),
    takeProfit: num(p.takeProfit),
    relativeStopLoss: num(p.relativeStopLoss),
    relativeTakeProfit: num(p.relativeTakeProfit),
    label: typeof p.label === 'string' ? p.label : undefined,
    clientOrderId: typeof p.clientOrderId === 'string' ? p.clientOrderId : undefined,
    comment: typeof p.comment === 'string' ? p.comment : undefined,
    openTimestamp: Date.now(),
  };
  // Margin check: refuse what the free margin cannot carry.
  const probe: Pos = {
    positionId: 0,
    symbolId,
    side,
    volume,
    price: fillPrice(st, symbolId, side),
    openTimestamp: 0,
    commission: 0,
  };
  const used = [...acc.positions.values()].reduce((sum, x) => sum + usedMargin(st, acc, x), 0);
  if (orderType === OrderType.MARKET && used + usedMargin(st, acc, probe) > acc.account.balance) {
    return sendTo(st, origin.s, {
      clientMsgId: origin.f.clientMsgId,
      payloadType: PT.ORDER_ERROR_EVENT,
      payload: {
        ctidTraderAccountId: ctid,
        errorCode: 'NOT_ENOUGH_MONEY',
        description: 'Not enough money',
        orderId: o.orderId,
      },
    });
  }
  acc.orders.set(o.orderId, o);
  execution(st, ctid, { executionType: ExecutionType.ORDER_ACCEPTED, order: orderOf(o) }, origin);
  if (orderType === OrderType.MARKET) fill(st, acc, o, origin);
}

/** Fills an opening order into a new position. */
function fill(st: OpenApiState, acc: AccountState, o: Ord, origin?: Origin): void {
  const ctid = acc.account.ctidTraderAccountId;
  const sym = symbolOf(st, o.symbolId);
  const price =
    o.orderType === OrderType.LIMIT ? (o.limitPrice as number) : fillPrice(st, o.symbolId, o.side);
  const sign = o.side === TradeSide.BUY ? 1 : -1;
  const rel = (v: number | undefined) => (v === undefined ? undefined : v / PRICE_SCALE);
  const round = (v: number) => Number(v.toFixed(sym.digits));
  const commission = Math.round(((st.opts.commissionPerLot ?? 300) * o.volume) / sym.lotSize);
  const pos: Pos = {
    positionId: newId(st),
    symbolId: o.symbolId,
    side: o.side,
    volume: o.volume,
    price,
    stopLoss:
      o.stopLoss ??
      (o.relativeStopLoss !== undefined
        ? round(price - sign * (rel(o.relativeStopLoss) as number))
        : undefined),
    takeProfit:
      o.takeProfit ??
      (o.relativeTakeProfit !== undefined
        ? round(price + sign * (rel(o.relativeTakeProfit) as number))
        : undefined),
    openTimestamp: Date.now(),
    label: o.label,
    comment: o.comment,
    commission,
  };
  acc.positions.set(pos.positionId, pos);
  acc.orders.delete(o.orderId);
  o.orderStatus = OrderStatus.ORDER_STATUS_FILLED;
  o.executionPrice = price;
  o.executedVolume = o.volume;
  o.positionId = pos.positionId;
  acc.account.balance -= commission;
  const now = Date.now();
  const deal: DealRec = {
    dealId: newId(st),
    orderId: o.orderId,
    positionId: pos.positionId,
    volume: o.volume,
    filledVolume: o.volume,
    symbolId: o.symbolId,
    createTimestamp: now,
    executionTimestamp: now,
    executionPrice: price,
    tradeSide: o.side,
    dealStatus: 2,
    commission: -commission,
    moneyDigits: 2,
  };
  acc.deals.push(deal);
  execution(
    st,
    ctid,
    {
      executionType: ExecutionType.ORDER_FILLED,
      order: orderOf(o),
      position: positionOf(st, acc, pos),
      deal,
    },
    origin,
  );
}

/** Closes `volume` of a position with a market (or protection) order. */
function closeVolume(
  st: OpenApiState,
  acc: AccountState,
  pos: Pos,
  volume: number,
  orderType: number,
  origin?: Origin,
): void {
  const ctid = acc.account.ctidTraderAccountId;
  const closeSide = pos.side === TradeSide.BUY ? TradeSide.SELL : TradeSide.BUY;
  const price = fillPrice(st, pos.symbolId, closeSide);
  const o: Ord = {
    orderId: newId(st),
    symbolId: pos.symbolId,
    side: closeSide,
    volume,
    orderType,
    orderStatus: OrderStatus.ORDER_STATUS_FILLED,
    closingOrder: true,
    positionId: pos.positionId,
    openTimestamp: Date.now(),
    executionPrice: price,
    executedVolume: volume,
  };
  execution(
    st,
    ctid,
    {
      executionType: ExecutionType.ORDER_ACCEPTED,
      order: orderOf({ ...o, orderStatus: OrderStatus.ORDER_STATUS_ACCEPTED }),
    },
    origin,
  );
  const gross = pnlCents(st, acc, pos, volume, price);
  const commission = Math.round((pos.commission * volume) / pos.volume);
  pos.commission -= commission;
  pos.volume -= volume;
  acc.account.balance += gross - commission;
  const now = Date.now();
  const deal: DealRec = {
    dealId: newId(st),
    orderId: o.orderId,
    positionId: pos.positionId,
    volume,
    filledVolume: volume,
    symbolId: pos.symbolId,
    createTimestamp: now,
    executionTimestamp: now,
    executionPrice: price,
    tradeSide: closeSide,
    dealStatus: 2,
    commission: -commission,
    moneyDigits: 2,
    closePositionDetail: {
      entryPrice: pos.price,
      grossProfit: gross,
      swap: 0,
      commission: -commission,
      balance: acc.account.balance,
      closedVolume: volume,
      moneyDigits: 2,
    },
  };
  acc.deals.push(deal);
  const snapshot = positionOf(st, acc, pos);
  if (pos.volume === 0) acc.positions.delete(pos.positionId);
  execution(
    st,
    ctid,
    { executionType: ExecutionType.ORDER_FILLED, order: orderOf(o), position: snapshot, deal },
    origin,
  );
}

export function amendPosition(
  st: OpenApiState,
  origin: Origin,
  acc: AccountState,
  p: Record<string, unknown>,
): void {
  const ctid = acc.account.ctidTraderAccountId;
  const pos = acc.positions.get(num(p.positionId) ?? -1);
  if (!pos) return sendError(st, origin, 'POSITION_NOT_FOUND', 'Position not found', ctid);
  pos.stopLoss = num(p.stopLoss);
  pos.takeProfit = num(p.takeProfit);
  execution(
    st,
    ctid,
    { executionType: ExecutionType.ORDER_REPLACED, position: positionOf(st, acc, pos) },
    origin,
  );
}

export function closePosition(
  st: OpenApiState,
  origin: Origin,
  acc: AccountState,
  p: Record<string, unknown>,
): void {
  const ctid = acc.account.ctidTraderAccountId;
  const pos = acc.positions.get(num(p.positionId) ?? -1);
  if (!pos) return sendError(st, origin, 'POSITION_NOT_FOUND', 'Position not found', ctid);
  const volume = num(p.volume) ?? 0;
  if (volume <= 0 || volume > pos.volume || volume % 100_000 !== 0) {
    return sendError(st, origin, 'TRADING_BAD_VOLUME', `Invalid volume ${volume}`, ctid);
  }
  closeVolume(st, acc, pos, volume, OrderType.MARKET, origin);
}

export function cancelOrder(
  st: OpenApiState,
  origin: Origin,
  acc: AccountState,
  p: Record<string, unknown>,
): void {
  const ctid = acc.account.ctidTraderAccountId;
  const o = acc.orders.get(num(p.orderId) ?? -1);
  if (!o || o.orderStatus !== OrderStatus.ORDER_STATUS_ACCEPTED)
    return sendError(st, origin, 'ORDER_NOT_FOUND', 'Order not found', ctid);
  o.orderStatus = OrderStatus.ORDER_STATUS_CANCELLED;
  acc.orders.delete(o.orderId);
  execution(st, ctid, { executionType: ExecutionType.ORDER_CANCELLED, order: orderOf(o) }, origin);
}

/** After a price change: subscribers get the spot, crossed limits fill, hit stops and targets close. */
export function afterPriceChange(st: OpenApiState, sym: FakeSymbol): void {
  for (const s of st.sessions) {
    for (const [ctid, ids] of s.spots) {
      if (ids.has(sym.symbolId)) {
        sendTo(st, s, {
          payloadType: PT.SPOT_EVENT,
          payload: {
            ctidTraderAccountId: ctid,
            symbolId: sym.symbolId,
            bid: sym.bid,
            ask: sym.ask,
            timestamp: Date.now(),
          },
        });
      }
    }
  }
  const bid = sym.bid / PRICE_SCALE;
  const ask = sym.ask / PRICE_SCALE;
  for (const acc of st.accounts.values()) {
    for (const o of [...acc.orders.values()]) {
      if (
        o.symbolId !== sym.symbolId ||
        o.orderType !== OrderType.LIMIT ||
        o.orderStatus !== OrderStatus.ORDER_STATUS_ACCEPTED
      )
        continue;
      const lp = o.limitPrice as number;
      if ((o.side === TradeSide.BUY && ask <= lp) || (o.side === TradeSide.SELL && bid >= lp))
        fill(st, acc, o);
    }
    for (const pos of [...acc.positions.values()]) {
      if (pos.symbolId !== sym.symbolId) continue;
      const px = pos.side === TradeSide.BUY ? bid : ask;
      const buy = pos.side === TradeSide.BUY;
      const slHit = pos.stopLoss !== undefined && (buy ? px <= pos.stopLoss : px >= pos.stopLoss);
      const tpHit = pos.takeProfit !== undefined && (buy ? px >= pos.takeProfit : px <= pos.takeProfit);
      if (slHit || tpHit) closeVolume(st, acc, pos, pos.volume, OrderType.STOP_LOSS_TAKE_PROFIT);
    }
  }
}
