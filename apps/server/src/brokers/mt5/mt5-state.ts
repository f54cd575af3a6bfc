import type WebSocket from 'ws';
import {
  allCapabilities,
  type BrokerCapabilities,
  type BrokerEvent,
  type ConnectionState,
  type PendingOrder,
  type PlaceOrderResult,
  type Position,
  type Quote,
  type SymbolInfo,
} from '../types';
import type { Mt5Credentials } from './mt5-mapping';
import { BRIDGE_API_VERSION } from './protocol';

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

/** The one state object of an MT5 bridge connection that the adapter's modules share. */
export interface Mt5State {
  readonly opts: Mt5BridgeOptions;
  readonly base: string;
  readonly timeoutMs: number;
  readonly backoff: { initialMs: number; maxMs: number };
  readonly log: AdapterLog;
  readonly who: { login: string; server: string };
  readonly capabilities: BrokerCapabilities;

  state: ConnectionState;
  session: string | null;
  loginInFlight: Promise<void> | null;
  ws: WebSocket | null;
  watchdog: NodeJS.Timeout | null;
  reconnectTimer: NodeJS.Timeout | null;
  reconnectAttempt: number;
  reconnectInFlight: Promise<void> | null;
  connectInFlight: Promise<void> | null;
  reconnecting: boolean;
  stopped: boolean;

  readonly listeners: Set<(e: BrokerEvent) => void>;
  readonly quoteListeners: Map<string, Set<(q: Quote) => void>>;
  readonly lastQuotes: Map<string, Quote>;
  readonly symbolCache: Map<string, SymbolInfo>;

  /** What we last knew of the account: the baseline that reconciliation compares against. */
  knownPositions: Map<string, Position>;
  knownOrders: Map<string, PendingOrder>;
  readonly seenDeals: Set<string>;
  lastDealMs: number;

  readonly placed: Map<string, PlaceOrderResult>;
  readonly placing: Map<string, Promise<PlaceOrderResult>>;

  /** Set when the adapter is composed: the session's reactions to a lost stream and to a request that got through. */
  onStreamLost: () => void;
  onRequestOk: () => void;
}

const silentLog: AdapterLog = { info() {}, warn() {}, debug() {} };

export function createMt5State(opts: Mt5BridgeOptions): Mt5State {
  return {
    opts,
    base: `${opts.url.replace(/\/+$/, '')}/${BRIDGE_API_VERSION}`,
    timeoutMs: opts.timeoutMs ?? 10_000,
    backoff: opts.backoff ?? { initialMs: 500, maxMs: 30_000 },
    log: opts.log ?? silentLog,
    who: { login: opts.credentials.account_number, server: opts.credentials.server },
    capabilities: allCapabilities(),
    state: 'disconnected',
    session: null,
    loginInFlight: null,
    ws: null,
    watchdog: null,
    reconnectTimer: null,
    reconnectAttempt: 0,
    reconnectInFlight: null,
    connectInFlight: null,
    reconnecting: false,
    stopped: true,
    listeners: new Set(),
    quoteListeners: new Map(),
    lastQuotes: new Map(),
    symbolCache: new Map(),
    knownPositions: new Map(),
    knownOrders: new Map(),
    seenDeals: new Set(),
    lastDealMs: 0,
    placed: new Map(),
    placing: new Map(),
    onStreamLost: () => undefined,
    onRequestOk: () => undefined,
  };
}

export function emit(st: Mt5State, e: BrokerEvent): void {
  for (const l of st.listeners) {
    try {
      l(e);
    } catch (err) {
      st.log.warn({ err: String(err) }, 'mt5 event listener failed');
    }
  }
}

export function setState(st: Mt5State, state: ConnectionState, detail?: string): void {
  st.state = state;
  emit(st, { type: 'connection', state, ...(detail ? { detail } : {}) });
}
