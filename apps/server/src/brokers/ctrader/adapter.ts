import {
  BrokerError,
  allCapabilities,
  type AccountInfo,
  type BrokerAdapter,
  type BrokerCapabilities,
  type BrokerEvent,
  type Candle,
  type ConnectionState,
  type Deal,
  type PendingOrder,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Position,
  type Quote,
  type Reconciliation,
  type SymbolInfo,
  type Timeframe,
} from '../types';
import { OpenApiConnection, toBrokerError } from './openapi-client';
import {
  ExecutionType,
  OrderStatus,
  OrderType,
  PRICE_SCALE,
  PT,
  TimeInForce,
  TradeSide,
  TrendbarPeriod,
  arr,
  enumValue,
  money,
  normDeal,
  normOrder,
  normPosition,
  normTrader,
  normTrendbar,
  num,
  type OpenApiFrame,
  type ProtoDeal,
  type ProtoLightSymbol,
  type ProtoOrder,
  type ProtoPosition,
  type ProtoSymbol,
} from './protocol';

/** How often a connected session asks for its access token, which renews it when close to expiry. */
export const TOKEN_CHECK_MS = 15 * 60_000;

export interface CTraderAdapterOptions {
  /** Open API JSON WebSocket URL, e.g. wss://demo.ctraderapi.com:5036. */
  url: string;
  clientId: string;
  clientSecret: string;
  ctidTraderAccountId: number;
  /** A valid access token; called on every (re)connect so that an expiring token is refreshed first. */
  accessToken: () => Promise<string>;
  reconnect?: { initialMs?: number; maxMs?: number };
  /** How often the access token is checked for renewal while connected (default 15 minutes). */
  tokenCheckMs?: number;
  heartbeatMs?: number;
  requestTimeoutMs?: number;
  log?: { warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
}

interface SymbolEntry {
  light: ProtoLightSymbol;
  name: string;
  full?: ProtoSymbol;
  info?: SymbolInfo;
}

const PERIOD: Record<Timeframe, number> = {
  M1: TrendbarPeriod.M1,
  M5: TrendbarPeriod.M5,
  M15: TrendbarPeriod.M15,
  M30: TrendbarPeriod.M30,
  H1: TrendbarPeriod.H1,
  H4: TrendbarPeriod.H4,
  D1: TrendbarPeriod.D1,
  W1: TrendbarPeriod.W1,
  MN1: TrendbarPeriod.MN1,
};

/** cTrader names symbols "EUR/USD"; the app uses "EURUSD". */
const normSymbol = (s: string) => s.replace(/[/\s._-]/g, '').toUpperCase();
const roundTo = (v: number, digits: number) => Number(v.toFixed(digits));
const iso = (ms: number | undefined) => new Date(ms ?? Date.now()).toISOString();
const sideOf = (tradeSide: number): 'BUY' | 'SELL' => (tradeSide === TradeSide.SELL ? 'SELL' : 'BUY');
const WEEK_MS = 7 * 86_400_000;

/**
 * BrokerAdapter over the cTrader Open API (JSON over WebSocket). Symbols are cached per connection,
 * spot subscriptions are shared per symbol, and a lost connection is re-established with exponential
 * backoff, re-authorised, re-subscribed and reconciled.
 */
export class CTraderAdapter implements BrokerAdapter {
  readonly platform = 'cTrader' as const;
  readonly capabilities: BrokerCapabilities = allCapabilities();

  private conn: OpenApiConnection | undefined;
  private state: ConnectionState = 'disconnected';
  private connecting: Promise<void> | undefined;
  private stopped = true;
  private everConnected = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private lastError: string | undefined;

  private symbolsById = new Map<number, SymbolEntry>();
  private symbolsByName = new Map<string, SymbolEntry>();
  private assets = new Map<number, string>();
  private readonly quotes = new Map<number, Quote>();
  /** Spot watchers by symbol name, so that they survive reconnects and symbol reloads. */
  private readonly quoteSubs = new Map<string, Set<(q: Quote) => void>>();
  private sessionToken: string | undefined;
  /** Symbol ids subscribed on the current connection. */
  private spotIds = new Set<number>();
  private tokenTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(e: BrokerEvent) => void>();
  private readonly placed = new Map<string, Promise<PlaceOrderResult>>();
  private lastReconciliation: Reconciliation | undefined;

  constructor(private readonly opts: CTraderAdapterOptions) {}

