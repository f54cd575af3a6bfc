/**
 * What the fake MT5 bridge holds in memory (its options, symbols, accounts, sessions, stream clients
 * and switches), shared by its market, trading, HTTP and stream parts; and the failure they throw,
 * which the HTTP part turns into the protocol's error body.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  HEARTBEAT_INTERVAL_MS,
  type BridgeErrorCode,
  type PlaceOrderResponse,
  type WireDeal,
  type WireOrder,
  type WirePosition,
  type WireSymbol,
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

export interface SymbolState {
  spec: WireSymbol;
  bid: number;
  spread: number;
  /** Random-walk step in price units. */
  step: number;
  time: number;
}

export interface AccountState {
  spec: Required<FakeAccountSpec>;
  balance: number;
  positions: Map<number, WirePosition>;
  orders: Map<number, WireOrder>;
  deals: WireDeal[];
  /** client tag -> first result, so that a retried client id never opens a second position. */
  byTag: Map<string, PlaceOrderResponse>;
}

export interface StreamClient {
  ws: WebSocket;
  login: number;
  symbols: Set<string>;
  beat: NodeJS.Timeout;
}

export interface BridgeState {
  readonly opts: FakeBridgeOptions;
  readonly accounts: Map<number, AccountState>;
  readonly symbols: Map<string, SymbolState>;
  /** session -> MT5 login */
  readonly sessions: Map<string, number>;
  readonly clients: Set<StreamClient>;
  readonly sockets: Set<Socket>;
  readonly wss: WebSocketServer;
  /** Requests accepted while hanging, never answered until the hang ends. */
  readonly hung: Set<ServerResponse>;
  readonly random: () => number;
  readonly heartbeatMs: number;
  readonly commissionPerLot: number;
  nextTicket: number;
  /** Order requests that reached the trade server (duplicates replayed from the client id are not counted). */
  ordersSent: number;
  /** Every login attempt, successful or not. */
  loginAttempts: number;
  /** Connections cut at once while the bridge was down (each is one client attempt). */
  refusedConnections: number;
  down: boolean;
  /** A route (`POST /orders`) whose next successful request goes through, then the bridge goes down unanswered. */
  downAfter: string | null;
  frozen: boolean;
  muted: boolean;
  hanging: boolean;
}

export class BridgeFailure extends Error {
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
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const round = (v: number, digits: number) => Number(v.toFixed(digits));
export const money = (v: number) => Math.round(v * 100) / 100;

export function createBridgeState(opts: FakeBridgeOptions): BridgeState {
  const now = Date.now();
  const st: BridgeState = {
    opts,
    accounts: new Map(),
    symbols: new Map(SYMBOLS.map((s) => [s.spec.name, { ...s, time: now }])),
    sessions: new Map(),
    clients: new Set(),
    sockets: new Set(),
    wss: new WebSocketServer({ noServer: true }),
    hung: new Set(),
    random: prng(opts.seed ?? 7),
    heartbeatMs: opts.heartbeatMs ?? HEARTBEAT_INTERVAL_MS,
    commissionPerLot: opts.commissionPerLot ?? 3.5,
    nextTicket: 1000,
    ordersSent: 0,
    loginAttempts: 0,
    refusedConnections: 0,
    down: false,
    downAfter: null,
    frozen: false,
    muted: false,
    hanging: false,
  };
  for (const a of opts.accounts) {
    st.accounts.set(a.login, {
      spec: { name: `Trader ${a.login}`, balance: 10_000, leverage: 100, margin_mode: 'hedging', ...a },
      balance: a.balance ?? 10_000,
      positions: new Map(),
      orders: new Map(),
      deals: [],
      byTag: new Map(),
    });
  }
  return st;
}

/** The symbol's state; with an HTTP `status`, an unknown name is the protocol's NOT_FOUND. */
export function mustSymbol(st: BridgeState, name: string, status = 0): SymbolState {
  const s = st.symbols.get(name);
  if (!s) {
    if (status) throw new BridgeFailure(status, 'NOT_FOUND', `Unknown symbol ${name}`);
    throw new Error(`unknown symbol ${name}`);
  }
  return s;
}
