/**
 * Wire types of the MT5 bridge protocol, version 1 (docs/mt5-bridge.md is the prose contract).
 * Shared by the adapter and by the fake bridge of the test suite, so both sides speak one protocol.
 */
import { createHash } from 'node:crypto';

export const BRIDGE_API_VERSION = 'v1';
/** Header carrying the optional shared secret between our server and the bridge. */
export const BRIDGE_TOKEN_HEADER = 'x-bridge-token';
/** Heartbeat period the bridge promises on the stream; the client gives up after three missed beats. */
export const HEARTBEAT_INTERVAL_MS = 5_000;

export type BridgeErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'INVALID_ACCOUNT'
  | 'SESSION_EXPIRED'
  | 'NOT_FOUND'
  | 'TRADE_REJECTED'
  | 'TERMINAL_DISCONNECTED'
  | 'TIMEOUT'
  | 'INTERNAL';

export interface BridgeErrorBody {
  error: { code: BridgeErrorCode; message: string; retcode?: number };
}

/** MT5 trade server return codes the bridge passes through (MqlTradeResult.retcode). */
export const RETCODE = {
  REQUOTE: 10004,
  REJECT: 10006,
  PLACED: 10008,
  DONE: 10009,
  INVALID: 10013,
  INVALID_VOLUME: 10014,
  INVALID_PRICE: 10015,
  INVALID_STOPS: 10016,
  MARKET_CLOSED: 10018,
  NO_MONEY: 10019,
  INVALID_ORDER: 10035,
  POSITION_CLOSED: 10036,
} as const;

export interface LoginRequest {
  login: number;
  password: string;
  server: string;
}

export interface WireAccount {
  login: number;
  server: string;
  name: string;
  company: string;
  currency: string;
  leverage: number;
  balance: number;
  equity: number;
  margin: number;
  margin_free: number;
  margin_level: number | null;
  trade_mode: 'demo' | 'contest' | 'real';
  margin_mode: 'hedging' | 'netting';
}

export interface LoginResponse {
  session: string;
  expires_at: string;
  account: WireAccount;
}

export interface WireSymbol {
  name: string;
  description: string;
  digits: number;
  point: number;
  trade_tick_size: number;
  trade_tick_value: number;
  trade_contract_size: number;
  currency_base: string;
  currency_profit: string;
  currency_margin: string;
  volume_min: number;
  volume_step: number;
  volume_max: number;
  trade_stops_level: number;
}

export interface WireTick {
  symbol: string;
  bid: number;
  ask: number;
  /** Epoch milliseconds of the tick (MqlTick.time_msc). */
  time_msc: number;
}

export type WireOrderType = 'BUY' | 'SELL' | 'BUY_LIMIT' | 'SELL_LIMIT';

export interface PlaceOrderBody {
  symbol: string;
  type: WireOrderType;
  volume: number;
  /** Required for limit orders. */
  price?: number;
  /** Absolute prices; null or absent means none. */
  sl?: number | null;
  tp?: number | null;
  /** Our idempotency key; the bridge keeps it in the order comment (see `clientTag`). */
  client_id: string;
  magic?: number;
  deviation?: number;
}

export interface PlaceOrderResponse {
  retcode: number;
  retcode_text: string;
  client_id: string;
  /** Order ticket. */
  order: number;
  /** Deal ticket when the order filled at once. */
  deal: number | null;
  /** Position ticket when the order filled at once. */
  position: number | null;
  status: 'FILLED' | 'PLACED';
  price: number | null;
  volume: number;
  time_msc: number;
  /** True when the client id was seen before and this is the first result replayed. */
  duplicate: boolean;
}

export interface WirePosition {
  ticket: number;
  symbol: string;
  type: 'BUY' | 'SELL';
  volume: number;
  price_open: number;
  price_current: number;
  sl: number | null;
  tp: number | null;
  profit: number;
  swap: number;
  commission: number;
  time_msc: number;
  magic: number;
  comment: string;
  /** The client id whose order opened the position, when the bridge knows it. */
  client_id: string | null;
}

