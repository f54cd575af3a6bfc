import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  ExecutionType,
  OrderStatus,
  OrderType,
  PRICE_SCALE,
  PT,
  TradeSide,
  TrendbarPeriod,
  enumValue,
  num,
  type OpenApiFrame,
  type ProtoDeal,
} from '../../brokers/ctrader/protocol';

/**
 * A small cTrader Open API server for the test suite, speaking the JSON port's messages over
 * WebSocket: application and account auth, account list by token, trader, assets, symbols (light
 * and full), spots it pushes, market orders filling at bid/ask, limit orders filling when crossed,
 * SL/TP, amend, full and partial close, cancel, reconcile, deals, trendbars, unrealised P/L and
 * heartbeats. Switches: `errorMode` (every request answered with ProtoOAErrorRes), `dropConnections()`
 * and `stop()`/`start()` to take it down and bring it back on the same port.
 */

export interface FakeAccount {
  ctidTraderAccountId: number;
  traderLogin: number;
  isLive: boolean;
  brokerName: string;
  depositAsset: string;
  /** Balance in cents (moneyDigits 2). */
  balance: number;
  leverage: number;
}

interface FakeSymbol {
  symbolId: number;
  name: string;
  base: string;
  quote: string;
  digits: number;
  pipPosition: number;
  lotSize: number;
  /** Prices as integers in 1/100000. */
  bid: number;
  ask: number;
}

interface Pos {
  positionId: number;
  symbolId: number;
  side: number;
  volume: number;
  price: number;
  stopLoss?: number;
  takeProfit?: number;
  openTimestamp: number;
  label?: string;
  comment?: string;
  commission: number;
}

interface Ord {
  orderId: number;
  symbolId: number;
  side: number;
  volume: number;
  orderType: number;
  orderStatus: number;
  limitPrice?: number;
  stopLoss?: number;
  takeProfit?: number;
  relativeStopLoss?: number;
  relativeTakeProfit?: number;
  label?: string;
  clientOrderId?: string;
  comment?: string;
  positionId?: number;
  closingOrder?: boolean;
  openTimestamp: number;
  executionPrice?: number;
  executedVolume?: number;
}

/** The protocol's deal, as the fake server always sends it: price, commission and digits set. */
type DealRec = ProtoDeal & Required<Pick<ProtoDeal, 'executionPrice' | 'commission' | 'moneyDigits'>>;

interface AccountState {
  account: FakeAccount;
  positions: Map<number, Pos>;
  orders: Map<number, Ord>;
  deals: DealRec[];
}

interface Session {
  ws: WebSocket;
  appAuthed: boolean;
  accounts: Set<number>;
  spots: Map<number, Set<number>>;
}

export interface FakeOpenApiOptions {
  clientId: string;
  clientSecret: string;
  accounts: FakeAccount[];
  /** The accounts an access token opens, or null when it is not valid (e.g. FakeOAuthServer.accountsFor). */
  tokenAccounts: (token: string) => number[] | null;
  /** Push spot ticks every this many ms to subscribers (0: only on setPrice). */
  tickMs?: number;
  heartbeatMs?: number;
  /** Commission per lot per side in cents. */
  commissionPerLot?: number;
}

const ASSETS: Record<string, number> = { EUR: 1, USD: 2, GBP: 3, JPY: 4 };

function defaultSymbols(): FakeSymbol[] {
  return [
    {
      symbolId: 1,
      name: 'EUR/USD',
      base: 'EUR',
      quote: 'USD',
      digits: 5,
      pipPosition: 4,
      lotSize: 10_000_000,
      bid: 108_500,
      ask: 108_510,
    },
    {
      symbolId: 2,
      name: 'GBP/USD',
      base: 'GBP',
      quote: 'USD',
      digits: 5,
      pipPosition: 4,
      lotSize: 10_000_000,
      bid: 126_400,
      ask: 126_415,
    },
    {
      symbolId: 3,
      name: 'USD/JPY',
      base: 'USD',
      quote: 'JPY',
      digits: 3,
      pipPosition: 2,
      lotSize: 10_000_000,
      bid: 15_123_000,
      ask: 15_124_500,
    },
  ];
}

