/**
 * The fake Open API server's answers to requests: application and account auth, accounts by token,
 * version, trader, assets, symbols (light and full), spot subscriptions, reconcile, unrealised P/L,
 * deals and trendbars; orders go to the trade server (fake-openapi-trading).
 */
import { OrderStatus, PT, enumValue, num, type OpenApiFrame } from '../../brokers/ctrader/protocol';
import {
  ASSETS,
  PERIOD_SECONDS,
  accountState,
  symbolOf,
  type FakeAccount,
  type OpenApiState,
  type Origin,
  type Session,
} from './fake-openapi-state';
import { amendPosition, cancelOrder, closePosition, newOrder } from './fake-openapi-trading';
import { orderOf, pnlCents, positionOf, reply, sendError, sendTo, traderOf } from './fake-openapi-wire';

const symbolIds = (v: unknown) => (Array.isArray(v) ? v : [v]).map((x) => num(x) ?? 0);

export function handleRequest(st: OpenApiState, s: Session, f: OpenApiFrame): void {
  const o: Origin = { s, f };
  const p = (f.payload ?? {}) as Record<string, unknown>;
  if (st.errorMode) return sendError(st, o, st.errorMode, 'Server is under maintenance');
  if (f.payloadType === PT.APPLICATION_AUTH_REQ) {
    if (p.clientId !== st.opts.clientId || p.clientSecret !== st.opts.clientSecret) {
      return sendError(st, o, 'CH_CLIENT_AUTH_FAILURE', 'clientId or clientSecret is incorrect');
    }
    if (s.appAuthed)
      return sendError(
        st,
        o,
        'CH_CLIENT_ALREADY_AUTHENTICATED',
        'Open API application is already authorized',
      );
    s.appAuthed = true;
    return reply(st, o, PT.APPLICATION_AUTH_RES, {});
  }
  if (!s.appAuthed)
    return sendError(st, o, 'CH_CLIENT_NOT_AUTHENTICATED', 'Open API application is not authorized');
  if (f.payloadType === PT.VERSION_REQ) return reply(st, o, PT.VERSION_RES, { version: 'fake-1' });
  if (f.payloadType === PT.GET_ACCOUNTS_BY_ACCESS_TOKEN_REQ) {
    const token = String(p.accessToken ?? '');
    const ids = st.opts.tokenAccounts(token);
    if (!ids) return sendError(st, o, 'CH_ACCESS_TOKEN_INVALID', 'Access token is invalid or expired');
    return reply(st, o, PT.GET_ACCOUNTS_BY_ACCESS_TOKEN_RES, {
      accessToken: token,
      permissionScope: 1,
      ctidTraderAccount: ids
        .map((id) => st.accounts.get(id)?.account)
        .filter((a): a is FakeAccount => a !== undefined)
        .map((a) => ({
          ctidTraderAccountId: a.ctidTraderAccountId,
          isLive: a.isLive,
          traderLogin: a.traderLogin,
          brokerTitleShort: a.brokerName,
        })),
    });
  }
  const ctid = num(p.ctidTraderAccountId) ?? 0;
  if (f.payloadType === PT.ACCOUNT_AUTH_REQ) {
    const ids = st.opts.tokenAccounts(String(p.accessToken ?? ''));
    if (!ids) return sendError(st, o, 'CH_ACCESS_TOKEN_INVALID', 'Access token is invalid or expired', ctid);
    if (!ids.includes(ctid) || !st.accounts.has(ctid))
      return sendError(st, o, 'CH_CTID_TRADER_ACCOUNT_NOT_FOUND', 'Trading account is not found', ctid);
    s.accounts.add(ctid);
    return reply(st, o, PT.ACCOUNT_AUTH_RES, { ctidTraderAccountId: ctid });
  }
  if (!s.accounts.has(ctid))
    return sendError(st, o, 'ACCOUNT_NOT_AUTHORIZED', 'Trading account is not authorized', ctid);
  const acc = accountState(st, ctid);
  switch (f.payloadType) {
    case PT.TRADER_REQ:
      return reply(st, o, PT.TRADER_RES, { ctidTraderAccountId: ctid, trader: traderOf(acc) });
    case PT.ASSET_LIST_REQ:
      return reply(st, o, PT.ASSET_LIST_RES, {
        ctidTraderAccountId: ctid,
        asset: Object.entries(ASSETS).map(([name, assetId]) => ({
          assetId,
          name,
          displayName: name,
          digits: name === 'JPY' ? 0 : 2,
        })),
      });
    case PT.SYMBOLS_LIST_REQ:
      return reply(st, o, PT.SYMBOLS_LIST_RES, {
        ctidTraderAccountId: ctid,
        symbol: st.symbols.map((x) => ({
          symbolId: x.symbolId,
          symbolName: x.name,
          enabled: true,
          baseAssetId: ASSETS[x.base],
          quoteAssetId: ASSETS[x.quote],
          description: `${x.base} vs ${x.quote}`,
        })),
      });
    case PT.SYMBOL_BY_ID_REQ: {
      const ids = (Array.isArray(p.symbolId) ? p.symbolId : [p.symbolId]).map((v) => num(v));
      return reply(st, o, PT.SYMBOL_BY_ID_RES, {
        ctidTraderAccountId: ctid,
        symbol: st.symbols
          .filter((x) => ids.includes(x.symbolId))
          .map((x) => ({
            symbolId: x.symbolId,
            digits: x.digits,
            pipPosition: x.pipPosition,
            lotSize: x.lotSize,
            minVolume: 100_000,
            stepVolume: 100_000,
            maxVolume: 10_000_000_000,
          })),
      });
    }
    case PT.SUBSCRIBE_SPOTS_REQ:
      return subscribeSpots(st, o, ctid, symbolIds(p.symbolId));
    case PT.UNSUBSCRIBE_SPOTS_REQ: {
      for (const id of symbolIds(p.symbolId)) s.spots.get(ctid)?.delete(id);
      return reply(st, o, PT.UNSUBSCRIBE_SPOTS_RES, { ctidTraderAccountId: ctid });
    }
    case PT.RECONCILE_REQ:
      return reply(st, o, PT.RECONCILE_RES, {
        ctidTraderAccountId: ctid,
        position: [...acc.positions.values()].map((x) => positionOf(st, acc, x)),
        order: [...acc.orders.values()]
          .filter((x) => x.orderStatus === OrderStatus.ORDER_STATUS_ACCEPTED)
          .map((x) => orderOf(x)),
      });
    case PT.GET_POSITION_UNREALIZED_PNL_REQ:
      return reply(st, o, PT.GET_POSITION_UNREALIZED_PNL_RES, {
        ctidTraderAccountId: ctid,
        positionUnrealizedPnL: [...acc.positions.values()].map((x) => {
          const gross = pnlCents(st, acc, x, x.volume);
          return {
            positionId: x.positionId,
            grossUnrealizedPnL: gross,
            netUnrealizedPnL: gross - x.commission,
          };
        }),
        moneyDigits: 2,
      });
    case PT.NEW_ORDER_REQ:
      return newOrder(st, o, acc, p);
    case PT.AMEND_POSITION_SLTP_REQ:
      return amendPosition(st, o, acc, p);
    case PT.CLOSE_POSITION_REQ:
      return closePosition(st, o, acc, p);
    case PT.CANCEL_ORDER_REQ:
      return cancelOrder(st, o, acc, p);
    case PT.DEAL_LIST_REQ: {
      const from = num(p.fromTimestamp) ?? 0;
      const to = num(p.toTimestamp) ?? Date.now();
      const max = num(p.maxRows) ?? 1000;
      const all = acc.deals.filter((d) => d.executionTimestamp >= from && d.executionTimestamp <= to);
      const newest = [...all].sort((a, b) => b.executionTimestamp - a.executionTimestamp).slice(0, max);
      return reply(st, o, PT.DEAL_LIST_RES, {
        ctidTraderAccountId: ctid,
        deal: newest,
        hasMore: all.length > max,
      });
    }
    case PT.GET_TRENDBARS_REQ:
      return trendbars(st, o, ctid, p);
    default:
      return sendTo(st, s, {
        clientMsgId: f.clientMsgId,
        payloadType: PT.ERROR_RES,
        payload: {
          errorCode: 'UNSUPPORTED_MESSAGE',
          description: `payloadType ${f.payloadType} is not supported`,
        },
      });
  }
}