  get ctidTraderAccountId(): number {
    return this.opts.ctidTraderAccountId;
  }

  connectionState(): ConnectionState {
    return this.state;
  }

  // ---------------------------------------------------------------- connection

  async connect(): Promise<void> {
    this.stopped = false;
    if (this.state === 'connected' && this.conn?.isOpen) return;
    if (!this.connecting) {
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.connecting = this.establish().finally(() => {
        this.connecting = undefined;
      });
    }
    return this.connecting;
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    if (this.tokenTimer) clearInterval(this.tokenTimer);
    this.tokenTimer = undefined;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const c = this.conn;
    this.conn = undefined;
    c?.close();
    this.setState('disconnected');
  }

  private setState(s: ConnectionState, detail?: string): void {
    if (this.state === s && detail === undefined) return;
    this.state = s;
    this.emit({ type: 'connection', state: s, ...(detail ? { detail } : {}) });
  }

  private async establish(): Promise<void> {
    const reconnecting = this.everConnected;
    this.setState(reconnecting ? 'reconnecting' : 'connecting');
    const conn = new OpenApiConnection(this.opts.url, {
      heartbeatMs: this.opts.heartbeatMs,
      requestTimeoutMs: this.opts.requestTimeoutMs,
    });
    try {
      await conn.open();
      await conn.request(
        PT.APPLICATION_AUTH_REQ,
        { clientId: this.opts.clientId, clientSecret: this.opts.clientSecret },
        PT.APPLICATION_AUTH_RES,
      );
      const accessToken = await this.opts.accessToken();
      await conn.request(
        PT.ACCOUNT_AUTH_REQ,
        { ctidTraderAccountId: this.opts.ctidTraderAccountId, accessToken },
        PT.ACCOUNT_AUTH_RES,
      );
      this.conn = conn;
      this.spotIds = new Set();
      this.sessionToken = accessToken;
      conn.onFrame((f) => this.onFrame(f));
      conn.onClose((reason) => this.onConnectionLost(conn, reason));
      await this.loadSymbols();
    } catch (e) {
      conn.close();
      if (this.conn === conn) this.conn = undefined;
      const err = toBrokerError(e);
      this.lastError = err.message;
      this.setState(this.everConnected ? 'reconnecting' : 'error', err.message);
      // Credentials refused: retrying with the same ones would only hammer the server.
      if (err.kind !== 'auth') this.scheduleReconnect();
      throw err;
    }
    if (this.stopped) {
      // disconnect() was called while we were connecting.
      conn.close();
      this.conn = undefined;
      this.setState('disconnected');
      return;
    }
    this.attempt = 0;
    this.everConnected = true;
    this.watchToken();
    this.lastError = undefined;
    this.setState('connected');
    // Re-subscribe the spots that were watched before the link dropped.
    const ids = [...this.quoteSubs.keys()]
      .map((name) => this.symbolsByName.get(name)?.light.symbolId)
      .filter((id): id is number => id !== undefined);
    if (ids.length)
      await this.subscribeSpots(ids).catch((e) =>
        this.opts.log?.warn({ err: e }, 'cTrader re-subscribe failed'),
      );
    if (reconnecting)
      await this.reconcileAfterReconnect().catch((e) =>
        this.opts.log?.warn({ err: e }, 'cTrader reconcile failed'),
      );
  }

  /**
   * Asks for the access token now and then: when it was refreshed (it was close to expiry), the
   * session still runs on the old one, so it is re-established with the new token.
   */
  private watchToken(): void {
    if (this.tokenTimer) return;
    this.tokenTimer = setInterval(() => {
      if (this.state !== 'connected' || !this.conn) return;
      const conn = this.conn;
      this.opts
        .accessToken()
        .then((t) => {
          if (t !== this.sessionToken && this.conn === conn) {
            this.opts.log?.info?.(
              { account: this.opts.ctidTraderAccountId },
              'cTrader token renewed: re-authorising',
            );
            conn.close();
          }
        })
        .catch((err) => this.opts.log?.warn({ err }, 'cTrader token renewal failed'));
    }, this.opts.tokenCheckMs ?? TOKEN_CHECK_MS);
    this.tokenTimer.unref();
  }