const PERIOD_SECONDS: Record<number, number> = {
  [TrendbarPeriod.M1]: 60,
  [TrendbarPeriod.M2]: 120,
  [TrendbarPeriod.M3]: 180,
  [TrendbarPeriod.M4]: 240,
  [TrendbarPeriod.M5]: 300,
  [TrendbarPeriod.M10]: 600,
  [TrendbarPeriod.M15]: 900,
  [TrendbarPeriod.M30]: 1800,
  [TrendbarPeriod.H1]: 3600,
  [TrendbarPeriod.H4]: 14_400,
  [TrendbarPeriod.H12]: 43_200,
  [TrendbarPeriod.D1]: 86_400,
  [TrendbarPeriod.W1]: 604_800,
  [TrendbarPeriod.MN1]: 2_592_000,
};

export class FakeOpenApiServer {
  private wss: WebSocketServer | undefined;
  private port = 0;
  private readonly sessions = new Set<Session>();
  private readonly state = new Map<number, AccountState>();
  readonly symbols: FakeSymbol[] = defaultSymbols();
  private nextId = 1000;
  private tickTimer: NodeJS.Timeout | undefined;
  private tickN = 0;
  /** When set, every request after the socket opens is answered with ProtoOAErrorRes of this code. */
  errorMode: string | null = null;
  /** When true the server goes silent (a half-open link): it neither answers nor sends heartbeats. */
  frozen = false;
  /** ProtoHeartbeatEvents received from clients. */
  heartbeatsReceived = 0;
  /** payloadTypes received, in order (heartbeats excluded). */
  readonly received: OpenApiFrame[] = [];
  /** Max trendbars per answer before hasMore. */
  trendbarChunk = 500;