function subscribeSpots(st: OpenApiState, o: Origin, ctid: number, ids: number[]): void {
  const unknown = ids.find((id) => !st.symbols.some((x) => x.symbolId === id));
  if (unknown !== undefined) return sendError(st, o, 'SYMBOL_NOT_FOUND', `Symbol ${unknown} not found`, ctid);
  let subs = o.s.spots.get(ctid);
  if (!subs) o.s.spots.set(ctid, (subs = new Set()));
  const already = ids.find((id) => subs.has(id));
  if (already !== undefined)
    return sendError(st, o, 'ALREADY_SUBSCRIBED', `Already subscribed to ${already}`, ctid);
  for (const id of ids) subs.add(id);
  reply(st, o, PT.SUBSCRIBE_SPOTS_RES, { ctidTraderAccountId: ctid });
  // The first spot event after a subscription carries the latest prices.
  for (const id of ids) {
    const sym = symbolOf(st, id);
    sendTo(st, o.s, {
      payloadType: PT.SPOT_EVENT,
      payload: { ctidTraderAccountId: ctid, symbolId: id, bid: sym.bid, ask: sym.ask, timestamp: Date.now() },
    });
  }
}

function trendbars(st: OpenApiState, o: Origin, ctid: number, p: Record<string, unknown>): void {
  const period = enumValue('period', p.period) ?? 0;
  const secs = PERIOD_SECONDS[period];
  const symbolId = num(p.symbolId) ?? 0;
  if (!secs) return sendError(st, o, 'INVALID_REQUEST', 'Invalid period', ctid);
  if (!st.symbols.some((x) => x.symbolId === symbolId))
    return sendError(st, o, 'SYMBOL_NOT_FOUND', 'Symbol not found', ctid);
  const from = num(p.fromTimestamp) ?? 0;
  const to = Math.min(num(p.toTimestamp) ?? Date.now(), Date.now());
  const step = secs * 1000;
  const first = Math.ceil(from / step) * step;
  const times: number[] = [];
  for (let t = first; t <= to; t += step) times.push(t);
  const chunk = times.slice(-st.trendbarChunk);
  const sym = symbolOf(st, symbolId);
  const bars = chunk.map((t) => {
    // A deterministic wave around the current bid: open at t, close at t+period.
    const at = (ms: number) => Math.round(sym.bid * (1 + 0.002 * Math.sin(ms / 3_600_000 + symbolId)));
    const open = at(t);
    const close = at(t + step);
    const low = Math.min(open, close) - 7;
    const high = Math.max(open, close) + 5;
    return {
      volume: 100 + ((t / step) % 50),
      period,
      low,
      deltaOpen: open - low,
      deltaClose: close - low,
      deltaHigh: high - low,
      utcTimestampInMinutes: Math.floor(t / 60_000),
    };
  });
  reply(st, o, PT.GET_TRENDBARS_RES, {
    ctidTraderAccountId: ctid,
    period,
    trendbar: bars,
    symbolId,
    hasMore: times.length > chunk.length,
  });
}
