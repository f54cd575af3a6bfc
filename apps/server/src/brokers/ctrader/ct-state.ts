import { cleanSymbol, roundToDigits } from '@tradedesk/domain';
import type {
  BrokerEvent,
  ConnectionState,
  PlaceOrderResult,
  Quote,
  Reconciliation,
  SymbolInfo,
} from '../types';
import type { OpenApiConnection } from './openapi-client';
import { TradeSide, type ProtoLightSymbol, type ProtoSymbol } from './protocol';

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

export interface SymbolEntry {
  light: ProtoLightSymbol;
  name: string;
  full?: ProtoSymbol;
  info?: SymbolInfo;
}

/** The one state object of a cTrader connection that the adapter's modules share. */
export interface CtState {
  readonly opts: CTraderAdapterOptions;
  conn: OpenApiConnection | undefined;
  state: ConnectionState;
  connecting: Promise<void> | undefined;
  stopped: boolean;
  everConnected: boolean;
  attempt: number;
  retryTimer: NodeJS.Timeout | undefined;
  lastError: string | undefined;

  symbolsById: Map<number, SymbolEntry>;
  symbolsByName: Map<string, SymbolEntry>;
  assets: Map<number, string>;
  readonly quotes: Map<number, Quote>;
  /** Spot watchers by symbol name, so that they survive reconnects and symbol reloads. */
  readonly quoteSubs: Map<string, Set<(q: Quote) => void>>;
  sessionToken: string | undefined;
  /** Symbol ids subscribed on the current connection. */
  spotIds: Set<number>;
  tokenTimer: NodeJS.Timeout | undefined;
  readonly listeners: Set<(e: BrokerEvent) => void>;
  readonly placed: Map<string, Promise<PlaceOrderResult>>;
  lastReconciliation: Reconciliation | undefined;

  /** Connects (or joins the connect under way); set when the adapter is composed. */
  connect: () => Promise<void>;
}

export function createCtState(opts: CTraderAdapterOptions): CtState {
  return {
    opts,
    conn: undefined,
    state: 'disconnected',
    connecting: undefined,
    stopped: true,
    everConnected: false,
    attempt: 0,
    retryTimer: undefined,
    lastError: undefined,
    symbolsById: new Map(),
    symbolsByName: new Map(),
    assets: new Map(),
    quotes: new Map(),
    quoteSubs: new Map(),
    sessionToken: undefined,
    spotIds: new Set(),
    tokenTimer: undefined,
    listeners: new Set(),
    placed: new Map(),
    lastReconciliation: undefined,
    connect: () => Promise.resolve(),
  };
}

/** cTrader names symbols "EUR/USD"; the app uses "EURUSD": the domain's one symbol cleaning. */
export const normSymbol = cleanSymbol;
/** Prices and volumes are rounded by the domain's one rounding (half away from zero). */
export const roundTo = roundToDigits;
export const iso = (ms: number | undefined) => new Date(ms ?? Date.now()).toISOString();
export const sideOf = (tradeSide: number): 'BUY' | 'SELL' => (tradeSide === TradeSide.SELL ? 'SELL' : 'BUY');

export function emit(st: CtState, e: BrokerEvent): void {
  for (const fn of st.listeners) {
    try {
      fn(e);
    } catch (err) {
      st.opts.log?.warn({ err }, 'broker event listener failed');
    }
  }
}

export function setState(st: CtState, s: ConnectionState, detail?: string): void {
  if (st.state === s && detail === undefined) return;
  st.state = s;
  emit(st, { type: 'connection', state: s, ...(detail ? { detail } : {}) });
}