  constructor(private readonly opts: FakeOpenApiOptions) {
    for (const a of opts.accounts)
      this.state.set(a.ctidTraderAccountId, {
        account: { ...a },
        positions: new Map(),
        orders: new Map(),
        deals: [],
      });
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  get connectionCount(): number {
    return this.sessions.size;
  }

  account(ctid: number): AccountState {
    const s = this.state.get(ctid);
    if (!s) throw new Error(`no fake account ${ctid}`);
    return s;
  }

  async start(): Promise<this> {
    const wss = new WebSocketServer({ port: this.port, host: '127.0.0.1' });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    this.wss = wss;
    this.port = (wss.address() as AddressInfo).port;
    wss.on('connection', (ws) => this.onConnection(ws));
    const heartbeat = this.opts.heartbeatMs ?? 10_000;
    const hb = setInterval(() => {
      for (const s of this.sessions) this.sendTo(s, { payloadType: PT.HEARTBEAT_EVENT, payload: {} });
    }, heartbeat);
    hb.unref();
    wss.on('close', () => clearInterval(hb));
    if ((this.opts.tickMs ?? 0) > 0) {
      this.tickTimer = setInterval(() => this.autoTick(), this.opts.tickMs);
      this.tickTimer.unref();
    }
    return this;
  }

  /** Takes the server down (connections are cut); `start()` brings it back on the same port. */
  async stop(): Promise<void> {
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = undefined;
    const wss = this.wss;
    this.wss = undefined;
    for (const s of this.sessions) s.ws.terminate();
    this.sessions.clear();
    if (wss) await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  /** Cuts every open connection without stopping the server. */
  dropConnections(): void {
    for (const s of this.sessions) s.ws.terminate();
    this.sessions.clear();
  }

  /** Moves a symbol's price (in price units) and runs the matching engine. */
  setPrice(name: string, bid: number, ask: number): void {
    const sym = this.symbols.find((s) => s.name.replace('/', '') === name.replace('/', ''));
    if (!sym) throw new Error(`no fake symbol ${name}`);
    sym.bid = Math.round(bid * PRICE_SCALE);
    sym.ask = Math.round(ask * PRICE_SCALE);
    this.onPrice(sym);
  }

  // ------------------------------------------------------------------ plumbing

  private onConnection(ws: WebSocket): void {
    const s: Session = { ws, appAuthed: false, accounts: new Set(), spots: new Map() };
    this.sessions.add(s);
    ws.on('close', () => this.sessions.delete(s));
    ws.on('message', (data) => {
      let f: OpenApiFrame;
      try {
        f = JSON.parse(data.toString()) as OpenApiFrame;
      } catch {
        return this.sendTo(s, {
          payloadType: PT.ERROR_RES,
          payload: { errorCode: 'INVALID_REQUEST', description: 'Malformed JSON' },
        });
      }
      if (this.frozen) return;
      if (f.payloadType === PT.HEARTBEAT_EVENT) {
        this.heartbeatsReceived++;
        return;
      }
      this.received.push(f);
      try {
        this.handle(s, f);
      } catch (e) {
        this.sendTo(s, {
          clientMsgId: f.clientMsgId,
          payloadType: PT.ERROR_RES,
          payload: { errorCode: 'UNKNOWN_ERROR', description: String(e) },
        });
      }
    });
  }

  private sendTo(s: Session, f: OpenApiFrame): void {
    if (!this.frozen && s.ws.readyState === s.ws.OPEN) s.ws.send(JSON.stringify(f));
  }

  private error(s: Session, f: OpenApiFrame, errorCode: string, description: string, ctid?: number): void {
    this.sendTo(s, {
      clientMsgId: f.clientMsgId,
      payloadType: PT.ERROR_RES_OA,
      payload: { ...(ctid ? { ctidTraderAccountId: ctid } : {}), errorCode, description },
    });
  }

  private reply(s: Session, f: OpenApiFrame, payloadType: number, payload: Record<string, unknown>): void {
    this.sendTo(s, { clientMsgId: f.clientMsgId, payloadType, payload });
  }

  /** Execution events go to the requester (with its clientMsgId) and to every other session of the account. */
  private execution(
    ctid: number,
    payload: Record<string, unknown>,
    origin?: { s: Session; f: OpenApiFrame },
  ): void {
    const full = { ctidTraderAccountId: ctid, ...payload };
    for (const s of this.sessions) {
      if (!s.accounts.has(ctid)) continue;
      const mine = origin && origin.s === s;
      this.sendTo(s, {
        ...(mine ? { clientMsgId: origin.f.clientMsgId } : {}),
        payloadType: PT.EXECUTION_EVENT,
        payload: full,
      });
    }
  }

  private id(): number {
    return ++this.nextId;
  }

  // ------------------------------------------------------------------ requests

  private handle(s: Session, f: OpenApiFrame): void {
    const p = (f.payload ?? {}) as Record<string, unknown>;
    if (this.errorMode) return this.error(s, f, this.errorMode, 'Server is under maintenance');
    if (f.payloadType === PT.APPLICATION_AUTH_REQ) {
      if (p.clientId !== this.opts.clientId || p.clientSecret !== this.opts.clientSecret) {
        return this.error(s, f, 'CH_CLIENT_AUTH_FAILURE', 'clientId or clientSecret is incorrect');
      }
      if (s.appAuthed)
        return this.error(
          s,
          f,
          'CH_CLIENT_ALREADY_AUTHENTICATED',
          'Open API application is already authorized',
        );
      s.appAuthed = true;
      return this.reply(s, f, PT.APPLICATION_AUTH_RES, {});
    }
    if (!s.appAuthed)
      return this.error(s, f, 'CH_CLIENT_NOT_AUTHENTICATED', 'Open API application is not authorized');
    if (f.payloadType === PT.VERSION_REQ) return this.reply(s, f, PT.VERSION_RES, { version: 'fake-1' });
    if (f.payloadType === PT.GET_ACCOUNTS_BY_ACCESS_TOKEN_REQ) {
      const token = String(p.accessToken ?? '');
      const ids = this.opts.tokenAccounts(token);
      if (!ids) return this.error(s, f, 'CH_ACCESS_TOKEN_INVALID', 'Access token is invalid or expired');
      return this.reply(s, f, PT.GET_ACCOUNTS_BY_ACCESS_TOKEN_RES, {
        accessToken: token,
        permissionScope: 1,
        ctidTraderAccount: ids
          .map((id) => this.state.get(id)?.account)
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
      const ids = this.opts.tokenAccounts(String(p.accessToken ?? ''));
      if (!ids)
        return this.error(s, f, 'CH_ACCESS_TOKEN_INVALID', 'Access token is invalid or expired', ctid);
      if (!ids.includes(ctid) || !this.state.has(ctid))
        return this.error(s, f, 'CH_CTID_TRADER_ACCOUNT_NOT_FOUND', 'Trading account is not found', ctid);
      s.accounts.add(ctid);
      return this.reply(s, f, PT.ACCOUNT_AUTH_RES, { ctidTraderAccountId: ctid });
    }
    if (!s.accounts.has(ctid))
      return this.error(s, f, 'ACCOUNT_NOT_AUTHORIZED', 'Trading account is not authorized', ctid);
    const st = this.account(ctid);
    switch (f.payloadType) {
      case PT.TRADER_REQ:
        return this.reply(s, f, PT.TRADER_RES, { ctidTraderAccountId: ctid, trader: this.trader(st) });
      case PT.ASSET_LIST_REQ:
        return this.reply(s, f, PT.ASSET_LIST_RES, {
          ctidTraderAccountId: ctid,
          asset: Object.entries(ASSETS).map(([name, assetId]) => ({
            assetId,
            name,
            displayName: name,
            digits: name === 'JPY' ? 0 : 2,
          })),
        });
      case PT.SYMBOLS_LIST_REQ:
        return this.reply(s, f, PT.SYMBOLS_LIST_RES, {
          ctidTraderAccountId: ctid,
          symbol: this.symbols.map((x) => ({
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
        return this.reply(s, f, PT.SYMBOL_BY_ID_RES, {
          ctidTraderAccountId: ctid,
          symbol: this.symbols
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
      case PT.SUBSCRIBE_SPOTS_REQ: {
        const ids = (Array.isArray(p.symbolId) ? p.symbolId : [p.symbolId]).map((v) => num(v) ?? 0);
        const unknown = ids.find((id) => !this.symbols.some((x) => x.symbolId === id));
        if (unknown !== undefined)
          return this.error(s, f, 'SYMBOL_NOT_FOUND', `Symbol ${unknown} not found`, ctid);
        let subs = s.spots.get(ctid);
        if (!subs) s.spots.set(ctid, (subs = new Set()));
        const already = ids.find((id) => subs.has(id));
        if (already !== undefined)
          return this.error(s, f, 'ALREADY_SUBSCRIBED', `Already subscribed to ${already}`, ctid);
        for (const id of ids) subs.add(id);
        this.reply(s, f, PT.SUBSCRIBE_SPOTS_RES, { ctidTraderAccountId: ctid });
        // The first spot event after a subscription carries the latest prices.
        for (const id of ids) {
          const sym = this.symbols.find((x) => x.symbolId === id) as FakeSymbol;
          this.sendTo(s, {
            payloadType: PT.SPOT_EVENT,
            payload: {
              ctidTraderAccountId: ctid,
              symbolId: id,
              bid: sym.bid,
              ask: sym.ask,
              timestamp: Date.now(),
            },
          });
        }
        return;
      }
      case PT.UNSUBSCRIBE_SPOTS_REQ: {
        const ids = (Array.isArray(p.symbolId) ? p.symbolId : [p.symbolId]).map((v) => num(v) ?? 0);
        for (const id of ids) s.spots.get(ctid)?.delete(id);
        return this.reply(s, f, PT.UNSUBSCRIBE_SPOTS_RES, { ctidTraderAccountId: ctid });
      }
      case PT.RECONCILE_REQ:
        return this.reply(s, f, PT.RECONCILE_RES, {
          ctidTraderAccountId: ctid,
          position: [...st.positions.values()].map((x) => this.position(st, x)),
          order: [...st.orders.values()]
            .filter((o) => o.orderStatus === OrderStatus.ORDER_STATUS_ACCEPTED)
            .map((o) => this.order(o)),
        });
      case PT.GET_POSITION_UNREALIZED_PNL_REQ:
        return this.reply(s, f, PT.GET_POSITION_UNREALIZED_PNL_RES, {
          ctidTraderAccountId: ctid,
          positionUnrealizedPnL: [...st.positions.values()].map((x) => {
            const gross = this.pnlCents(st, x, x.volume);
            return {
              positionId: x.positionId,
              grossUnrealizedPnL: gross,
              netUnrealizedPnL: gross - x.commission,
            };
          }),
          moneyDigits: 2,
        });
      case PT.NEW_ORDER_REQ:
        return this.newOrder(s, f, st, p);
      case PT.AMEND_POSITION_SLTP_REQ: {
        const pos = st.positions.get(num(p.positionId) ?? -1);
        if (!pos) return this.error(s, f, 'POSITION_NOT_FOUND', 'Position not found', ctid);
        pos.stopLoss = num(p.stopLoss);
        pos.takeProfit = num(p.takeProfit);
        return this.execution(
          ctid,
          { executionType: ExecutionType.ORDER_REPLACED, position: this.position(st, pos) },
          { s, f },
        );
      }
      case PT.CLOSE_POSITION_REQ: {
        const pos = st.positions.get(num(p.positionId) ?? -1);
        if (!pos) return this.error(s, f, 'POSITION_NOT_FOUND', 'Position not found', ctid);
        const volume = num(p.volume) ?? 0;
        if (volume <= 0 || volume > pos.volume || volume % 100_000 !== 0) {
          return this.error(s, f, 'TRADING_BAD_VOLUME', `Invalid volume ${volume}`, ctid);
        }
        return this.closeVolume(st, pos, volume, OrderType.MARKET, { s, f });
      }
      case PT.CANCEL_ORDER_REQ: {
        const o = st.orders.get(num(p.orderId) ?? -1);
        if (!o || o.orderStatus !== OrderStatus.ORDER_STATUS_ACCEPTED)
          return this.error(s, f, 'ORDER_NOT_FOUND', 'Order not found', ctid);
        o.orderStatus = OrderStatus.ORDER_STATUS_CANCELLED;
        st.orders.delete(o.orderId);
        return this.execution(
          ctid,
          { executionType: ExecutionType.ORDER_CANCELLED, order: this.order(o) },
          { s, f },
        );
      }
      case PT.DEAL_LIST_REQ: {
        const from = num(p.fromTimestamp) ?? 0;
        const to = num(p.toTimestamp) ?? Date.now();
        const max = num(p.maxRows) ?? 1000;
        const all = st.deals.filter((d) => d.executionTimestamp >= from && d.executionTimestamp <= to);
        const newest = [...all].sort((a, b) => b.executionTimestamp - a.executionTimestamp).slice(0, max);
        return this.reply(s, f, PT.DEAL_LIST_RES, {
          ctidTraderAccountId: ctid,
          deal: newest,
          hasMore: all.length > max,
        });
      }
      case PT.GET_TRENDBARS_REQ:
        return this.trendbars(s, f, ctid, p);
      default:
        return this.sendTo(s, {
          clientMsgId: f.clientMsgId,
          payloadType: PT.ERROR_RES,
          payload: {
            errorCode: 'UNSUPPORTED_MESSAGE',
            description: `payloadType ${f.payloadType} is not supported`,
          },
        });
    }
  }

  private trader(st: AccountState): Record<string, unknown> {
    const a = st.account;
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

  private sym(id: number): FakeSymbol {
    const sym = this.symbols.find((x) => x.symbolId === id);
    if (!sym) throw new Error(`unknown symbol ${id}`);
    return sym;
  }

  /** Gross P/L in deposit cents of `volume` of the position at the current closing price. */
  private pnlCents(st: AccountState, pos: Pos, volume: number, closePrice?: number): number {
    const sym = this.sym(pos.symbolId);
    const close = closePrice ?? (pos.side === TradeSide.BUY ? sym.bid / PRICE_SCALE : sym.ask / PRICE_SCALE);
    const units = volume / 100;
    const diff = (pos.side === TradeSide.BUY ? close - pos.price : pos.price - close) * units;
    const inDeposit =
      sym.quote === st.account.depositAsset
        ? diff
        : sym.base === st.account.depositAsset
          ? diff / close
          : diff;
    return Math.round(inDeposit * 100);
  }

  private usedMargin(st: AccountState, pos: Pos): number {
    const sym = this.sym(pos.symbolId);
    const units = pos.volume / 100;
    const notional = sym.base === st.account.depositAsset ? units : units * pos.price;
    return Math.round((notional / st.account.leverage) * 100);
  }

  private position(st: AccountState, x: Pos): Record<string, unknown> {
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
      usedMargin: x.volume > 0 ? this.usedMargin(st, x) : 0,
      moneyDigits: 2,
    };
  }

  private order(o: Ord): Record<string, unknown> {
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

  private newOrder(s: Session, f: OpenApiFrame, st: AccountState, p: Record<string, unknown>): void {
    const ctid = st.account.ctidTraderAccountId;
    const symbolId = num(p.symbolId) ?? 0;
    if (!this.symbols.some((x) => x.symbolId === symbolId))
      return this.error(s, f, 'SYMBOL_NOT_FOUND', 'Symbol not found', ctid);
    const orderType = enumValue('orderType', p.orderType) ?? 0;
    const side = enumValue('tradeSide', p.tradeSide) ?? 0;
    const volume = num(p.volume) ?? 0;
    if (orderType !== OrderType.MARKET && orderType !== OrderType.LIMIT)
      return this.error(s, f, 'INVALID_REQUEST', 'Unsupported order type', ctid);
    if (side !== TradeSide.BUY && side !== TradeSide.SELL)
      return this.error(s, f, 'INVALID_REQUEST', 'Invalid trade side', ctid);
    if (volume < 100_000 || volume % 100_000 !== 0 || volume > 10_000_000_000) {
      return this.error(s, f, 'TRADING_BAD_VOLUME', `Order volume ${volume} is invalid`, ctid);
    }
    if (orderType === OrderType.MARKET && (p.stopLoss !== undefined || p.takeProfit !== undefined)) {
      return this.error(
        s,
        f,
        'INVALID_REQUEST',
        'SL/TP in absolute values are allowed only for order types: [LIMIT, STOP, STOP_LIMIT]',
        ctid,
      );
    }
    if (orderType === OrderType.LIMIT && !(num(p.limitPrice) ?? 0))
      return this.error(s, f, 'INVALID_REQUEST', 'Limit price is required', ctid);
    const o: Ord = {
      orderId: this.id(),
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
      price: this.fillPrice(symbolId, side),
      openTimestamp: 0,
      commission: 0,
    };
    const used = [...st.positions.values()].reduce((sum, x) => sum + this.usedMargin(st, x), 0);
    if (orderType === OrderType.MARKET && used + this.usedMargin(st, probe) > st.account.balance) {
      return this.sendTo(s, {
        clientMsgId: f.clientMsgId,
        payloadType: PT.ORDER_ERROR_EVENT,
        payload: {
          ctidTraderAccountId: ctid,
          errorCode: 'NOT_ENOUGH_MONEY',
          description: 'Not enough money',
          orderId: o.orderId,
        },
      });
    }
    st.orders.set(o.orderId, o);
    this.execution(ctid, { executionType: ExecutionType.ORDER_ACCEPTED, order: this.order(o) }, { s, f });
    if (orderType === OrderType.MARKET) this.fill(st, o, { s, f });
  }

  private fillPrice(symbolId: number, side: number): number {
    const sym = this.sym(symbolId);
    return (side === TradeSide.BUY ? sym.ask : sym.bid) / PRICE_SCALE;
  }

  /** Fills an opening order into a new position. */
  private fill(st: AccountState, o: Ord, origin?: { s: Session; f: OpenApiFrame }): void {
    const ctid = st.account.ctidTraderAccountId;
    const sym = this.sym(o.symbolId);
    const price =
      o.orderType === OrderType.LIMIT ? (o.limitPrice as number) : this.fillPrice(o.symbolId, o.side);
    const sign = o.side === TradeSide.BUY ? 1 : -1;
    const rel = (v: number | undefined) => (v === undefined ? undefined : v / PRICE_SCALE);
    const round = (v: number) => Number(v.toFixed(sym.digits));
    const commission = Math.round(((this.opts.commissionPerLot ?? 300) * o.volume) / sym.lotSize);
    const pos: Pos = {
      positionId: this.id(),
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
    st.positions.set(pos.positionId, pos);
    st.orders.delete(o.orderId);
    o.orderStatus = OrderStatus.ORDER_STATUS_FILLED;
    o.executionPrice = price;
    o.executedVolume = o.volume;
    o.positionId = pos.positionId;
    st.account.balance -= commission;
    const now = Date.now();
    const deal: DealRec = {
      dealId: this.id(),
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
    st.deals.push(deal);
    this.execution(
      ctid,
      {
        executionType: ExecutionType.ORDER_FILLED,
        order: this.order(o),
        position: this.position(st, pos),
        deal,
      },
      origin,
    );
  }

  /** Closes `volume` of a position with a market (or protection) order. */
  private closeVolume(
    st: AccountState,
    pos: Pos,
    volume: number,
    orderType: number,
    origin?: { s: Session; f: OpenApiFrame },
  ): void {
    const ctid = st.account.ctidTraderAccountId;
    const closeSide = pos.side === TradeSide.BUY ? TradeSide.SELL : TradeSide.BUY;
    const price = this.fillPrice(pos.symbolId, closeSide);
    const o: Ord = {
      orderId: this.id(),
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
    this.execution(
      ctid,
      {
        executionType: ExecutionType.ORDER_ACCEPTED,
        order: this.order({ ...o, orderStatus: OrderStatus.ORDER_STATUS_ACCEPTED }),
      },
      origin,
    );
    const gross = this.pnlCents(st, pos, volume, price);
    const commission = Math.round((pos.commission * volume) / pos.volume);
    pos.commission -= commission;
    pos.volume -= volume;
    st.account.balance += gross - commission;
    const now = Date.now();
    const deal: DealRec = {
      dealId: this.id(),
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
        balance: st.account.balance,
        closedVolume: volume,
        moneyDigits: 2,
      },
    };
    st.deals.push(deal);
    const snapshot = this.position(st, pos);
    if (pos.volume === 0) st.positions.delete(pos.positionId);
    this.execution(
      ctid,
      { executionType: ExecutionType.ORDER_FILLED, order: this.order(o), position: snapshot, deal },
      origin,
    );
  }

  private trendbars(s: Session, f: OpenApiFrame, ctid: number, p: Record<string, unknown>): void {
    const period = enumValue('period', p.period) ?? 0;
    const secs = PERIOD_SECONDS[period];
    const symbolId = num(p.symbolId) ?? 0;
    if (!secs) return this.error(s, f, 'INVALID_REQUEST', 'Invalid period', ctid);
    if (!this.symbols.some((x) => x.symbolId === symbolId))
      return this.error(s, f, 'SYMBOL_NOT_FOUND', 'Symbol not found', ctid);
    const from = num(p.fromTimestamp) ?? 0;
    const to = Math.min(num(p.toTimestamp) ?? Date.now(), Date.now());
    const step = secs * 1000;
    const first = Math.ceil(from / step) * step;
    const times: number[] = [];
    for (let t = first; t <= to; t += step) times.push(t);
    const chunk = times.slice(-this.trendbarChunk);
    const sym = this.sym(symbolId);
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
    this.reply(s, f, PT.GET_TRENDBARS_RES, {
      ctidTraderAccountId: ctid,
      period,
      trendbar: bars,
      symbolId,
      hasMore: times.length > chunk.length,
    });
  }

  // ------------------------------------------------------------------ market

  private autoTick(): void {
    this.tickN++;
    for (const sym of this.symbols) {
      const wiggle = ((this.tickN * 7 + sym.symbolId * 3) % 5) - 2;
      sym.bid += wiggle;
      sym.ask += wiggle;
      this.onPrice(sym);
    }
  }

  private onPrice(sym: FakeSymbol): void {
    for (const s of this.sessions) {
      for (const [ctid, ids] of s.spots) {
        if (ids.has(sym.symbolId)) {
          this.sendTo(s, {
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
    for (const st of this.state.values()) {
      for (const o of [...st.orders.values()]) {
        if (
          o.symbolId !== sym.symbolId ||
          o.orderType !== OrderType.LIMIT ||
          o.orderStatus !== OrderStatus.ORDER_STATUS_ACCEPTED
        )
          continue;
        const lp = o.limitPrice as number;
        if ((o.side === TradeSide.BUY && ask <= lp) || (o.side === TradeSide.SELL && bid >= lp))
          this.fill(st, o);
      }
      for (const pos of [...st.positions.values()]) {
        if (pos.symbolId !== sym.symbolId) continue;
        const px = pos.side === TradeSide.BUY ? bid : ask;
        const buy = pos.side === TradeSide.BUY;
        const slHit = pos.stopLoss !== undefined && (buy ? px <= pos.stopLoss : px >= pos.stopLoss);
        const tpHit = pos.takeProfit !== undefined && (buy ? px >= pos.takeProfit : px <= pos.takeProfit);
        if (slHit || tpHit) this.closeVolume(st, pos, pos.volume, OrderType.STOP_LOSS_TAKE_PROFIT);
      }
    }
  }
}
