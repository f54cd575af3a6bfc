import WebSocket from 'ws';
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
  type DealReason,
  type PendingOrder,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Position,
  type PriceOrDistance,
  type Quote,
  type Reconciliation,
  type SymbolInfo,
  type Timeframe,
} from '../types';
import {
  BRIDGE_API_VERSION,
  BRIDGE_TOKEN_HEADER,
  HEARTBEAT_INTERVAL_MS,
  type BridgeErrorBody,
  type ClientMessage,
  type ClosePositionResponse,
  type LoginResponse,
  type PlaceOrderBody,
  type PlaceOrderResponse,
  type ServerMessage,
  type WireAccount,
  type WireCandle,
  type WireDeal,
  type WireOrder,
  type WirePosition,
  type WireSymbol,
  type WireTick,
} from './protocol';

export interface Mt5Credentials {
  account_number: string;
  password: string;
  server: string;
}

/** The few logger methods the adapter uses (pino and Fastify loggers fit). */
export interface AdapterLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface Mt5BridgeOptions {
  /** Bridge base URL, e.g. `http://127.0.0.1:8228` (the adapter adds `/v1`). */
  url: string;
  bridgeToken?: string;
  credentials: Mt5Credentials;
  /** Limit for every HTTP call and for opening the stream. */
  timeoutMs?: number;
  backoff?: { initialMs: number; maxMs: number };
  log?: AdapterLog;
}

/** MT5 account as the bridge reports it, in our field names. */
export interface Mt5AccountInfo extends AccountInfo {
  login: number;
  server: string;
  name: string;
  company: string;
  margin_level: number | null;
  trade_mode: WireAccount['trade_mode'];
  margin_mode: WireAccount['margin_mode'];
}

/** Identifies orders placed by this app in the terminal (MqlTradeRequest.magic). */
export const TRADEDESK_MAGIC = 770_001;

const silentLog: AdapterLog = { info() {}, warn() {}, debug() {} };

const iso = (ms: number) => new Date(ms).toISOString();
const sideOf = (t: string): 'BUY' | 'SELL' => (t.startsWith('BUY') ? 'BUY' : 'SELL');
const roundTo = (v: number, digits: number) => Number(v.toFixed(digits));

export function toAccountInfo(a: WireAccount): Mt5AccountInfo {
  return {
    login: a.login,
    server: a.server,
    name: a.name,
    company: a.company,
    balance: a.balance,
    equity: a.equity,
    margin: a.margin,
    free_margin: a.margin_free,
    margin_level: a.margin_level,
    currency: a.currency,
    leverage: a.leverage,
    trade_mode: a.trade_mode,
    margin_mode: a.margin_mode,
  };
}

/** MT5 has no pip: on 3- and 5-digit quotes a pip is ten points, otherwise one point. */
export function toSymbolInfo(s: WireSymbol): SymbolInfo {
  return {
    symbol: s.name,
    description: s.description,
    digits: s.digits,
    pip_size: roundTo(s.digits % 2 === 1 ? s.point * 10 : s.point, s.digits),
    tick_size: s.trade_tick_size,
    contract_size: s.trade_contract_size,
    base_currency: s.currency_base,
    quote_currency: s.currency_profit,
    volume_min: s.volume_min,
    volume_step: s.volume_step,
    volume_max: s.volume_max,
  };
}

function toPosition(p: WirePosition): Position {
  return {
    position_id: String(p.ticket),
    symbol: p.symbol,
    side: p.type,
    volume: p.volume,
    entry_price: p.price_open,
    stop_loss: p.sl,
    take_profit: p.tp,
    profit: p.profit,
    swap: p.swap,
    commission: p.commission,
    opened_at: iso(p.time_msc),
    ...(p.client_id ? { client_order_id: p.client_id } : {}),
  };
}

