/**
 * An in-memory MT5 bridge that speaks docs/mt5-bridge.md (HTTP + WebSocket, version 1), for tests and
 * local development: a few symbols on a seeded random walk, market and limit fills, SL/TP on every tick,
 * partial closes, deals, candles, commission and margin, a "down" switch and refused logins.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  BRIDGE_TOKEN_HEADER,
  HEARTBEAT_INTERVAL_MS,
  MT5_TIMEFRAMES,
  RETCODE,
  clientTag,
  timeframeMs,
  type BridgeErrorCode,
  type ClientMessage,
  type ClosePositionResponse,
  type LoginResponse,
  type Mt5Timeframe,
  type PlaceOrderBody,
  type PlaceOrderResponse,
  type ServerMessage,
  type WireAccount,
  type WireCandle,
  type WireDeal,
  type WireDealReason,
  type WireOrder,
  type WirePosition,
  type WireSymbol,
  type WireTick,
} from '../../brokers/mt5/protocol';

export interface FakeAccountSpec {
  login: number;
  password: string;
  server: string;
  name?: string;
  balance?: number;
  leverage?: number;
  margin_mode?: 'hedging' | 'netting';
}

export interface FakeBridgeOptions {
  accounts: FakeAccountSpec[];
  bridgeToken?: string;
  /** Price steps per second are 1000 / tickMs. */
  tickMs?: number;
  heartbeatMs?: number;
  seed?: number;
  /** USD per lot per side. */
  commissionPerLot?: number;
  port?: number;
}

interface SymbolState {
  spec: WireSymbol;
  bid: number;
  spread: number;
  /** Random-walk step in price units. */
  step: number;
  time: number;
}

interface AccountState {
  spec: Required<FakeAccountSpec>;
  balance: number;
  positions: Map<number, WirePosition>;
  orders: Map<number, WireOrder>;
  deals: WireDeal[];
  /** client tag -> first result, so that a retried client id never opens a second position. */
  byTag: Map<string, PlaceOrderResponse>;
}

interface StreamClient {
  ws: WebSocket;
  login: number;
  symbols: Set<string>;
  beat: NodeJS.Timeout;
}

class BridgeFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: BridgeErrorCode,
    message: string,
    readonly retcode?: number,
  ) {
    super(message);
  }
}

const SYMBOLS: Array<{ spec: WireSymbol; bid: number; spread: number; step: number }> = [
  {
    spec: sym('EURUSD', 'Euro vs US Dollar', 5, 100_000, 'EUR', 'USD'),
    bid: 1.085,
    spread: 0.00012,
    step: 0.00002,
  },
  {
    spec: sym('GBPUSD', 'Great Britain Pound vs US Dollar', 5, 100_000, 'GBP', 'USD'),
    bid: 1.265,
    spread: 0.00015,
    step: 0.00003,
  },
  {
    spec: sym('USDJPY', 'US Dollar vs Japanese Yen', 3, 100_000, 'USD', 'JPY'),
    bid: 151.2,
    spread: 0.012,
    step: 0.003,
  },
  { spec: sym('XAUUSD', 'Gold vs US Dollar', 2, 100, 'XAU', 'USD'), bid: 2350, spread: 0.3, step: 0.05 },
];

function sym(
  name: string,
  description: string,
  digits: number,
  contract: number,
  base: string,
  quote: string,
): WireSymbol {
  const point = Number((10 ** -digits).toFixed(digits));
  return {
    name,
    description,
    digits,
    point,
    trade_tick_size: point,
    trade_tick_value: 1,
    trade_contract_size: contract,
    currency_base: base,
    currency_profit: quote,
    currency_margin: base,
    volume_min: 0.01,
    volume_step: 0.01,
    volume_max: 100,
    trade_stops_level: 0,
  };
}