  private onConnectionLost(conn: OpenApiConnection, reason: string): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    if (this.stopped) return;
    this.lastError = reason;
    this.setState('reconnecting', reason);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retryTimer) return;
    const initial = this.opts.reconnect?.initialMs ?? 1000;
    const max = this.opts.reconnect?.maxMs ?? 60_000;
    const delay = Math.min(max, initial * 2 ** this.attempt) * (0.8 + Math.random() * 0.4);
    this.attempt++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.stopped) return;
      this.connect().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }

  /** The open connection, connecting first when needed; fails fast with 'unavailable' when the server is down. */
  private async live(): Promise<OpenApiConnection> {
    if (this.conn?.isOpen && this.state === 'connected') return this.conn;
    try {
      await this.connect();
    } catch (e) {
      throw toBrokerError(e);
    }
    if (!this.conn?.isOpen)
      throw new BrokerError(`cTrader is unreachable: ${this.lastError ?? 'not connected'}`, 'unavailable');
    return this.conn;
  }

  private async call(
    payloadType: number,
    payload: Record<string, unknown>,
    expect: number,
  ): Promise<Record<string, unknown>> {
    const conn = await this.live();
    try {
      const f = await conn.request(
        payloadType,
        { ctidTraderAccountId: this.opts.ctidTraderAccountId, ...payload },
        expect,
      );
      return f.payload ?? {};
    } catch (e) {
      throw toBrokerError(e);
    }
  }

  private emit(e: BrokerEvent): void {
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch (err) {
        this.opts.log?.warn({ err }, 'broker event listener failed');
      }
    }
  }

  onEvent(listener: (e: BrokerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  // ---------------------------------------------------------------- events

  private onFrame(f: OpenApiFrame): void {
    const p = f.payload ?? {};
    switch (f.payloadType) {
      case PT.SPOT_EVENT:
        return this.onSpot(p);
      case PT.EXECUTION_EVENT:
        return this.onExecution(p);
      case PT.ACCOUNTS_TOKEN_INVALIDATED_EVENT:
      case PT.CLIENT_DISCONNECT_EVENT:
      case PT.ACCOUNT_DISCONNECT_EVENT:
        // The session is gone: drop the socket so that the reconnect loop re-authorises with a fresh token.
        this.opts.log?.warn({ payloadType: f.payloadType, reason: p.reason }, 'cTrader ended the session');
        this.conn?.close();
        return;
      default:
        return;
    }
  }

  private onSpot(p: Record<string, unknown>): void {
    const symbolId = num(p.symbolId);
    if (symbolId === undefined) return;
    const entry = this.symbolsById.get(symbolId);
    const prev = this.quotes.get(symbolId);
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
      this.quotes.set(symbolId, q);
      return;
    }
    this.quotes.set(symbolId, q);
    for (const fn of this.quoteSubs.get(q.symbol) ?? []) fn(q);
    this.emit({ type: 'quote', quote: q });
  }

  private onExecution(p: Record<string, unknown>): void {
    const type = enumValue('executionType', p.executionType);
    const order = p.order ? normOrder(p.order as Record<string, unknown>) : undefined;
    const position = p.position ? normPosition(p.position as Record<string, unknown>) : undefined;
    const deal = p.deal ? normDeal(p.deal as Record<string, unknown>) : undefined;
    if (deal && (type === ExecutionType.ORDER_FILLED || type === ExecutionType.ORDER_PARTIAL_FILL)) {
      this.emit({ type: 'execution', deal: this.toDeal(deal, order) });
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
      if (status) this.emit({ type: 'order', order: this.toPendingOrder(order), status });
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
      this.emit({
        type: 'position',
        position: this.toPosition(position),
        status: closed ? 'CLOSED' : opened ? 'OPENED' : 'UPDATED',
      });
    }
  }

  private async reconcileAfterReconnect(): Promise<void> {
    const before = this.lastReconciliation;
    const now = await this.reconcile();
    if (!before) return;
    const old = new Map(before.positions.map((p) => [p.position_id, p]));
    const cur = new Set(now.positions.map((p) => p.position_id));
    for (const p of now.positions) {
      const o = old.get(p.position_id);
      if (!o) this.emit({ type: 'position', position: p, status: 'OPENED' });
      else if (o.volume !== p.volume || o.stop_loss !== p.stop_loss || o.take_profit !== p.take_profit)
        this.emit({ type: 'position', position: p, status: 'UPDATED' });
    }
    for (const o of before.positions)
      if (!cur.has(o.position_id)) this.emit({ type: 'position', position: o, status: 'CLOSED' });
  }

  // ---------------------------------------------------------------- symbols

  private async loadSymbols(): Promise<void> {
    const conn = this.conn;
    if (!conn) return;
    const account = { ctidTraderAccountId: this.opts.ctidTraderAccountId };
    const [assetsRes, listRes] = await Promise.all([
      conn.request(PT.ASSET_LIST_REQ, account, PT.ASSET_LIST_RES),
      conn.request(PT.SYMBOLS_LIST_REQ, { ...account, includeArchivedSymbols: false }, PT.SYMBOLS_LIST_RES),
    ]);
    const assets = new Map<number, string>();
    for (const a of arr(assetsRes.payload?.asset))
      assets.set(num(a.assetId) ?? 0, String(a.displayName ?? a.name ?? ''));
    const byId = new Map<number, SymbolEntry>();
    const byName = new Map<string, SymbolEntry>();
    for (const s of arr(listRes.payload?.symbol)) {
      const light: ProtoLightSymbol = {
        symbolId: num(s.symbolId) ?? 0,
        symbolName: typeof s.symbolName === 'string' ? s.symbolName : undefined,
        enabled: s.enabled !== false,
        baseAssetId: num(s.baseAssetId),
        quoteAssetId: num(s.quoteAssetId),
        description: typeof s.description === 'string' ? s.description : undefined,
      };
      if (!light.enabled || !light.symbolName) continue;
      const prev = this.symbolsById.get(light.symbolId);
      const entry: SymbolEntry = {
        light,
        name: normSymbol(light.symbolName),
        full: prev?.full,
        info: prev?.info,
      };
      byId.set(light.symbolId, entry);
      byName.set(entry.name, entry);
    }
    this.assets = assets;
    this.symbolsById = byId;
    this.symbolsByName = byName;
  }

  private async entry(symbol: string): Promise<SymbolEntry> {
    await this.live();
    const e = this.symbolsByName.get(normSymbol(symbol));
    if (!e) throw new BrokerError(`cTrader: unknown symbol ${symbol}`, 'not_found');
    if (!e.info) await this.loadFull([e]);
    return e;
  }

  /** ProtoOASymbolByIdReq for the entries not yet known in full. */
  private async loadFull(entries: SymbolEntry[]): Promise<void> {
    const missing = entries.filter((e) => !e.full);
    for (let i = 0; i < missing.length; i += 200) {
      const chunk = missing.slice(i, i + 200);
      const res = await this.call(
        PT.SYMBOL_BY_ID_REQ,
        { symbolId: chunk.map((e) => e.light.symbolId) },
        PT.SYMBOL_BY_ID_RES,
      );
      for (const s of arr(res.symbol)) {
        const full: ProtoSymbol = {
          symbolId: num(s.symbolId) ?? 0,
          digits: num(s.digits) ?? 5,
          pipPosition: num(s.pipPosition) ?? 4,
          maxVolume: num(s.maxVolume),
          minVolume: num(s.minVolume),
          stepVolume: num(s.stepVolume),
          lotSize: num(s.lotSize),
        };
        const e = this.symbolsById.get(full.symbolId);
        if (!e) continue;
        e.full = full;
        e.info = this.toSymbolInfo(e.light, full);
      }
    }
  }

  private toSymbolInfo(light: ProtoLightSymbol, full: ProtoSymbol): SymbolInfo {
    // Volumes are in cents of units; lotSize is the units of one lot in cents.
    const lotSize = full.lotSize ?? 10_000_000;
    const step = full.stepVolume ?? lotSize / 100;
    return {
      symbol: normSymbol(light.symbolName ?? String(light.symbolId)),
      description: light.description ?? light.symbolName ?? '',
      digits: full.digits,
      pip_size: 10 ** -full.pipPosition,
      tick_size: 10 ** -full.digits,
      contract_size: lotSize / 100,
      base_currency: this.assets.get(light.baseAssetId ?? -1) ?? '',
      quote_currency: this.assets.get(light.quoteAssetId ?? -1) ?? '',
      volume_min: (full.minVolume ?? step) / lotSize,
      volume_step: step / lotSize,
      volume_max: (full.maxVolume ?? lotSize * 100) / lotSize,
    };
  }

  async symbols(): Promise<SymbolInfo[]> {
    await this.live();
    const all = [...this.symbolsById.values()];
    await this.loadFull(all);
    return all.filter((e) => e.info).map((e) => e.info as SymbolInfo);
  }

  async symbolInfo(symbol: string): Promise<SymbolInfo> {
    const e = await this.entry(symbol);
    return e.info as SymbolInfo;
  }

  private nameOf(symbolId: number): string {
    return this.symbolsById.get(symbolId)?.name ?? String(symbolId);
  }

  private digitsOf(symbolId: number): number {
    return this.symbolsById.get(symbolId)?.full?.digits ?? 5;
  }

  private lotSizeOf(symbolId: number): number {
    return this.symbolsById.get(symbolId)?.full?.lotSize ?? 10_000_000;
  }

  private toLots(symbolId: number, volume: number): number {
    return Number((volume / this.lotSizeOf(symbolId)).toFixed(8));
  }

  private toProtocolVolume(e: SymbolEntry, lots: number): number {
    const full = e.full as ProtoSymbol;
    const lotSize = full.lotSize ?? 10_000_000;
    const step = full.stepVolume ?? lotSize / 100;
    const v = Math.round((lots * lotSize) / step) * step;
    if (
      v <= 0 ||
      (full.minVolume !== undefined && v < full.minVolume) ||
      (full.maxVolume !== undefined && v > full.maxVolume)
    ) {
      throw new BrokerError(
        `cTrader: volume ${lots} is outside ${e.info?.volume_min ?? '?'}-${e.info?.volume_max ?? '?'} lots for ${e.name}`,
        'rejected',
      );
    }
    return v;
  }

  // ---------------------------------------------------------------- quotes and candles

  private async subscribeSpots(symbolIds: number[]): Promise<void> {
    const ids = symbolIds.filter((id) => !this.spotIds.has(id));
    if (!ids.length) return;
    const spotIds = this.spotIds;
    for (const id of ids) spotIds.add(id);
    try {
      await this.call(
        PT.SUBSCRIBE_SPOTS_REQ,
        { symbolId: ids, subscribeToSpotTimestamp: true },
        PT.SUBSCRIBE_SPOTS_RES,
      );
    } catch (e) {
      for (const id of ids) spotIds.delete(id);
      throw e;
    }
  }

  subscribeQuotes(symbol: string, onQuote: (q: Quote) => void): () => void {
    const name = normSymbol(symbol);
    let subs = this.quoteSubs.get(name);
    const first = !subs;
    if (!subs) this.quoteSubs.set(name, (subs = new Set()));
    subs.add(onQuote);
    const known = this.symbolsByName.get(name);
    const last = known ? this.quotes.get(known.light.symbolId) : undefined;
    if (!first && last && last.bid && last.ask) queueMicrotask(() => onQuote(last));
    if (first) {
      // Not connected yet: connecting subscribes every watched symbol; connected: subscribe this one.
      void this.entry(symbol)
        .then(async (e) => {
          if (this.quoteSubs.get(name) === subs) await this.subscribeSpots([e.light.symbolId]);
        })
        .catch((err) => this.opts.log?.warn({ err, symbol }, 'cTrader spot subscription failed'));
    }
    return () => {
      const current = this.quoteSubs.get(name);
      if (!current || current !== subs) return;
      current.delete(onQuote);
      if (current.size > 0) return;
      this.quoteSubs.delete(name);
      const e = this.symbolsByName.get(name);
      if (!e) return;
      this.quotes.delete(e.light.symbolId);
      if (this.conn?.isOpen && this.spotIds.delete(e.light.symbolId)) {
        this.call(PT.UNSUBSCRIBE_SPOTS_REQ, { symbolId: [e.light.symbolId] }, PT.UNSUBSCRIBE_SPOTS_RES).catch(
          () => undefined,
        );
      }
    };
  }

  async quote(symbol: string): Promise<Quote> {
    const e = await this.entry(symbol);
    const known = this.quotes.get(e.light.symbolId);
    if (known && known.bid && known.ask && this.quoteSubs.has(e.name)) return known;
    return new Promise<Quote>((resolve, reject) => {
      let unsubscribe: (() => void) | undefined = undefined;
      const timer = setTimeout(() => {
        unsubscribe?.();
        reject(new BrokerError(`cTrader: no price for ${e.name}`, 'unavailable'));
      }, this.opts.requestTimeoutMs ?? 15_000);
      unsubscribe = this.subscribeQuotes(symbol, (q) => {
        clearTimeout(timer);
        queueMicrotask(() => unsubscribe?.());
        resolve(q);
      });
    });
  }

  async candles(symbol: string, timeframe: Timeframe, fromMs: number, toMs: number): Promise<Candle[]> {
    const e = await this.entry(symbol);
    const digits = e.full?.digits ?? 5;
    const out = new Map<number, Candle>();
    let to = toMs;
    for (let page = 0; page < 50 && to >= fromMs; page++) {
      const res = await this.call(
        PT.GET_TRENDBARS_REQ,
        { fromTimestamp: fromMs, toTimestamp: to, period: PERIOD[timeframe], symbolId: e.light.symbolId },
        PT.GET_TRENDBARS_RES,
      );
      const bars = arr(res.trendbar).map(normTrendbar);
      let earliest = Infinity;
      for (const b of bars) {
        const low = b.low ?? 0;
        const time = (b.utcTimestampInMinutes ?? 0) * 60_000;
        earliest = Math.min(earliest, time);
        if (time < fromMs || time > toMs) continue;
        out.set(time, {
          time,
          low: roundTo(low / PRICE_SCALE, digits),
          open: roundTo((low + (b.deltaOpen ?? 0)) / PRICE_SCALE, digits),
          close: roundTo((low + (b.deltaClose ?? 0)) / PRICE_SCALE, digits),
          high: roundTo((low + (b.deltaHigh ?? 0)) / PRICE_SCALE, digits),
          volume: b.volume,
        });
      }
      if (res.hasMore !== true || !bars.length || !Number.isFinite(earliest)) break;
      to = earliest - 1;
    }
    return [...out.values()].sort((a, b) => a.time - b.time);
  }

  // ---------------------------------------------------------------- account

  async accountInfo(): Promise<AccountInfo> {
    const res = await this.call(PT.TRADER_REQ, {}, PT.TRADER_RES);
    const t = normTrader((res.trader ?? {}) as Record<string, unknown>);
    const balance = money(t.balance, t.moneyDigits);
    const rec = await this.call(PT.RECONCILE_REQ, {}, PT.RECONCILE_RES);
    const positions = arr(rec.position).map(normPosition);
    const margin = positions.reduce((s, p) => s + money(p.usedMargin, p.moneyDigits), 0);
    const pnl = await this.unrealized();
    const floating = [...pnl.values()].reduce((s, v) => s + v, 0);
    const equity = balance + floating;
    const info: AccountInfo = {
      balance: roundTo(balance, 2),
      equity: roundTo(equity, 2),
      margin: roundTo(margin, 2),
      free_margin: roundTo(equity - margin, 2),
      currency: this.assets.get(t.depositAssetId) ?? '',
      leverage: (t.leverageInCents ?? 10_000) / 100,
    };
    this.emit({ type: 'account', info });
    return info;
  }

  /** Net unrealised P/L per position id in the deposit currency (empty when the server does not offer it). */
  private async unrealized(): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    try {
      const res = await this.call(PT.GET_POSITION_UNREALIZED_PNL_REQ, {}, PT.GET_POSITION_UNREALIZED_PNL_RES);
      const md = num(res.moneyDigits);
      for (const u of arr(res.positionUnrealizedPnL))
        out.set(num(u.positionId) ?? 0, money(num(u.netUnrealizedPnL), md));
    } catch (e) {
      if (e instanceof BrokerError && e.kind === 'unavailable') throw e;
    }
    return out;
  }

  // ---------------------------------------------------------------- mapping

  private toPosition(p: ProtoPosition, pnl?: Map<number, number>): Position {
    const digits = this.digitsOf(p.tradeData.symbolId);
    const label = p.tradeData.label;
    return {
      position_id: String(p.positionId),
      symbol: this.nameOf(p.tradeData.symbolId),
      side: sideOf(p.tradeData.tradeSide),
      volume: this.toLots(p.tradeData.symbolId, p.tradeData.volume),
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

  private toPendingOrder(o: ProtoOrder): PendingOrder {
    const digits = this.digitsOf(o.tradeData.symbolId);
    const cid = o.clientOrderId ?? o.tradeData.label;
    return {
      order_id: String(o.orderId),
      symbol: this.nameOf(o.tradeData.symbolId),
      side: sideOf(o.tradeData.tradeSide),
      kind: o.orderType === OrderType.LIMIT ? 'LIMIT' : 'MARKET',
      volume: this.toLots(o.tradeData.symbolId, o.tradeData.volume),
      limit_price: roundTo(o.limitPrice ?? 0, digits),
      stop_loss: o.stopLoss !== undefined ? roundTo(o.stopLoss, digits) : null,
      take_profit: o.takeProfit !== undefined ? roundTo(o.takeProfit, digits) : null,
      created_at: iso(o.tradeData.openTimestamp),
      ...(cid ? { client_order_id: cid } : {}),
    };
  }

  private toDeal(d: ProtoDeal, order?: ProtoOrder): Deal {
    const digits = this.digitsOf(d.symbolId);
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
      symbol: this.nameOf(d.symbolId),
      side: sideOf(d.tradeSide),
      entry: close ? 'OUT' : 'IN',
      volume: this.toLots(d.symbolId, d.filledVolume || d.volume),
      price: roundTo(d.executionPrice ?? 0, digits),
      profit: close ? money(close.grossProfit, md) : 0,
      commission: money(close ? close.commission : d.commission, md),
      swap: close ? money(close.swap, md) : 0,
      reason,
      time: iso(d.executionTimestamp),
    };
  }

  // ---------------------------------------------------------------- trading

  async reconcile(): Promise<Reconciliation> {
    const res = await this.call(PT.RECONCILE_REQ, {}, PT.RECONCILE_RES);
    const pnl = await this.unrealized();
    const positions = arr(res.position)
      .map(normPosition)
      .filter((p) => p.positionStatus === 1)
      .map((p) => this.toPosition(p, pnl));
    const orders = arr(res.order)
      .map(normOrder)
      .filter(
        (o) =>
          o.orderType === OrderType.LIMIT &&
          o.orderStatus === OrderStatus.ORDER_STATUS_ACCEPTED &&
          !o.closingOrder,
      )
      .map((o) => this.toPendingOrder(o));
    this.lastReconciliation = { positions, orders };
    return this.lastReconciliation;
  }

  async placeOrder(req: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const known = this.placed.get(req.client_order_id);
    if (known) return known;
    const p = this.placeOnce(req);
    this.placed.set(req.client_order_id, p);
    // A failed attempt may be retried with the same id; the reconcile check in placeOnce keeps it single.
    p.catch(() => this.placed.delete(req.client_order_id));
    return p;
  }

  private async placeOnce(req: PlaceOrderRequest): Promise<PlaceOrderResult> {
    if (!req.client_order_id) throw new BrokerError('cTrader: a client order id is required', 'rejected');
    const e = await this.entry(req.symbol);
    const digits = e.full?.digits ?? 5;
    // The order may have reached cTrader before (a retry after a timeout, or after a restart).
    const existing = await this.reconcile();
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
      volume: this.toProtocolVolume(e, req.volume),
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

    const conn = await this.live();
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
      conn.send(PT.NEW_ORDER_REQ, { ctidTraderAccountId: this.opts.ctidTraderAccountId, ...payload }, msgId);
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
      await this.amendPosition(positionId, later);
    return result;
  }

  private async findPosition(positionId: string): Promise<ProtoPosition> {
    const res = await this.call(PT.RECONCILE_REQ, {}, PT.RECONCILE_RES);
    const p = arr(res.position)
      .map(normPosition)
      .find((x) => String(x.positionId) === String(positionId));
    if (!p) throw new BrokerError(`cTrader: position ${positionId} is not open`, 'not_found');
    return p;
  }

  /** Sends a trading request answered by ProtoOAExecutionEvent (or an error) with the same clientMsgId. */
  private async execute(
    payloadType: number,
    payload: Record<string, unknown>,
    accept: (type: number | undefined, p: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> {
    const conn = await this.live();
    const msgId = crypto.randomUUID();
    const done = conn.waitFor((f) => {
      if (f.clientMsgId !== msgId) return undefined;
      if (
        f.payloadType === PT.ORDER_ERROR_EVENT ||
        f.payloadType === PT.ERROR_RES_OA ||
        f.payloadType === PT.ERROR_RES
      )
        return 'reject';
      if (f.payloadType !== PT.EXECUTION_EVENT) return undefined;
      const t = enumValue('executionType', f.payload?.executionType);
      if (t === ExecutionType.ORDER_REJECTED || t === ExecutionType.ORDER_CANCEL_REJECTED) return 'reject';
      return accept(t, f.payload ?? {}) ? 'resolve' : undefined;
    });
    try {
      conn.send(payloadType, { ctidTraderAccountId: this.opts.ctidTraderAccountId, ...payload }, msgId);
      return (await done).payload ?? {};
    } catch (err) {
      done.catch(() => undefined);
      throw toBrokerError(err);
    }
  }

  async amendPosition(
    positionId: string,
    stops: { stop_loss?: number | null; take_profit?: number | null },
  ): Promise<Position> {
    const current = await this.findPosition(positionId);
    const digits = this.digitsOf(current.tradeData.symbolId);
    // The request replaces both levels: an omitted field removes it, so unchanged ones are sent again.
    const sl = stops.stop_loss === undefined ? current.stopLoss : stops.stop_loss;
    const tp = stops.take_profit === undefined ? current.takeProfit : stops.take_profit;
    const payload: Record<string, unknown> = { positionId: current.positionId };
    if (sl !== null && sl !== undefined) payload.stopLoss = roundTo(sl, digits);
    if (tp !== null && tp !== undefined) payload.takeProfit = roundTo(tp, digits);
    const res = await this.execute(
      PT.AMEND_POSITION_SLTP_REQ,
      payload,
      (t) => t === ExecutionType.ORDER_REPLACED || t === ExecutionType.ORDER_ACCEPTED,
    );
    const p = res.position
      ? normPosition(res.position as Record<string, unknown>)
      : await this.findPosition(positionId);
    return this.toPosition(p, await this.unrealized());
  }

  async closePosition(positionId: string, volume?: number): Promise<Deal> {
    const current = await this.findPosition(positionId);
    const e = this.symbolsById.get(current.tradeData.symbolId);
    let v = current.tradeData.volume;
    if (volume !== undefined) {
      if (!e) throw new BrokerError(`cTrader: unknown symbol of position ${positionId}`, 'not_found');
      if (!e.full) await this.loadFull([e]);
      v = Math.min(this.toProtocolVolume(e, volume), current.tradeData.volume);
    }
    const res = await this.execute(
      PT.CLOSE_POSITION_REQ,
      { positionId: current.positionId, volume: v },
      (t, p) => t === ExecutionType.ORDER_FILLED && p.deal !== undefined,
    );
    const deal = normDeal(res.deal as Record<string, unknown>);
    const d = this.toDeal(deal, res.order ? normOrder(res.order as Record<string, unknown>) : undefined);
    return { ...d, reason: v < current.tradeData.volume ? 'PARTIAL_CLOSE' : 'CLOSE' };
  }

  async cancelOrder(orderId: string): Promise<void> {
    const id = Number(orderId);
    if (!Number.isSafeInteger(id)) throw new BrokerError(`cTrader: order ${orderId} not found`, 'not_found');
    await this.execute(PT.CANCEL_ORDER_REQ, { orderId: id }, (t) => t === ExecutionType.ORDER_CANCELLED);
  }

  async deals(fromIso: string, toIso: string): Promise<Deal[]> {
    const from = Date.parse(fromIso);
    const to = Date.parse(toIso);
    if (!Number.isFinite(from) || !Number.isFinite(to))
      throw new BrokerError('cTrader: invalid time range', 'rejected');
    const out = new Map<number, Deal>();
    // The server caps one request's window and rows; walk the range a week at a time.
    for (let start = from; start <= to; start += WEEK_MS) {
      let end = Math.min(to, start + WEEK_MS - 1);
      for (let page = 0; page < 20; page++) {
        const res = await this.call(
          PT.DEAL_LIST_REQ,
          { fromTimestamp: start, toTimestamp: end, maxRows: 1000 },
          PT.DEAL_LIST_RES,
        );
        const deals = arr(res.deal).map(normDeal);
        for (const d of deals) {
          if (d.dealStatus !== 2 && d.dealStatus !== 3) continue;
          out.set(d.dealId, this.toDeal(d));
        }
        if (res.hasMore !== true || !deals.length) break;
        const earliest = Math.min(...deals.map((d) => d.executionTimestamp));
        if (earliest <= start) break;
        end = earliest - 1;
      }
    }
    return [...out.values()].sort(
      (a, b) => a.time.localeCompare(b.time) || Number(a.deal_id) - Number(b.deal_id),
    );
  }
}
