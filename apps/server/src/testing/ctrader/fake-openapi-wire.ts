/**
 * What the fake Open API server puts on the wire: frames to one session (answers, errors) or to every
 * session of an account (execution events), and the protocol's shapes of its trader, positions and
 * orders with the money they carry (P/L and used margin in deposit cents).
 */
import { OrderType, PRICE_SCALE, PT, TradeSide, type OpenApiFrame } from '../../brokers/ctrader/protocol';
import {
  ASSETS,
  symbolOf,
  type AccountState,
  type OpenApiState,
  type Ord,
  type Origin,
  type Pos,
  type Session,
} from './fake-openapi-state';

export function sendTo(st: OpenApiState, s: Session, f: OpenApiFrame): void {
  if (!st.frozen && s.ws.readyState === s.ws.OPEN) s.ws.send(JSON.stringify(f));
}

/** ProtoOAErrorRes to the request `f`. */
export function sendError(
  st: OpenApiState,
  { s, f }: Origin,
  errorCode: string,
  description: string,
  ctid?: number,
): void {
  sendTo(st, s, {
    clientMsgId: f.clientMsgId,
    payloadType: PT.ERROR_RES_OA,
    payload: { ...(ctid ? { ctidTraderAccountId: ctid } : {}), errorCode, description },
  });
}

export function reply(
  st: OpenApiState,
  { s, f }: Origin,
  payloadType: number,
  payload: Record<string, unknown>,
): void {
  sendTo(st, s, { clientMsgId: f.clientMsgId, payloadType, payload });
}

/** Execution events go to the requester (with its clientMsgId) and to every other session of the account. */
export function execution(
  st: OpenApiState,
  ctid: number,
  payload: Record<string, unknown>,
  origin?: Origin,
): void {
  const full = { ctidTraderAccountId: ctid, ...payload };
  for (const s of st.sessions) {
    if (!s.accounts.has(ctid)) continue;
    const mine = origin && origin.s === s;
    sendTo(st, s, {
      ...(mine ? { clientMsgId: origin.f.clientMsgId } : {}),
      payloadType: PT.EXECUTION_EVENT,
      payload: full,
    });
  }
}

export function traderOf(acc: AccountState): Record<string, unknown> {
  const a = acc.account;
  return {
    ctidTraderAccountId: a.ctidTraderAccountId,
    balance: a.balance,
    depositAssetId: ASSETS[a.depositAsset],
    leverageInCents: a.leverage * 100,
    accountType: 0,
    brokerName: a.brokerName,
    traderLogin: a.traderLogin,
    moneyDigits: 2,
  };
}

/** Gross P/L in deposit cents of `volume` of the position at the current closing price. */
export function pnlCents(
  st: OpenApiState,
  acc: AccountState,
  pos: Pos,
  volume: number,
  closePrice?: number,
): number {
  const sym = symbolOf(st, pos.symbolId);
  const close = closePrice ?? (pos.side === TradeSide.BUY ? sym.bid / PRICE_SCALE : sym.ask / PRICE_SCALE);
  const units = volume / 100;
  const diff = (pos.side === TradeSide.BUY ? close - pos.price : pos.price - close) * units;
  const inDeposit =
    sym.quote === acc.account.depositAsset
      ? diff
      : sym.base === acc.account.depositAsset
        ? diff / close
        : diff;
  return Math.round(inDeposit * 100);
}

export function usedMargin(st: OpenApiState, acc: AccountState, pos: Pos): number {
  const sym = symbolOf(st, pos.symbolId);
  const units = pos.volume / 100;
  const notional = sym.base === acc.account.depositAsset ? units : units * pos.price;
  return Math.round((notional / acc.account.leverage) * 100);
}

export function positionOf(st: OpenApiState, acc: AccountState, x: Pos): Record<string, unknown> {
  return {
    positionId: x.positionId,
    tradeData: {
      symbolId: x.symbolId,
      volume: x.volume,
      tradeSide: x.side,
      openTimestamp: x.openTimestamp,
      ...(x.label ? { label: x.label } : {}),
      ...(x.comment ? { comment: x.comment } : {}),
    },
    positionStatus: x.volume > 0 ? 1 : 2,
    swap: 0,
    price: x.price,
    ...(x.stopLoss !== undefined ? { stopLoss: x.stopLoss } : {}),
    ...(x.takeProfit !== undefined ? { takeProfit: x.takeProfit } : {}),
    utcLastUpdateTimestamp: Date.now(),
    commission: -x.commission,
    usedMargin: x.volume > 0 ? usedMargin(st, acc, x) : 0,
    moneyDigits: 2,
  };
}

export function orderOf(o: Ord): Record<string, unknown> {
  return {
    orderId: o.orderId,
    tradeData: {
      symbolId: o.symbolId,
      volume: o.volume,
      tradeSide: o.side,
      openTimestamp: o.openTimestamp,
      ...(o.label ? { label: o.label } : {}),
      ...(o.comment ? { comment: o.comment } : {}),
    },
    orderType: o.orderType,
    orderStatus: o.orderStatus,
    ...(o.executionPrice !== undefined
      ? { executionPrice: o.executionPrice, executedVolume: o.executedVolume }
      : {}),
    utcLastUpdateTimestamp: Date.now(),
    closingOrder: o.closingOrder === true,
    ...(o.limitPrice !== undefined ? { limitPrice: o.limitPrice } : {}),
    ...(o.stopLoss !== undefined ? { stopLoss: o.stopLoss } : {}),
    ...(o.takeProfit !== undefined ? { takeProfit: o.takeProfit } : {}),
    ...(o.relativeStopLoss !== undefined ? { relativeStopLoss: o.relativeStopLoss } : {}),
    ...(o.relativeTakeProfit !== undefined ? { relativeTakeProfit: o.relativeTakeProfit } : {}),
    ...(o.clientOrderId ? { clientOrderId: o.clientOrderId } : {}),
    ...(o.positionId ? { positionId: o.positionId } : {}),
    timeInForce: o.orderType === OrderType.LIMIT ? 2 : 3,
  };
}