function toOrder(o: WireOrder): PendingOrder {
  return {
    order_id: String(o.ticket),
    symbol: o.symbol,
    side: sideOf(o.type),
    kind: 'LIMIT',
    volume: o.volume_current,
    limit_price: o.price_open,
    stop_loss: o.sl,
    take_profit: o.tp,
    created_at: iso(o.time_setup_msc),
    ...(o.client_id ? { client_order_id: o.client_id } : {}),
  };
}

function toDeal(d: WireDeal, partial: boolean): Deal {
  const entry = d.entry === 'IN' || d.entry === 'INOUT' ? 'IN' : 'OUT';
  let reason: DealReason;
  if (d.reason === 'SL') reason = 'STOP_LOSS';
  else if (d.reason === 'TP') reason = 'TAKE_PROFIT';
  else if (d.reason === 'SO') reason = 'STOP_OUT';
  else if (entry === 'IN')
    reason = d.order_type?.endsWith('_LIMIT') ? 'LIMIT' : d.magic === TRADEDESK_MAGIC ? 'MARKET' : 'EXTERNAL';
  else if (d.magic !== TRADEDESK_MAGIC && d.reason !== 'EXPERT') reason = 'EXTERNAL';
  else reason = partial ? 'PARTIAL_CLOSE' : 'CLOSE';
  return {
    deal_id: String(d.ticket),
    order_id: String(d.order),
    position_id: String(d.position_id),
    symbol: d.symbol,
    side: d.type,
    entry,
    volume: d.volume,
    price: d.price,
    profit: d.profit,
    commission: d.commission,
    swap: d.swap,
    reason,
    time: iso(d.time_msc),
  };
}

function ticketOf(id: string, what: string): string {
  if (!/^\d{1,20}$/.test(id)) throw new BrokerError(`MT5 ${what} ${id} was not found.`, 'not_found');
  return id;
}

/** Maps a bridge error body (docs/mt5-bridge.md, "Errors") to the broker error our routes understand. */
export function toBrokerError(status: number, body: BridgeErrorBody | null): BrokerError {
  const err = body?.error;
  const message = err?.message?.trim() || `HTTP ${status}`;
  switch (err?.code) {
    case 'INVALID_ACCOUNT':
      return new BrokerError(`MT5 login failed: ${message}`, 'auth');
    case 'UNAUTHORIZED':
      return new BrokerError(
        'The MT5 bridge refused our bridge token (check MT5_BRIDGE_TOKEN).',
        'unavailable',
      );
    case 'NOT_FOUND':
      return new BrokerError(message, 'not_found');
    case 'TRADE_REJECTED':
      return new BrokerError(`MT5 rejected the request: ${message}`, 'rejected');
    case 'BAD_REQUEST':
      return new BrokerError(`MT5 bridge refused the request: ${message}`, 'rejected');
    case 'TERMINAL_DISCONNECTED':
      return new BrokerError(
        `The MT5 terminal is not connected to the trade server: ${message}`,
        'unavailable',
      );
    default:
      return new BrokerError(`The MT5 bridge failed: ${message}`, 'unavailable');
  }
}

/**
 * `BrokerAdapter` over the MT5 bridge protocol: HTTP for requests, one WebSocket for ticks and trade
 * events. When the stream is lost the adapter logs in again with backoff and reconciles positions,
 * orders and deals, announcing what changed while it was away as ordinary events.
 */
export class Mt5BridgeAdapter implements BrokerAdapter {
  readonly platform = 'MT5' as const;
  readonly capabilities: BrokerCapabilities = allCapabilities();

  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly log: AdapterLog;
  private readonly who: { login: string; server: string };

  private state: ConnectionState = 'disconnected';
  private session: string | null = null;
  private loginInFlight: Promise<void> | null = null;
  private ws: WebSocket | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectAttempt = 0;
  private reconnectInFlight: Promise<void> | null = null;
  private connectInFlight: Promise<void> | null = null;
  private reconnecting = false;
  private stopped = true;