/** Small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));
const money = (v: number) => Math.round(v * 100) / 100;

export class FakeMt5Bridge {
  /** Base URL to give the adapter (`http://127.0.0.1:<port>`). */
  url = '';
  /** Order requests that reached the trade server (duplicates replayed from the client id are not counted). */
  ordersSent = 0;
  /** Every login attempt, successful or not. */
  loginAttempts = 0;
  /** Connections cut at once while the bridge was down (each is one client attempt). */
  refusedConnections = 0;

  private readonly server: Server;
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<Socket>();
  private readonly clients = new Set<StreamClient>();
  private readonly sessions = new Map<string, number>();
  private readonly accounts = new Map<number, AccountState>();
  private readonly symbols = new Map<string, SymbolState>();
  private readonly random: () => number;
  private readonly heartbeatMs: number;
  private readonly commissionPerLot: number;
  private ticker: NodeJS.Timeout | null = null;
  private nextTicket = 1000;
  private down = false;
  private frozen = false;
  private muted = false;
  private hanging = false;
  private readonly hung = new Set<ServerResponse>();

  private constructor(private readonly opts: FakeBridgeOptions) {
    this.random = prng(opts.seed ?? 7);
    this.heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_INTERVAL_MS;
    this.commissionPerLot = opts.commissionPerLot ?? 3.5;
    const now = Date.now();
    for (const s of SYMBOLS) this.symbols.set(s.spec.name, { ...s, time: now });
    for (const a of opts.accounts) {
      this.accounts.set(a.login, {
        spec: { name: `Trader ${a.login}`, balance: 10_000, leverage: 100, margin_mode: 'hedging', ...a },
        balance: a.balance ?? 10_000,
        positions: new Map(),
        orders: new Map(),
        deals: [],
        byTag: new Map(),
      });
    }
    this.server = createServer((req, res) => void this.onRequest(req, res));
    this.server.keepAliveTimeout = 1000;
    this.server.on('connection', (socket) => {
      if (this.down) {
        this.refusedConnections += 1;
        return void socket.destroy();
      }
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.server.on('upgrade', (req, socket, head) => this.onUpgrade(req, socket as Socket, head));
  }

  static async start(opts: FakeBridgeOptions): Promise<FakeMt5Bridge> {
    const bridge = new FakeMt5Bridge(opts);
    await new Promise<void>((resolve) => bridge.server.listen(opts.port ?? 0, '127.0.0.1', resolve));
    bridge.url = `http://127.0.0.1:${(bridge.server.address() as AddressInfo).port}`;
    bridge.ticker = setInterval(() => bridge.tick(), opts.tickMs ?? 100);
    return bridge;
  }

  async stop(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    this.hang(false);
    this.dropConnections();
    this.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Down: every open connection is cut and new ones are refused, as when the bridge process or its
   * machine is gone. The market and the terminal's account keep running (stops still trigger).
   * With `loseSessions` (default) the bridge comes back as a fresh process that forgot all sessions.
   */
  setDown(down: boolean, opts: { loseSessions?: boolean } = {}): void {
    this.down = down;
    if (down) {
      this.dropConnections();
      if (opts.loseSessions !== false) this.sessions.clear();
    }
  }

  /** Forgets every session (as after a bridge restart) without cutting connections. */
  expireSessions(): void {
    this.sessions.clear();
  }

  /** Hanging: HTTP requests are accepted but never answered (a terminal stuck on a call). */
  hang(hanging = true): void {
    this.hanging = hanging;
    if (!hanging) {
      for (const res of this.hung) res.destroy();
      this.hung.clear();
    }
  }

  /** Muted: connections stay open but the stream sends nothing, not even heartbeats (a hung bridge). */
  mute(muted = true): void {
    this.muted = muted;
  }

  /** Stops or restarts the random walk so that a test can set prices itself. */
  freeze(frozen = true): void {
    this.frozen = frozen;
  }

  /** Sets the bid (ask follows at the symbol's spread), then runs fills and stops like any tick. */
  setPrice(symbol: string, bid: number): void {
    const s = this.mustSymbol(symbol);
    s.bid = round(bid, s.spec.digits);
    s.time = Date.now();
    this.afterPriceChange(s);
  }

  price(symbol: string): WireTick {
    return this.tickOf(this.mustSymbol(symbol));
  }

  /** Closes a position as if the trader did it in the MT5 mobile app (seen by us only through the bridge). */
  closeExternally(login: number, ticket: number): WireDeal {
    const acc = this.accounts.get(login);
    const p = acc?.positions.get(ticket);
    if (!acc || !p) throw new Error(`no position ${ticket}`);
    return this.closeAt(acc, p, p.volume, 'MOBILE');
  }

  openPositions(login: number): WirePosition[] {
    return [...(this.accounts.get(login)?.positions.values() ?? [])].map((p) => this.withProfit(p));
  }

  // --- market -----------------------------------------------------------------------------------

  private tick(): void {
    if (this.frozen) return;
    for (const s of this.symbols.values()) {
      const move = (this.random() - 0.5) * 2 * s.step;
      s.bid = round(Math.max(s.step, s.bid + move), s.spec.digits);
      s.time = Date.now();
      this.afterPriceChange(s);
    }
  }

  private tickOf(s: SymbolState): WireTick {
    return { symbol: s.spec.name, bid: s.bid, ask: round(s.bid + s.spread, s.spec.digits), time_msc: s.time };
  }

  private afterPriceChange(s: SymbolState): void {
    const tick = this.tickOf(s);
    for (const acc of this.accounts.values()) this.checkTriggers(acc, tick);
    for (const c of this.clients) if (c.symbols.has(tick.symbol)) this.sendTo(c, { type: 'tick', tick });
  }

  private checkTriggers(acc: AccountState, t: WireTick): void {
    for (const o of [...acc.orders.values()]) {
      if (o.symbol !== t.symbol) continue;
      const hit = o.type === 'BUY_LIMIT' ? t.ask <= o.price_open : t.bid >= o.price_open;
      if (hit) this.fillLimit(acc, o);
    }
    for (const p of [...acc.positions.values()]) {
      if (p.symbol !== t.symbol) continue;
      const px = p.type === 'BUY' ? t.bid : t.ask;
      const dir = p.type === 'BUY' ? 1 : -1;
      if (p.sl !== null && dir * (px - p.sl) <= 0) this.closeAt(acc, p, p.volume, 'SL');
      else if (p.tp !== null && dir * (px - p.tp) >= 0) this.closeAt(acc, p, p.volume, 'TP');
    }
  }

  /** Converts an amount in `currency` into the account currency (USD) through the fake's own quotes. */
  private toUsd(amount: number, currency: string): number {
    if (currency === 'USD') return amount;
    const direct = this.symbols.get(`${currency}USD`);
    if (direct) return amount * direct.bid;
    const inverse = this.symbols.get(`USD${currency}`);
    if (inverse) return amount / inverse.bid;
    return amount;
  }

  private withProfit(p: WirePosition): WirePosition {
    const s = this.mustSymbol(p.symbol);
    const t = this.tickOf(s);
    const current = p.type === 'BUY' ? t.bid : t.ask;
    const dir = p.type === 'BUY' ? 1 : -1;
    const profit = money(
      this.toUsd(
        dir * (current - p.price_open) * p.volume * s.spec.trade_contract_size,
        s.spec.currency_profit,
      ),
    );
    return { ...p, price_current: current, profit };
  }

  private marginOf(symbol: string, volume: number, price: number, leverage: number): number {
    const s = this.mustSymbol(symbol);
    return this.toUsd((volume * s.spec.trade_contract_size * price) / leverage, s.spec.currency_profit);
  }

  private accountOf(acc: AccountState): WireAccount {
    let floating = 0;
    let margin = 0;
    for (const p of acc.positions.values()) {
      floating += this.withProfit(p).profit;
      margin += this.marginOf(p.symbol, p.volume, p.price_open, acc.spec.leverage);
    }
    const equity = money(acc.balance + floating);
    margin = money(margin);
    return {
      login: acc.spec.login,
      server: acc.spec.server,
      name: acc.spec.name,
      company: 'Fake Broker Ltd',
      currency: 'USD',
      leverage: acc.spec.leverage,
      balance: money(acc.balance),
      equity,
      margin,
      margin_free: money(equity - margin),
      margin_level: margin > 0 ? money((equity / margin) * 100) : null,
      trade_mode: 'demo',
      margin_mode: acc.spec.margin_mode,
    };
  }

  // --- trading ----------------------------------------------------------------------------------

  private placeOrder(acc: AccountState, body: PlaceOrderBody): PlaceOrderResponse {
    if (!body || typeof body.client_id !== 'string' || !body.client_id)
      throw new BridgeFailure(400, 'BAD_REQUEST', 'client_id is required');
    const tag = clientTag(body.client_id);
    const earlier = acc.byTag.get(tag);
    if (earlier) return { ...earlier, duplicate: true };
    const s = this.symbols.get(body.symbol);
    if (!s) throw new BridgeFailure(404, 'NOT_FOUND', `Unknown symbol ${body.symbol}`);
    const v = body.volume;
    const steps = (v - s.spec.volume_min) / s.spec.volume_step;
    if (
      !(typeof v === 'number' && v >= s.spec.volume_min && v <= s.spec.volume_max) ||
      Math.abs(steps - Math.round(steps)) > 1e-6
    ) {
      throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid volume', RETCODE.INVALID_VOLUME);
    }
    const t = this.tickOf(s);
    const isBuy = body.type === 'BUY' || body.type === 'BUY_LIMIT';
    const isLimit = body.type === 'BUY_LIMIT' || body.type === 'SELL_LIMIT';
    if (!['BUY', 'SELL', 'BUY_LIMIT', 'SELL_LIMIT'].includes(body.type))
      throw new BridgeFailure(400, 'BAD_REQUEST', 'Unsupported order type');
    const price = isLimit ? Number(body.price) : isBuy ? t.ask : t.bid;
    if (isLimit && !(price > 0 && (isBuy ? price < t.ask : price > t.bid))) {
      throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid price', RETCODE.INVALID_PRICE);
    }
    const sl = body.sl ?? null;
    const tp = body.tp ?? null;
    if (!this.stopsValid(isBuy, price, sl, tp))
      throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid stops', RETCODE.INVALID_STOPS);
    const account = this.accountOf(acc);
    if (!isLimit && this.marginOf(s.spec.name, v, price, acc.spec.leverage) > account.margin_free) {
      throw new BridgeFailure(422, 'TRADE_REJECTED', 'No money', RETCODE.NO_MONEY);
    }
    this.ordersSent += 1;
    const now = Date.now();
    const order: WireOrder = {
      ticket: this.nextTicket++,
      symbol: s.spec.name,
      type: body.type,
      volume_initial: v,
      volume_current: v,
      price_open: round(price, s.spec.digits),
      sl,
      tp,
      time_setup_msc: now,
      magic: body.magic ?? 0,
      comment: tag,
      client_id: body.client_id,
    };
    let result: PlaceOrderResponse;
    if (isLimit) {
      acc.orders.set(order.ticket, order);
      this.broadcast(acc, { type: 'order', order, status: 'PLACED' });
      result = {
        retcode: RETCODE.PLACED,
        retcode_text: 'Request placed',
        client_id: body.client_id,
        order: order.ticket,
        deal: null,
        position: null,
        status: 'PLACED',
        price: order.price_open,
        volume: v,
        time_msc: now,
        duplicate: false,
      };
    } else {
      const { deal, position } = this.open(acc, order, price);
      result = {
        retcode: RETCODE.DONE,
        retcode_text: 'Request completed',
        client_id: body.client_id,
        order: order.ticket,
        deal: deal.ticket,
        position: position.ticket,
        status: 'FILLED',
        price: deal.price,
        volume: v,
        time_msc: deal.time_msc,
        duplicate: false,
      };
    }
    acc.byTag.set(tag, result);
    return result;
  }

  private stopsValid(isBuy: boolean, ref: number, sl: number | null, tp: number | null): boolean {
    const dir = isBuy ? 1 : -1;
    if (sl !== null && !(typeof sl === 'number' && dir * (ref - sl) > 0)) return false;
    if (tp !== null && !(typeof tp === 'number' && dir * (tp - ref) > 0)) return false;
    return true;
  }

  private open(
    acc: AccountState,
    order: WireOrder,
    price: number,
  ): { deal: WireDeal; position: WirePosition } {
    const s = this.mustSymbol(order.symbol);
    const now = Date.now();
    const commission = -money(this.commissionPerLot * order.volume_current);
    const side = order.type === 'BUY' || order.type === 'BUY_LIMIT' ? 'BUY' : 'SELL';
    const position: WirePosition = {
      ticket: order.ticket,
      symbol: order.symbol,
      type: side,
      volume: order.volume_current,
      price_open: round(price, s.spec.digits),
      price_current: round(price, s.spec.digits),
      sl: order.sl,
      tp: order.tp,
      profit: 0,
      swap: 0,
      commission,
      time_msc: now,
      magic: order.magic,
      comment: order.comment,
      client_id: order.client_id,
    };
    const deal = this.addDeal(acc, {
      order: order.ticket,
      position_id: position.ticket,
      symbol: order.symbol,
      type: side,
      entry: 'IN',
      volume: order.volume_current,
      price: position.price_open,
      profit: 0,
      commission,
      reason: 'EXPERT',
      magic: order.magic,
      comment: order.comment,
      client_id: order.client_id,
      order_type: order.type,
    });
    acc.balance += commission;
    acc.positions.set(position.ticket, position);
    this.broadcast(acc, { type: 'position', position: this.withProfit(position), status: 'OPENED' });
    this.broadcastAccount(acc);
    return { deal, position };
  }

  private fillLimit(acc: AccountState, o: WireOrder): void {
    acc.orders.delete(o.ticket);
    this.broadcast(acc, { type: 'order', order: o, status: 'FILLED' });
    this.open(acc, o, o.price_open);
  }

  private addDeal(acc: AccountState, d: Omit<WireDeal, 'ticket' | 'time_msc' | 'swap'>): WireDeal {
    const deal: WireDeal = { ...d, ticket: this.nextTicket++, time_msc: Date.now(), swap: 0 };
    acc.deals.push(deal);
    this.broadcast(acc, { type: 'deal', deal });
    return deal;
  }

  private closeAt(acc: AccountState, p: WirePosition, volume: number, reason: WireDealReason): WireDeal {
    const s = this.mustSymbol(p.symbol);
    const t = this.tickOf(s);
    const price = p.type === 'BUY' ? t.bid : t.ask;
    const dir = p.type === 'BUY' ? 1 : -1;
    const profit = money(
      this.toUsd(dir * (price - p.price_open) * volume * s.spec.trade_contract_size, s.spec.currency_profit),
    );
    const commission = -money(this.commissionPerLot * volume);
    const remaining = round(p.volume - volume, 2);
    // A partial close leaves the remainder as the same position; the full close removes it.
    if (remaining > 0) {
      p.volume = remaining;
      p.commission = money(p.commission + commission);
    } else acc.positions.delete(p.ticket);
    acc.balance += profit + commission;
    const deal = this.addDeal(acc, {
      order: this.nextTicket++,
      position_id: p.ticket,
      symbol: p.symbol,
      type: p.type === 'BUY' ? 'SELL' : 'BUY',
      entry: 'OUT',
      volume,
      price,
      profit,
      commission,
      reason,
      magic: reason === 'MOBILE' ? 0 : p.magic,
      comment: reason === 'SL' ? `[sl ${p.sl}]` : reason === 'TP' ? `[tp ${p.tp}]` : '',
      client_id: null,
      order_type: null,
    });
    this.broadcast(acc, {
      type: 'position',
      position: this.withProfit(p),
      status: remaining > 0 ? 'UPDATED' : 'CLOSED',
    });
    this.broadcastAccount(acc);
    return deal;
  }

  private closePosition(acc: AccountState, ticket: number, body: { volume?: number }): ClosePositionResponse {
    const p = acc.positions.get(ticket);
    if (!p) throw new BridgeFailure(404, 'NOT_FOUND', `Position ${ticket} not found`);
    const volume = body?.volume ?? p.volume;
    if (!(typeof volume === 'number' && volume > 0 && volume <= p.volume + 1e-9)) {
      throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid volume', RETCODE.INVALID_VOLUME);
    }
    const deal = this.closeAt(acc, p, Math.min(volume, p.volume), 'EXPERT');
    const left = acc.positions.get(ticket);
    return {
      retcode: RETCODE.DONE,
      retcode_text: 'Request completed',
      deal,
      position: left ? this.withProfit(left) : null,
    };
  }

  private modifyPosition(
    acc: AccountState,
    ticket: number,
    body: { sl?: number | null; tp?: number | null },
  ): WirePosition {
    const p = acc.positions.get(ticket);
    if (!p) throw new BridgeFailure(404, 'NOT_FOUND', `Position ${ticket} not found`);
    const sl = body?.sl === undefined ? p.sl : body.sl;
    const tp = body?.tp === undefined ? p.tp : body.tp;
    const t = this.tickOf(this.mustSymbol(p.symbol));
    const ref = p.type === 'BUY' ? t.bid : t.ask;
    if (!this.stopsValid(p.type === 'BUY', ref, sl, tp))
      throw new BridgeFailure(422, 'TRADE_REJECTED', 'Invalid stops', RETCODE.INVALID_STOPS);
    p.sl = sl;
    p.tp = tp;
    const out = this.withProfit(p);
    this.broadcast(acc, { type: 'position', position: out, status: 'UPDATED' });
    return out;
  }

  private cancelOrder(
    acc: AccountState,
    ticket: number,
  ): { retcode: number; retcode_text: string; order: WireOrder } {
    const o = acc.orders.get(ticket);
    if (!o) throw new BridgeFailure(404, 'NOT_FOUND', `Order ${ticket} not found`);
    acc.orders.delete(ticket);
    this.broadcast(acc, { type: 'order', order: o, status: 'CANCELLED' });
    return { retcode: RETCODE.DONE, retcode_text: 'Request completed', order: o };
  }

  /** Deterministic bars: a slow wave plus per-bar noise; the bar holding "now" closes at the live bid. */
  private candles(symbol: string, tf: Mt5Timeframe, from: number, to: number): WireCandle[] {
    const s = this.mustSymbol(symbol);
    const len = timeframeMs(tf);
    const out: WireCandle[] = [];
    const starts: number[] = [];
    if (len === null) {
      const d = new Date(from);
      let t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
      while (t <= to && starts.length < 5000) {
        starts.push(t);
        const n = new Date(t);
        t = Date.UTC(n.getUTCFullYear(), n.getUTCMonth() + 1, 1);
      }
    } else {
      // Weekly bars open on Sunday 00:00 UTC as in MT5; the epoch was a Thursday.
      const offset = tf === 'W1' ? 3 * 86_400_000 : 0;
      for (
        let t = Math.floor((from + offset) / len) * len - offset;
        t <= to && starts.length < 5000;
        t += len
      )
        starts.push(t);
    }
    const now = Date.now();
    const unit = s.step * 20;
    const level = (t: number) =>
      s.bid + unit * 10 * Math.sin(t / 86_400_000) - unit * 10 * Math.sin(now / 86_400_000);
    for (const t of starts) {
      if (t > now) break;
      const noise = prng(Math.floor(t / 1000) ^ s.spec.name.length);
      const open = level(t) + (noise() - 0.5) * unit;
      const isLive = len === null ? t + 31 * 86_400_000 > now : t + len > now;
      const close = isLive ? s.bid : level(t) + (noise() - 0.5) * unit;
      const high = Math.max(open, close) + noise() * unit;
      const low = Math.min(open, close) - noise() * unit;
      const d = s.spec.digits;
      out.push({
        time: t,
        open: round(open, d),
        high: round(high, d),
        low: round(low, d),
        close: round(close, d),
        tick_volume: 10 + Math.floor(noise() * 500),
      });
    }
    return out;
  }

  // --- HTTP -------------------------------------------------------------------------------------

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.hanging) {
      this.hung.add(res);
      return;
    }
    try {
      const url = new URL(req.url ?? '/', 'http://bridge');
      const parts = url.pathname.split('/').filter(Boolean);
      if (parts[0] !== 'v1') throw new BridgeFailure(404, 'NOT_FOUND', 'Unknown API version');
      const route = `${req.method} /${parts.slice(1).join('/')}`;
      if (route === 'GET /health')
        return this.reply(res, 200, { status: 'ok', version: 'v1', terminal_connected: true });
      this.checkBridgeToken(req);
      const body = req.method === 'POST' || req.method === 'PUT' ? await readJson(req) : undefined;
      if (route === 'POST /login') return this.reply(res, 200, this.login(body as Record<string, unknown>));
      const acc = this.accountForSession(req.headers.authorization);
      if (route === 'POST /logout') {
        this.sessions.delete(bearer(req.headers.authorization) ?? '');
        return this.reply(res, 200, { ok: true });
      }
      const [, a, b, c] = parts;
      if (route === 'GET /account') return this.reply(res, 200, this.accountOf(acc));
      if (route === 'GET /symbols')
        return this.reply(res, 200, { symbols: [...this.symbols.values()].map((s) => s.spec) });
      if (req.method === 'GET' && a === 'symbols' && b && !c)
        return this.reply(res, 200, this.mustSymbol(decodeURIComponent(b), 404).spec);
      if (req.method === 'GET' && a === 'quotes' && b && !c)
        return this.reply(res, 200, this.tickOf(this.mustSymbol(decodeURIComponent(b), 404)));
      if (route === 'POST /orders') return this.reply(res, 200, this.placeOrder(acc, body as PlaceOrderBody));
      if (route === 'GET /orders') return this.reply(res, 200, { orders: [...acc.orders.values()] });
      if (route === 'GET /positions')
        return this.reply(res, 200, {
          positions: [...acc.positions.values()].map((p) => this.withProfit(p)),
        });
      if (req.method === 'DELETE' && a === 'orders' && b && !c)
        return this.reply(res, 200, this.cancelOrder(acc, Number(b)));
      if (req.method === 'PUT' && a === 'positions' && b && !c)
        return this.reply(res, 200, this.modifyPosition(acc, Number(b), body as object));
      if (req.method === 'POST' && a === 'positions' && b && c === 'close')
        return this.reply(res, 200, this.closePosition(acc, Number(b), body as object));
      if (route === 'GET /deals') {
        const { from, to } = range(url);
        return this.reply(res, 200, {
          deals: acc.deals.filter((d) => d.time_msc >= from && d.time_msc <= to),
        });
      }
      if (route === 'GET /candles') {
        const { from, to } = range(url);
        const tf = url.searchParams.get('timeframe') as Mt5Timeframe;
        if (!MT5_TIMEFRAMES.includes(tf))
          throw new BridgeFailure(400, 'BAD_REQUEST', `Unknown timeframe ${tf}`);
        const symbol = this.mustSymbol(url.searchParams.get('symbol') ?? '', 404).spec.name;
        return this.reply(res, 200, { candles: this.candles(symbol, tf, from, to) });
      }
      throw new BridgeFailure(404, 'NOT_FOUND', `No route ${route}`);
    } catch (e) {
      if (e instanceof BridgeFailure) {
        return this.reply(res, e.status, {
          error: { code: e.code, message: e.message, ...(e.retcode ? { retcode: e.retcode } : {}) },
        });
      }
      return this.reply(res, 500, {
        error: { code: 'INTERNAL', message: String((e as Error)?.message ?? e) },
      });
    }
  }

  private reply(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private checkBridgeToken(req: IncomingMessage): void {
    if (this.opts.bridgeToken && req.headers[BRIDGE_TOKEN_HEADER] !== this.opts.bridgeToken) {
      throw new BridgeFailure(401, 'UNAUTHORIZED', 'Bad bridge token');
    }
  }

  private login(body: Record<string, unknown> | undefined): LoginResponse {
    this.loginAttempts += 1;
    const login = Number(body?.login);
    const acc = this.accounts.get(login);
    if (!acc || acc.spec.password !== body?.password || acc.spec.server !== body?.server) {
      throw new BridgeFailure(401, 'INVALID_ACCOUNT', 'Invalid account or password (authorization failed)');
    }
    const session = randomBytes(18).toString('base64url');
    this.sessions.set(session, login);
    return {
      session,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      account: this.accountOf(acc),
    };
  }

  private accountForSession(authorization: string | undefined): AccountState {
    const login = this.sessions.get(bearer(authorization) ?? '');
    const acc = login === undefined ? undefined : this.accounts.get(login);
    if (!acc) throw new BridgeFailure(401, 'SESSION_EXPIRED', 'Session is unknown or expired; log in again');
    return acc;
  }

  private mustSymbol(name: string, status = 0): SymbolState {
    const s = this.symbols.get(name);
    if (!s) {
      if (status) throw new BridgeFailure(status, 'NOT_FOUND', `Unknown symbol ${name}`);
      throw new Error(`unknown symbol ${name}`);
    }
    return s;
  }

  // --- stream -----------------------------------------------------------------------------------

  private onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://bridge');
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    };
    if (this.down) return void socket.destroy();
    if (url.pathname !== '/v1/stream') return refuse(404, 'Not Found');
    if (this.opts.bridgeToken && req.headers[BRIDGE_TOKEN_HEADER] !== this.opts.bridgeToken)
      return refuse(401, 'Unauthorized');
    const session = bearer(req.headers.authorization) ?? url.searchParams.get('session') ?? '';
    const login = this.sessions.get(session);
    if (login === undefined) return refuse(401, 'Unauthorized');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const client: StreamClient = {
        ws,
        login,
        symbols: new Set(),
        beat: setInterval(
          () => this.sendTo(client, { type: 'heartbeat', time_msc: Date.now() }),
          this.heartbeatMs,
        ),
      };
      this.clients.add(client);
      const acc = this.accounts.get(login) as AccountState;
      this.sendTo(client, {
        type: 'hello',
        login,
        server: acc.spec.server,
        server_time_msc: Date.now(),
        heartbeat_ms: this.heartbeatMs,
      });
      ws.on('message', (raw) => {
        let msg: ClientMessage;
        try {
          msg = JSON.parse(raw.toString()) as ClientMessage;
        } catch {
          return this.sendTo(client, { type: 'error', error: { code: 'BAD_REQUEST', message: 'Not JSON' } });
        }
        if (msg.op === 'ping') return this.sendTo(client, { type: 'pong', id: msg.id });
        if (msg.op === 'subscribe' || msg.op === 'unsubscribe') {
          for (const name of msg.symbols ?? []) {
            const s = this.symbols.get(name);
            if (!s) {
              this.sendTo(client, {
                type: 'error',
                error: { code: 'NOT_FOUND', message: `Unknown symbol ${name}` },
              });
              continue;
            }
            if (msg.op === 'subscribe') {
              client.symbols.add(name);
              this.sendTo(client, { type: 'tick', tick: this.tickOf(s) });
            } else client.symbols.delete(name);
          }
          return;
        }
        this.sendTo(client, { type: 'error', error: { code: 'BAD_REQUEST', message: 'Unknown op' } });
      });
      ws.on('close', () => {
        clearInterval(client.beat);
        this.clients.delete(client);
      });
    });
  }

  private sendTo(c: StreamClient, msg: ServerMessage): void {
    if (!this.muted && c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(msg));
  }

  private broadcast(acc: AccountState, msg: ServerMessage): void {
    for (const c of this.clients) if (c.login === acc.spec.login) this.sendTo(c, msg);
  }

  private broadcastAccount(acc: AccountState): void {
    this.broadcast(acc, { type: 'account', account: this.accountOf(acc) });
  }

  private dropConnections(): void {
    for (const c of this.clients) {
      clearInterval(c.beat);
      c.ws.terminate();
    }
    this.clients.clear();
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }
}

function bearer(h: string | undefined): string | undefined {
  return h?.startsWith('Bearer ') ? h.slice(7) : undefined;
}

function range(url: URL): { from: number; to: number } {
  const from = Number(url.searchParams.get('from'));
  const to = Number(url.searchParams.get('to'));
  if (
    !Number.isFinite(from) ||
    !Number.isFinite(to) ||
    url.searchParams.get('from') === null ||
    url.searchParams.get('to') === null
  ) {
    throw new BridgeFailure(400, 'BAD_REQUEST', 'from and to (epoch milliseconds) are required');
  }
  return { from, to };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new BridgeFailure(400, 'BAD_REQUEST', 'Body is not JSON');
  }
}