export interface WireOrder {
  ticket: number;
  symbol: string;
  type: WireOrderType;
  volume_initial: number;
  volume_current: number;
  price_open: number;
  sl: number | null;
  tp: number | null;
  time_setup_msc: number;
  magic: number;
  comment: string;
  client_id: string | null;
}

export type WireDealReason = 'CLIENT' | 'MOBILE' | 'WEB' | 'EXPERT' | 'SL' | 'TP' | 'SO';

export interface WireDeal {
  ticket: number;
  order: number;
  position_id: number;
  symbol: string;
  type: 'BUY' | 'SELL';
  entry: 'IN' | 'OUT' | 'INOUT' | 'OUT_BY';
  volume: number;
  price: number;
  profit: number;
  commission: number;
  swap: number;
  reason: WireDealReason;
  time_msc: number;
  magic: number;
  comment: string;
  client_id: string | null;
  /** Type of the order that made the deal, when the bridge finds it in the history. */
  order_type: WireOrderType | null;
}

export interface ModifyPositionBody {
  sl?: number | null;
  tp?: number | null;
}

export interface ClosePositionBody {
  /** Lots to close; absent closes all. */
  volume?: number;
  client_id?: string;
}

export interface ClosePositionResponse {
  retcode: number;
  retcode_text: string;
  deal: WireDeal;
  /** The position after a partial close, null when it is gone. */
  position: WirePosition | null;
}

export interface WireCandle {
  /** Bar open time, epoch milliseconds UTC. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  tick_volume: number;
}

/** Every MT5 timeframe the bridge accepts (ENUM_TIMEFRAMES without the PERIOD_ prefix). */
export const MT5_TIMEFRAMES = [
  'M1',
  'M2',
  'M3',
  'M4',
  'M5',
  'M6',
  'M10',
  'M12',
  'M15',
  'M20',
  'M30',
  'H1',
  'H2',
  'H3',
  'H4',
  'H6',
  'H8',
  'H12',
  'D1',
  'W1',
  'MN1',
] as const;
export type Mt5Timeframe = (typeof MT5_TIMEFRAMES)[number];

/** Stream messages, client to bridge. */
export type ClientMessage =
  | { op: 'subscribe'; symbols: string[] }
  | { op: 'unsubscribe'; symbols: string[] }
  | { op: 'ping'; id: string };

/** Stream messages, bridge to client. */
export type ServerMessage =
  | { type: 'hello'; login: number; server: string; server_time_msc: number; heartbeat_ms: number }
  | { type: 'tick'; tick: WireTick }
  | { type: 'deal'; deal: WireDeal }
  | { type: 'order'; order: WireOrder; status: 'PLACED' | 'FILLED' | 'CANCELLED' }
  | { type: 'position'; position: WirePosition; status: 'OPENED' | 'UPDATED' | 'CLOSED' }
  | { type: 'account'; account: WireAccount }
  | { type: 'heartbeat'; time_msc: number }
  | { type: 'pong'; id: string }
  | { type: 'error'; error: BridgeErrorBody['error'] };

/**
 * The tag kept in the MT5 order comment (31 characters at most) for a client id: the terminal's own
 * history is the only record that survives a bridge restart, so idempotency must be readable from it.
 */
export function clientTag(clientId: string): string {
  return `td:${createHash('sha256').update(clientId).digest('base64url').slice(0, 24)}`;
}

/** Length of one bar in milliseconds; null for MN1, whose bars are calendar months. */
export function timeframeMs(tf: Mt5Timeframe): number | null {
  if (tf === 'MN1') return null;
  const n = Number(tf.slice(1));
  const unit = tf[0] === 'M' ? 60_000 : tf[0] === 'H' ? 3_600_000 : tf[0] === 'D' ? 86_400_000 : 604_800_000;
  return n * unit;
}
