import type { Quote } from '../types';
import { toDeal, toPendingOrder, toPosition } from './ct-mapping';
import { emit, roundTo, type CtState } from './ct-state';
import { ExecutionType, OrderType, PRICE_SCALE, PT, enumValue, num, type OpenApiFrame } from './protocol';
import { normDeal, normOrder, normPosition } from './protocol-normalise';

/** Events pushed by the server: spots become quotes, executions become deal, order and position events. */

export function onFrame(st: CtState, f: OpenApiFrame): void {
  const p = f.payload ?? {};
  switch (f.payloadType) {
    case PT.SPOT_EVENT:
      return onSpot(st, p);
    case PT.EXECUTION_EVENT:
      return onExecution(st, p);
    case PT.ACCOUNTS_TOKEN_INVALIDATED_EVENT:
    case PT.CLIENT_DISCONNECT_EVENT:
    case PT.ACCOUNT_DISCONNECT_EVENT:
      // The session is gone: drop the socket so that the reconnect loop re-authorises with a fresh token.
      st.opts.log?.warn({ payloadType: f.payloadType, reason: p.reason }, 'cTrader ended the session');
      st.conn?.close();
      return;
    default:
      return;
  }
}

function onSpot(st: CtState, p: Record<string, unknown>): void {
  const symbolId = num(p.symbolId);
  if (symbolId === undefined) return;
  const entry = st.symbolsById.get(symbolId);
  const prev = st.quotes.get(symbolId);
  const bid = num(p.bid);
  const ask = num(p.ask);
  if (bid === undefined && ask === undefined && !prev) return;
  const digits = entry?.full?.digits ?? 5;
  // A spot event only carries the side that changed.
  const q: Quote = {
    symbol: entry?.name ?? String(symbolId),
    bid: bid !== undefined ? roundTo(bid / PRICE_SCALE, digits) : (prev?.bid ?? 0),
    ask: ask !== undefined ? roundTo(ask / PRICE_SCALE, digits) : (prev?.ask ?? 0),
    time: num(p.timestamp) ?? Date.now(),
  };
  if (!q.bid || !q.ask) {
    st.quotes.set(symbolId, q);
    return;
  }
  st.quotes.set(symbolId, q);
  for (const fn of st.quoteSubs.get(q.symbol) ?? []) fn(q);
  emit(st, { type: 'quote', quote: q });
}

function onExecution(st: CtState, p: Record<string, unknown>): void {
  const type = enumValue('executionType', p.executionType);
  const order = p.order ? normOrder(p.order as Record<string, unknown>) : undefined;
  const position = p.position ? normPosition(p.position as Record<string, unknown>) : undefined;
  const deal = p.deal ? normDeal(p.deal as Record<string, unknown>) : undefined;
  if (deal && (type === ExecutionType.ORDER_FILLED || type === ExecutionType.ORDER_PARTIAL_FILL)) {
    emit(st, { type: 'execution', deal: toDeal(st, deal, order) });
  }
  if (order && order.orderType === OrderType.LIMIT) {
    const status =
      type === ExecutionType.ORDER_ACCEPTED
        ? 'PLACED'
        : type === ExecutionType.ORDER_FILLED
          ? 'FILLED'
          : type === ExecutionType.ORDER_CANCELLED || type === ExecutionType.ORDER_EXPIRED
            ? 'CANCELLED'
            : undefined;
    if (status) emit(st, { type: 'order', order: toPendingOrder(st, order), status });
  }
  if (
    position &&
    (type === ExecutionType.ORDER_FILLED ||
      type === ExecutionType.ORDER_REPLACED ||
      type === ExecutionType.ORDER_PARTIAL_FILL)
  ) {
    const closed = position.positionStatus === 2 || position.tradeData.volume === 0;
    const opened =
      !closed && deal !== undefined && !deal.closePositionDetail && type === ExecutionType.ORDER_FILLED;
    emit(st, {
      type: 'position',
      position: toPosition(st, position),
      status: closed ? 'CLOSED' : opened ? 'OPENED' : 'UPDATED',
    });
  }
}