  private readonly listeners = new Set<(e: BrokerEvent) => void>();
  private readonly quoteListeners = new Map<string, Set<(q: Quote) => void>>();
  private readonly lastQuotes = new Map<string, Quote>();
  private readonly symbolCache = new Map<string, SymbolInfo>();

  /** What we last knew of the account: the baseline that reconciliation compares against. */
  private knownPositions = new Map<string, Position>();
  private knownOrders = new Map<string, PendingOrder>();
  private readonly seenDeals = new Set<string>();
  private lastDealMs = 0;

  private readonly placed = new Map<string, PlaceOrderResult>();
  private readonly placing = new Map<string, Promise<PlaceOrderResult>>();

  constructor(private readonly opts: Mt5BridgeOptions) {
    this.base = `${opts.url.replace(/\/+$/, '')}/${BRIDGE_API_VERSION}`;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.backoff = opts.backoff ?? { initialMs: 500, maxMs: 30_000 };
    this.log = opts.log ?? silentLog;
    this.who = { login: opts.credentials.account_number, server: opts.credentials.server };
  }

  connectionState(): ConnectionState {
    return this.state;
  }

  onEvent(listener: (e: BrokerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  connect(): Promise<void> {
    if (this.state === 'connected' && !this.stopped) return Promise.resolve();
    // Someone needs the account now: try at once instead of waiting for the backoff timer.
    if (this.reconnecting && !this.stopped) return this.attemptReconnect();
    this.connectInFlight ??= this.firstConnect().finally(() => {
      this.connectInFlight = null;
    });
    return this.connectInFlight;
  }

  private async firstConnect(): Promise<void> {
    this.stopped = false;
    this.reconnecting = false;
    this.setState('connecting');
    try {
      await this.establish(false);
      if (this.stopped) {
        // disconnect() was called while we were logging in: leave nothing open behind.
        this.closeStream();
        return;
      }
      this.setState('connected');
    } catch (e) {
      this.closeStream();
      this.stopped = true;
      const err = asBrokerError(e);
      this.setState(err.kind === 'auth' ? 'error' : 'disconnected', err.message);
      throw err;
    }
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    this.reconnecting = false;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.closeStream();
    const session = this.session;
    this.session = null;
    if (session) {
      // Logging out is a courtesy to the bridge; a bridge that is gone has nothing to log out of.
      await this.http('POST', '/logout', undefined, { session, retryLogin: false, timeoutMs: 2000 }).catch(
        () => undefined,
      );
    }
    if (this.state !== 'disconnected') this.setState('disconnected');
  }

  async account(): Promise<Mt5AccountInfo> {
    return toAccountInfo(await this.http<WireAccount>('GET', '/account'));
  }

  async accountInfo(): Promise<AccountInfo> {
    const a = await this.account();
    return {
      balance: a.balance,
      equity: a.equity,
      margin: a.margin,
      free_margin: a.free_margin,
      currency: a.currency,
      leverage: a.leverage,
    };
  }

  async symbols(): Promise<SymbolInfo[]> {
    const res = await this.http<{ symbols: WireSymbol[] }>('GET', '/symbols');
    const list = res.symbols.map(toSymbolInfo);
    for (const s of list) this.symbolCache.set(s.symbol, s);
    return list;
  }

  async symbolInfo(symbol: string): Promise<SymbolInfo> {
    const cached = this.symbolCache.get(symbol);
    if (cached) return cached;
    const info = toSymbolInfo(await this.http<WireSymbol>('GET', `/symbols/${encodeURIComponent(symbol)}`));
    this.symbolCache.set(symbol, info);
    return info;
  }

  async quote(symbol: string): Promise<Quote> {
    const live = this.lastQuotes.get(symbol);
    if (live && this.quoteListeners.has(symbol) && this.state === 'connected') return live;
    const t = await this.http<WireTick>('GET', `/quotes/${encodeURIComponent(symbol)}`);
    return { symbol: t.symbol, bid: t.bid, ask: t.ask, time: t.time_msc };
  }

  subscribeQuotes(symbol: string, onQuote: (q: Quote) => void): () => void {
    let set = this.quoteListeners.get(symbol);
    if (!set) {
      set = new Set();
      this.quoteListeners.set(symbol, set);
      this.send({ op: 'subscribe', symbols: [symbol] });
    }
    set.add(onQuote);
    return () => {
      const s = this.quoteListeners.get(symbol);
      if (!s?.delete(onQuote) || s.size > 0) return;
      this.quoteListeners.delete(symbol);
      this.lastQuotes.delete(symbol);
      this.send({ op: 'unsubscribe', symbols: [symbol] });
    };
  }

  async candles(symbol: string, timeframe: Timeframe, fromMs: number, toMs: number): Promise<Candle[]> {
    const q = new URLSearchParams({ symbol, timeframe, from: String(fromMs), to: String(toMs) });
    const res = await this.http<{ candles: WireCandle[] }>('GET', `/candles?${q}`);
    return res.candles.map((c) => ({
      time: c.time,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: c.tick_volume,
    }));
  }

  placeOrder(req: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const done = this.placed.get(req.client_order_id);
    if (done) return Promise.resolve(done);
    // A double click must not race two requests to the bridge either.
    let p = this.placing.get(req.client_order_id);
    if (!p) {
      p = this.sendOrder(req).finally(() => this.placing.delete(req.client_order_id));
      this.placing.set(req.client_order_id, p);
    }
    return p;
  }

  private async sendOrder(req: PlaceOrderRequest): Promise<PlaceOrderResult> {
    if (!req.client_order_id) throw new BrokerError('An order needs a client order id.', 'rejected');
    if (req.kind === 'LIMIT' && !(typeof req.limit_price === 'number' && req.limit_price > 0)) {
      throw new BrokerError('A limit order needs a limit price.', 'rejected');
    }
    const info = await this.symbolInfo(req.symbol);
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
    const res = await this.http<PlaceOrderResponse>('POST', '/orders', body);
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
        await this.amendPosition(result.position_id, {
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
    this.placed.set(req.client_order_id, result);
    this.log.info(
      {
        login: this.who.login,
        client_order_id: req.client_order_id,
        order: result.order_id,
        status: result.status,
        duplicate: res.duplicate,
      },
      'mt5 order placed',
    );
    return result;
  }

  async amendPosition(
    positionId: string,
    stops: { stop_loss?: number | null; take_profit?: number | null },
  ): Promise<Position> {
    const body: { sl?: number | null; tp?: number | null } = {};
    if (stops.stop_loss !== undefined) body.sl = stops.stop_loss;
    if (stops.take_profit !== undefined) body.tp = stops.take_profit;
    const p = toPosition(
      await this.http<WirePosition>('PUT', `/positions/${ticketOf(positionId, 'position')}`, body),
    );
    this.knownPositions.set(p.position_id, p);
    return p;
  }

  async closePosition(positionId: string, volume?: number): Promise<Deal> {
    const res = await this.http<ClosePositionResponse>(
      'POST',
      `/positions/${ticketOf(positionId, 'position')}/close`,
      volume === undefined ? {} : { volume },
    );
    this.noteDeal(res.deal);
    if (res.position) this.knownPositions.set(positionId, toPosition(res.position));
    else this.knownPositions.delete(positionId);
    return toDeal(res.deal, res.position !== null);
  }

  async cancelOrder(orderId: string): Promise<void> {
    await this.http('DELETE', `/orders/${ticketOf(orderId, 'order')}`);
    this.knownOrders.delete(orderId);
  }

  async reconcile(): Promise<Reconciliation> {
    const [p, o] = await Promise.all([
      this.http<{ positions: WirePosition[] }>('GET', '/positions'),
      this.http<{ orders: WireOrder[] }>('GET', '/orders'),
    ]);
    return { positions: p.positions.map(toPosition), orders: o.orders.map(toOrder) };
  }

  async deals(fromIso: string, toIso: string): Promise<Deal[]> {
    const from = Date.parse(fromIso);
    const to = Date.parse(toIso);
    if (!Number.isFinite(from) || !Number.isFinite(to))
      throw new BrokerError('Deal history needs a valid time range.', 'rejected');
    return this.mapDeals(await this.fetchDeals(from, to));
  }

  private async fetchDeals(from: number, to: number): Promise<WireDeal[]> {
    const q = new URLSearchParams({ from: String(from), to: String(to) });
    return (await this.http<{ deals: WireDeal[] }>('GET', `/deals?${q}`)).deals;
  }

  /**
   * An OUT deal is a partial close while the position keeps volume after it: known exactly when the
   * opening deal is in the list, otherwise from whether the position is still open (`openIds`).
   */
  private mapDeals(list: WireDeal[], openIds: Set<string> = new Set(this.knownPositions.keys())): Deal[] {
    const sorted = [...list].sort((a, b) => a.time_msc - b.time_msc || a.ticket - b.ticket);
    const inVol = new Map<number, number>();
    const outVol = new Map<number, number>();
    const lastOut = new Map<number, number>();
    for (const d of sorted) {
      if (d.entry === 'IN') inVol.set(d.position_id, (inVol.get(d.position_id) ?? 0) + d.volume);
      else if (d.entry !== 'INOUT') lastOut.set(d.position_id, d.ticket);
    }
    return sorted.map((d) => {
      if (d.entry === 'IN' || d.entry === 'INOUT') return toDeal(d, false);
      const out = (outVol.get(d.position_id) ?? 0) + d.volume;
      outVol.set(d.position_id, out);
      const opened = inVol.get(d.position_id);
      const partial =
        opened !== undefined
          ? out + 1e-9 < opened
          : openIds.has(String(d.position_id)) || lastOut.get(d.position_id) !== d.ticket;
      return toDeal(d, partial);
    });
  }

  // --- connection -------------------------------------------------------------------------------

  private setState(state: ConnectionState, detail?: string): void {
    this.state = state;
    this.emit({ type: 'connection', state, ...(detail ? { detail } : {}) });
  }

  private emit(e: BrokerEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.log.warn({ err: String(err) }, 'mt5 event listener failed');
      }
    }
  }

  /** Logs in, opens the stream, and either takes the baseline (first connect) or reconciles (reconnect). */
  private async establish(reconnect: boolean): Promise<void> {
    this.session = null;
    await this.login();
    await this.openStream();
    if (reconnect) await this.reconcileAndAnnounce();
    else await this.takeBaseline();
  }

  private login(): Promise<void> {
    this.loginInFlight ??= (async () => {
      const { account_number, password, server } = this.opts.credentials;
      const login = Number(account_number);
      if (!Number.isSafeInteger(login) || login <= 0)
        throw new BrokerError('MT5 login failed: the account number must be a number.', 'auth');
      const res = await this.http<LoginResponse>(
        'POST',
        '/login',
        { login, password, server },
        { session: null, retryLogin: false },
      );
      this.session = res.session;
      this.capabilities.hedging = res.account.margin_mode === 'hedging';
      this.log.info({ login: this.who.login, server: this.who.server }, 'mt5 bridge login succeeded');
    })().finally(() => {
      this.loginInFlight = null;
    });
    return this.loginInFlight;
  }

  private openStream(): Promise<void> {
    this.closeStream();
    const wsUrl = `${this.base.replace(/^http/, 'ws')}/stream`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.session}` };
    if (this.opts.bridgeToken) headers[BRIDGE_TOKEN_HEADER] = this.opts.bridgeToken;
    const ws = new WebSocket(wsUrl, { headers, handshakeTimeout: this.timeoutMs });
    this.ws = ws;
    return new Promise<void>((resolve, reject) => {
      let hello = false;
      let heartbeatMs = HEARTBEAT_INTERVAL_MS;
      let lastSeen = Date.now();
      const fail = (message: string) => {
        if (hello) return;
        hello = true;
        clearTimeout(helloTimer);
        if (this.ws === ws) this.ws = null;
        ws.terminate();
        reject(new BrokerError(message, 'unavailable'));
      };
      const helloTimer = setTimeout(
        () => fail('The MT5 bridge stream did not answer in time.'),
        this.timeoutMs,
      );
      ws.on('unexpected-response', (_req, res) =>
        fail(`The MT5 bridge refused the stream (HTTP ${res.statusCode}).`),
      );
      ws.on('error', (err) =>
        fail(`The MT5 bridge stream is unreachable (${(err as NodeJS.ErrnoException).code ?? err.message}).`),
      );
      ws.on('message', (raw) => {
        lastSeen = Date.now();
        let msg: ServerMessage;
        try {
          msg = JSON.parse(raw.toString()) as ServerMessage;
        } catch {
          return;
        }
        if (msg.type === 'hello' && !hello) {
          hello = true;
          clearTimeout(helloTimer);
          heartbeatMs = msg.heartbeat_ms > 0 ? msg.heartbeat_ms : HEARTBEAT_INTERVAL_MS;
          // Three missed heartbeats mean the bridge is gone even if no TCP error says so.
          this.watchdog = setInterval(() => {
            if (Date.now() - lastSeen > 3 * heartbeatMs) ws.terminate();
          }, heartbeatMs);
          const symbols = [...this.quoteListeners.keys()];
          if (symbols.length > 0) this.send({ op: 'subscribe', symbols });
          resolve();
          return;
        }
        this.onMessage(msg);
      });
      ws.on('close', () => {
        fail('The MT5 bridge closed the stream.');
        if (this.ws !== ws) return;
        this.ws = null;
        if (this.watchdog) clearInterval(this.watchdog);
        this.watchdog = null;
        this.onStreamLost();
      });
    });
  }

  private closeStream(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.terminate();
  }

  private send(msg: ClientMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  private onMessage(msg: ServerMessage): void {
    switch (msg.type) {
      case 'tick': {
        const q: Quote = {
          symbol: msg.tick.symbol,
          bid: msg.tick.bid,
          ask: msg.tick.ask,
          time: msg.tick.time_msc,
        };
        const set = this.quoteListeners.get(q.symbol);
        if (!set) return;
        this.lastQuotes.set(q.symbol, q);
        for (const cb of set) cb(q);
        this.emit({ type: 'quote', quote: q });
        return;
      }
      case 'deal':
        if (this.noteDeal(msg.deal)) {
          const known = this.knownPositions.get(String(msg.deal.position_id));
          const partial =
            msg.deal.entry === 'OUT' && known !== undefined && msg.deal.volume + 1e-9 < known.volume;
          this.emit({ type: 'execution', deal: toDeal(msg.deal, partial) });
        }
        return;
      case 'position': {
        const p = toPosition(msg.position);
        if (msg.status === 'CLOSED') this.knownPositions.delete(p.position_id);
        else this.knownPositions.set(p.position_id, p);
        this.emit({ type: 'position', position: p, status: msg.status });
        return;
      }
      case 'order': {
        const o = toOrder(msg.order);
        if (msg.status === 'PLACED') this.knownOrders.set(o.order_id, o);
        else this.knownOrders.delete(o.order_id);
        this.emit({ type: 'order', order: o, status: msg.status });
        return;
      }
      case 'account':
        this.emit({ type: 'account', info: toAccountInfo(msg.account) });
        return;
      case 'error':
        this.log.warn(
          { login: this.who.login, code: msg.error.code },
          `mt5 bridge stream error: ${msg.error.message}`,
        );
        return;
      default:
        return;
    }
  }

  /** Remembers a deal; false when it was already seen (the stream and a reconcile can both report it). */
  private noteDeal(d: WireDeal): boolean {
    const id = String(d.ticket);
    if (this.seenDeals.has(id)) return false;
    this.seenDeals.add(id);
    if (this.seenDeals.size > 10_000) this.seenDeals.delete(this.seenDeals.values().next().value as string);
    this.lastDealMs = Math.max(this.lastDealMs, d.time_msc);
    return true;
  }

  private onStreamLost(): void {
    if (this.stopped || this.reconnecting) return;
    this.reconnecting = true;
    this.reconnectAttempt = 0;
    this.setState('reconnecting', 'Lost the connection to the MT5 bridge; reconnecting.');
    this.log.warn({ login: this.who.login, server: this.who.server }, 'mt5 bridge stream lost; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(delayMs?: number): void {
    if (this.stopped) return;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const exp = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** this.reconnectAttempt);
    const delay = delayMs ?? Math.round(exp * (0.5 + Math.random() / 2));
    this.reconnectTimer = setTimeout(() => void this.attemptReconnect().catch(() => undefined), delay);
    this.reconnectTimer.unref?.();
  }

  /** One reconnect attempt (shared by the timer and impatient callers); a failure schedules the next. */
  private attemptReconnect(): Promise<void> {
    this.reconnectInFlight ??= this.runReconnect().finally(() => {
      this.reconnectInFlight = null;
    });
    return this.reconnectInFlight;
  }

  private async runReconnect(): Promise<void> {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.stopped) throw new BrokerError('Not connected to MT5.', 'unavailable');
    try {
      await this.establish(true);
      if (this.stopped) {
        this.closeStream();
        return;
      }
      this.reconnecting = false;
      this.reconnectAttempt = 0;
      this.setState('connected');
      this.log.info(
        { login: this.who.login, server: this.who.server },
        'mt5 bridge reconnected and reconciled',
      );
    } catch (e) {
      const err = asBrokerError(e);
      if (this.stopped) throw err;
      if (err.kind === 'auth') {
        // The password was changed at the broker: retrying would only lock the account.
        this.reconnecting = false;
        this.stopped = true;
        this.closeStream();
        this.setState('error', err.message);
        this.log.warn({ login: this.who.login, server: this.who.server }, 'mt5 re-login refused; giving up');
        throw err;
      }
      this.reconnectAttempt += 1;
      this.log.debug(
        { login: this.who.login, attempt: this.reconnectAttempt, reason: err.message },
        'mt5 reconnect failed',
      );
      this.scheduleReconnect();
      throw err;
    }
  }

  /** While reconnecting, a request that got through shows the bridge is back: try at once. */
  private nudgeReconnect(): void {
    if (
      this.reconnecting &&
      !this.stopped &&
      this.reconnectAttempt > 0 &&
      this.reconnectTimer &&
      !this.reconnectInFlight
    ) {
      this.reconnectAttempt = 0;
      this.scheduleReconnect(0);
    }
  }

  private async takeBaseline(): Promise<void> {
    const r = await this.reconcile();
    this.knownPositions = new Map(r.positions.map((p) => [p.position_id, p]));
    this.knownOrders = new Map(r.orders.map((o) => [o.order_id, o]));
    this.lastDealMs = Math.max(this.lastDealMs, Date.now() - 1000);
  }

  /** Compares the account with what we last knew and announces every difference as events. */
  private async reconcileAndAnnounce(): Promise<void> {
    const since = this.lastDealMs;
    const [r, dealList, account] = await Promise.all([
      this.reconcile(),
      this.fetchDeals(Math.max(0, since - 60_000), Date.now() + 60_000),
      this.http<WireAccount>('GET', '/account'),
    ]);
    const openIds = new Set(r.positions.map((p) => p.position_id));
    const fresh = dealList.filter((d) => !this.seenDeals.has(String(d.ticket)));
    const mapped = new Map(this.mapDeals(dealList, openIds).map((d) => [d.deal_id, d]));
    const filledOrders = new Set(fresh.filter((d) => d.entry === 'IN').map((d) => String(d.order)));

    for (const d of fresh.sort((a, b) => a.time_msc - b.time_msc)) {
      this.noteDeal(d);
      const deal = mapped.get(String(d.ticket));
      if (deal) this.emit({ type: 'execution', deal });
    }
    const orderIds = new Set(r.orders.map((o) => o.order_id));
    for (const [id, o] of this.knownOrders) {
      if (!orderIds.has(id))
        this.emit({ type: 'order', order: o, status: filledOrders.has(id) ? 'FILLED' : 'CANCELLED' });
    }
    for (const o of r.orders)
      if (!this.knownOrders.has(o.order_id)) this.emit({ type: 'order', order: o, status: 'PLACED' });
    for (const [id, p] of this.knownPositions) {
      if (!openIds.has(id)) this.emit({ type: 'position', position: p, status: 'CLOSED' });
    }
    for (const p of r.positions) {
      const before = this.knownPositions.get(p.position_id);
      if (!before) this.emit({ type: 'position', position: p, status: 'OPENED' });
      else if (
        before.volume !== p.volume ||
        before.stop_loss !== p.stop_loss ||
        before.take_profit !== p.take_profit
      ) {
        this.emit({ type: 'position', position: p, status: 'UPDATED' });
      }
    }
    this.knownPositions = new Map(r.positions.map((p) => [p.position_id, p]));
    this.knownOrders = new Map(r.orders.map((o) => [o.order_id, o]));
    this.emit({ type: 'account', info: toAccountInfo(account) });
  }

  // --- HTTP -------------------------------------------------------------------------------------

  private async http<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
    opt: { session?: string | null; retryLogin?: boolean; timeoutMs?: number } = {},
  ): Promise<T> {
    const session = opt.session === undefined ? await this.ensureSession() : opt.session;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (session) headers.authorization = `Bearer ${session}`;
    if (this.opts.bridgeToken) headers[BRIDGE_TOKEN_HEADER] = this.opts.bridgeToken;
    let res: Response;
    let payload: unknown;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(opt.timeoutMs ?? this.timeoutMs),
      });
      const text = await res.text();
      payload = text ? JSON.parse(text) : null;
    } catch (e) {
      const timedOut = (e as Error)?.name === 'TimeoutError';
      // Only the path: a request body may hold the password.
      this.log.debug(
        { login: this.who.login, method, path: path.split('?')[0], timedOut },
        'mt5 bridge request failed',
      );
      throw new BrokerError(
        timedOut
          ? `The MT5 bridge did not answer within ${Number(((opt.timeoutMs ?? this.timeoutMs) / 1000).toFixed(1))} s.`
          : 'The MT5 bridge is unreachable.',
        'unavailable',
      );
    }
    if (res.ok) {
      this.nudgeReconnect();
      return payload as T;
    }
    const errBody =
      payload && typeof payload === 'object' && 'error' in payload ? (payload as BridgeErrorBody) : null;
    if (errBody?.error.code === 'SESSION_EXPIRED' && opt.retryLogin !== false) {
      this.session = null;
      await this.login();
      return this.http<T>(method, path, body, { ...opt, retryLogin: false });
    }
    throw toBrokerError(res.status, errBody);
  }

  private async ensureSession(): Promise<string> {
    if (!this.session) {
      if (this.stopped && this.state !== 'reconnecting') {
        throw new BrokerError('Not connected to MT5: connect the account first.', 'unavailable');
      }
      await this.login();
    }
    return this.session as string;
  }
}

function asBrokerError(e: unknown): BrokerError {
  return e instanceof BrokerError
    ? e
    : new BrokerError(`The MT5 bridge failed: ${String((e as Error)?.message ?? e)}`, 'unavailable');
}
