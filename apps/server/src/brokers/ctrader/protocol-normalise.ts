/** Normalisers of Open API JSON payloads: the JSON port may send int64 as strings and enums as names. */
import {
  TradeSide,
  OrderType,
  OrderStatus,
  PositionStatus,
  DealStatus,
  enumValue,
  num,
  type ProtoTradeData,
  type ProtoPosition,
  type ProtoOrder,
  type ProtoDeal,
  type ProtoTrendbar,
  type ProtoTrader,
} from './protocol';

export function normTradeData(t: Record<string, unknown> | undefined): ProtoTradeData {
  const o = t ?? {};
  return {
    symbolId: num(o.symbolId) ?? 0,
    volume: num(o.volume) ?? 0,
    tradeSide: enumValue('tradeSide', o.tradeSide) ?? TradeSide.BUY,
    openTimestamp: num(o.openTimestamp),
    label: typeof o.label === 'string' ? o.label : undefined,
    comment: typeof o.comment === 'string' ? o.comment : undefined,
    closeTimestamp: num(o.closeTimestamp),
  };
}

export function normPosition(p: Record<string, unknown>): ProtoPosition {
  return {
    positionId: num(p.positionId) ?? 0,
    tradeData: normTradeData(p.tradeData as Record<string, unknown>),
    positionStatus: enumValue('positionStatus', p.positionStatus) ?? PositionStatus.POSITION_STATUS_OPEN,
    swap: num(p.swap) ?? 0,
    price: num(p.price),
    stopLoss: num(p.stopLoss),
    takeProfit: num(p.takeProfit),
    utcLastUpdateTimestamp: num(p.utcLastUpdateTimestamp),
    commission: num(p.commission),
    usedMargin: num(p.usedMargin),
    moneyDigits: num(p.moneyDigits),
  };
}

export function normOrder(o: Record<string, unknown>): ProtoOrder {
  return {
    orderId: num(o.orderId) ?? 0,
    tradeData: normTradeData(o.tradeData as Record<string, unknown>),
    orderType: enumValue('orderType', o.orderType) ?? OrderType.MARKET,
    orderStatus: enumValue('orderStatus', o.orderStatus) ?? OrderStatus.ORDER_STATUS_ACCEPTED,
    executionPrice: num(o.executionPrice),
    executedVolume: num(o.executedVolume),
    utcLastUpdateTimestamp: num(o.utcLastUpdateTimestamp),
    closingOrder: o.closingOrder === true,
    limitPrice: num(o.limitPrice),
    stopLoss: num(o.stopLoss),
    takeProfit: num(o.takeProfit),
    clientOrderId: typeof o.clientOrderId === 'string' ? o.clientOrderId : undefined,
    positionId: num(o.positionId),
    relativeStopLoss: num(o.relativeStopLoss),
    relativeTakeProfit: num(o.relativeTakeProfit),
    isStopOut: o.isStopOut === true,
  };
}

export function normDeal(d: Record<string, unknown>): ProtoDeal {
  const c = d.closePositionDetail as Record<string, unknown> | undefined;
  return {
    dealId: num(d.dealId) ?? 0,
    orderId: num(d.orderId) ?? 0,
    positionId: num(d.positionId) ?? 0,
    volume: num(d.volume) ?? 0,
    filledVolume: num(d.filledVolume) ?? 0,
    symbolId: num(d.symbolId) ?? 0,
    createTimestamp: num(d.createTimestamp) ?? 0,
    executionTimestamp: num(d.executionTimestamp) ?? 0,
    executionPrice: num(d.executionPrice),
    tradeSide: enumValue('tradeSide', d.tradeSide) ?? TradeSide.BUY,
    dealStatus: enumValue('dealStatus', d.dealStatus) ?? DealStatus.FILLED,
    commission: num(d.commission),
    moneyDigits: num(d.moneyDigits),
    closePositionDetail: c
      ? {
          entryPrice: num(c.entryPrice) ?? 0,
          grossProfit: num(c.grossProfit) ?? 0,
          swap: num(c.swap) ?? 0,
          commission: num(c.commission) ?? 0,
          balance: num(c.balance) ?? 0,
          closedVolume: num(c.closedVolume),
          moneyDigits: num(c.moneyDigits),
        }
      : undefined,
  };
}

export function normTrendbar(t: Record<string, unknown>): ProtoTrendbar {
  return {
    volume: num(t.volume) ?? 0,
    period: enumValue('period', t.period),
    low: num(t.low),
    deltaOpen: num(t.deltaOpen),
    deltaClose: num(t.deltaClose),
    deltaHigh: num(t.deltaHigh),
    utcTimestampInMinutes: num(t.utcTimestampInMinutes),
  };
}

export function normTrader(t: Record<string, unknown>): ProtoTrader {
  return {
    ctidTraderAccountId: num(t.ctidTraderAccountId) ?? 0,
    balance: num(t.balance) ?? 0,
    depositAssetId: num(t.depositAssetId) ?? 0,
    leverageInCents: num(t.leverageInCents),
    accountType: enumValue('accountType', t.accountType),
    brokerName: typeof t.brokerName === 'string' ? t.brokerName : undefined,
    traderLogin: num(t.traderLogin),
    moneyDigits: num(t.moneyDigits),
  };
}

export const arr = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Record<string, unknown>[]) : [];

/** Money fields are integers scaled by 10^moneyDigits (2 when the field is absent). */
export const money = (v: number | undefined, moneyDigits: number | undefined): number =>
  (v ?? 0) / 10 ** (moneyDigits ?? 2);
