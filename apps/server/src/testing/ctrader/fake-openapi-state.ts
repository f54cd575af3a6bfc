/**
 * The fake Open API server's state: accounts with their positions, orders and deals, the symbols
 * and their prices, the open sessions and the switches the tests set. Every other part of the fake
 * works on this one object.
 */
import type { WebSocket } from 'ws';
import { TrendbarPeriod, type OpenApiFrame, type ProtoDeal } from '../../brokers/ctrader/protocol';

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

export interface FakeSymbol {
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

export interface Pos {
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

export interface Ord {
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
export type DealRec = ProtoDeal & Required<Pick<ProtoDeal, 'executionPrice' | 'commission' | 'moneyDigits'>>;

export interface AccountState {
  account: FakeAccount;
  positions: Map<number, Pos>;
  orders: Map<number, Ord>;
  deals: DealRec[];
}

export interface Session {
  ws: WebSocket;
  appAuthed: boolean;
  accounts: Set<number>;
  spots: Map<number, Set<number>>;
}

/** A request being answered: the session it came on and its frame (for the clientMsgId). */
export interface Origin {
  s: Session;
  f: OpenApiFrame;
}

export interface OpenApiState {
  readonly opts: FakeOpenApiOptions;
  readonly sessions: Set<Session>;
  readonly accounts: Map<number, AccountState>;
  readonly symbols: FakeSymbol[];
  /** payloadTypes received, in order (heartbeats excluded). */
  readonly received: OpenApiFrame[];
  nextId: number;
  /** When set, every request after the socket opens is answered with ProtoOAErrorRes of this code. */
  errorMode: string | null;
  /** When true the server goes silent (a half-open link): it neither answers nor sends heartbeats. */
  frozen: boolean;
  /** ProtoHeartbeatEvents received from clients. */
  heartbeatsReceived: number;
  /** Max trendbars per answer before hasMore. */
  trendbarChunk: number;
}

export const ASSETS: Record<string, number> = { EUR: 1, USD: 2, GBP: 3, JPY: 4 };

export const PERIOD_SECONDS: Record<number, number> = {
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

export function createOpenApiState(opts: FakeOpenApiOptions): OpenApiState {
  const accounts = new Map<number, AccountState>();
  for (const a of opts.accounts)
    accounts.set(a.ctidTraderAccountId, {
      account: { ...a },
      positions: new Map(),
      orders: new Map(),
      deals: [],
    });
  return {
    opts,
    sessions: new Set(),
    accounts,
    symbols: defaultSymbols(),
    received: [],
    nextId: 1000,
    errorMode: null,
    frozen: false,
    heartbeatsReceived: 0,
    trendbarChunk: 500,
  };
}

/** A fresh id for an order, a position or a deal. */
export function newId(st: OpenApiState): number {
  return ++st.nextId;
}

export function accountState(st: OpenApiState, ctid: number): AccountState {
  const s = st.accounts.get(ctid);
  if (!s) throw new Error(`no fake account ${ctid}`);
  return s;
}

export function symbolOf(st: OpenApiState, id: number): FakeSymbol {
  const sym = st.symbols.find((x) => x.symbolId === id);
  if (!sym) throw new Error(`unknown symbol ${id}`);
  return sym;
}
