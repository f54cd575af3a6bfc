/**
 * The one interface every trading platform implements (DESIGN.md section 3).
 * Prices and volumes are plain numbers rounded to the symbol's digits and volume step at the edges;
 * money crosses this boundary in the account currency as decimal numbers and is turned into integer
 * minor units where it is stored.
 */

export type Platform = 'SIM' | 'MT5' | 'cTrader';
export type Side = 'BUY' | 'SELL';
export type OrderKind = 'MARKET' | 'LIMIT';
export type Timeframe = 'M1' | 'M5' | 'M15' | 'M30' | 'H1' | 'H4' | 'D1' | 'W1' | 'MN1';

export const TIMEFRAME_SECONDS: Record<Exclude<Timeframe, 'MN1'>, number> = {
  M1: 60,
  M5: 300,
  M15: 900,
  M30: 1800,
  H1: 3600,
  H4: 14_400,
  D1: 86_400,
  W1: 604_800,
};

export type ConnectionState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting' | 'error';

export interface AccountInfo {
  balance: number;
  equity: number;
  margin: number;
  free_margin: number;
  currency: string;
  leverage: number;
}

export interface SymbolInfo {
  symbol: string;
  description: string;
  digits: number;
  pip_size: number;
  tick_size: number;
  contract_size: number;
  base_currency: string;
  quote_currency: string;
  volume_min: number;
  volume_step: number;
  volume_max: number;
}

export interface Quote {
  symbol: string;
  bid: number;
  ask: number;
  /** Epoch milliseconds. */
  time: number;
}

/** Whether a market is open at an instant and when that next changes (epoch ms; null = never). */
export interface MarketSession {
  open: boolean;
  /** While closed: the instant it opens again. */
  nextOpen: number | null;
  /** While open: the first closed instant ahead, or null for a market that never closes. */
  nextClose: number | null;
}

export interface Candle {
  /** Open time, epoch milliseconds (UTC). */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A stop or target either as an absolute price or as a distance in price units from the fill. */
export type PriceOrDistance = { price: number } | { distance: number };

export interface PlaceOrderRequest {
  /** Our idempotency key: placing twice with the same id returns the first result, never a second position. */
  client_order_id: string;
  symbol: string;
  side: Side;
  kind: OrderKind;
  volume: number;
  /** Required for LIMIT. */
  limit_price?: number;
  stop_loss?: PriceOrDistance;
  take_profit?: PriceOrDistance;
  comment?: string;
}

export interface PlaceOrderResult {
  client_order_id: string;
  order_id: string;
  /** Set when the order filled at once (market orders). */
  position_id?: string;
  status: 'FILLED' | 'PENDING';
  fill_price?: number;
  filled_at?: string;
}

export interface Position {
  position_id: string;
  symbol: string;
  side: Side;
  volume: number;
  entry_price: number;
  stop_loss: number | null;
  take_profit: number | null;
  /** Unrealised P/L in the account currency at the current price. */
  profit: number;
  swap: number;
  commission: number;
  opened_at: string;
  client_order_id?: string;
}

export interface PendingOrder {
  order_id: string;
  symbol: string;
  side: Side;
  kind: OrderKind;
  volume: number;
  limit_price: number;
  stop_loss: number | null;
  take_profit: number | null;
  created_at: string;
  client_order_id?: string;
}

export type DealReason =
  'MARKET' | 'LIMIT' | 'STOP_LOSS' | 'TAKE_PROFIT' | 'CLOSE' | 'PARTIAL_CLOSE' | 'STOP_OUT' | 'EXTERNAL';

export interface Deal {
  deal_id: string;
  order_id: string;
  position_id: string;
  symbol: string;
  side: Side;
  /** IN opens or adds, OUT closes (fully or partly). */
  entry: 'IN' | 'OUT';
  volume: number;
  price: number;
  /** Realised P/L in the account currency (0 on IN deals). */
  profit: number;
  commission: number;
  swap: number;
  reason: DealReason;
  time: string;
}

export interface Reconciliation {
  positions: Position[];
  orders: PendingOrder[];
}

export type BrokerEvent =
  | { type: 'quote'; quote: Quote }
  | { type: 'execution'; deal: Deal }
  | { type: 'order'; order: PendingOrder; status: 'PLACED' | 'FILLED' | 'CANCELLED' }
  | { type: 'position'; position: Position; status: 'OPENED' | 'UPDATED' | 'CLOSED' }
  | { type: 'account'; info: AccountInfo }
  | { type: 'connection'; state: ConnectionState; detail?: string };

export interface BrokerCapabilities {
  limitOrders: boolean;
  partialClose: boolean;
  amendStops: boolean;
  candles: boolean;
  dealHistory: boolean;
  /** Hedging accounts can hold opposite positions on one symbol. */
  hedging: boolean;
}

/**
 * Everything on, as the SIM, MT5 and cTrader adapters start out. A fresh object each time, because an
 * adapter may narrow its own copy once it knows the account (MT5 turns `hedging` off on netting).
 */
export const allCapabilities = (): BrokerCapabilities => ({
  limitOrders: true,
  partialClose: true,
  amendStops: true,
  candles: true,
  dealHistory: true,
  hedging: true,
});

/** A broker that is down or refuses: routes turn it into 502 with its message. */
export class BrokerError extends Error {
  constructor(
    message: string,
    readonly kind: 'unavailable' | 'rejected' | 'not_found' | 'auth' | 'invalid' = 'unavailable',
  ) {
    super(message);
    this.name = 'BrokerError';
  }
}

export interface BrokerAdapter {
  readonly platform: Platform;
  readonly capabilities: BrokerCapabilities;
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  connectionState(): ConnectionState;

  accountInfo(): Promise<AccountInfo>;
  symbols(): Promise<SymbolInfo[]>;
  symbolInfo(symbol: string): Promise<SymbolInfo>;
  /** Latest quote, if one is known. */
  quote(symbol: string): Promise<Quote>;
  /**
   * The symbol's trading session now, for a broker that knows its timetable (the simulator). Absent
   * or null when the platform does not say; the price feed's staleness then tells a closed market.
   */
  marketSession?(symbol: string): MarketSession | null;
  /** Calls `onQuote` with the latest known quote and then on every tick of `symbol`, until the returned function is called. */
  subscribeQuotes(symbol: string, onQuote: (q: Quote) => void): () => void;
  candles(symbol: string, timeframe: Timeframe, fromMs: number, toMs: number): Promise<Candle[]>;

  placeOrder(req: PlaceOrderRequest): Promise<PlaceOrderResult>;
  amendPosition(
    positionId: string,
    stops: { stop_loss?: number | null; take_profit?: number | null },
  ): Promise<Position>;
  /** Closes `volume` lots of the position, or all of it when volume is omitted. */
  closePosition(positionId: string, volume?: number): Promise<Deal>;
  cancelOrder(orderId: string): Promise<void>;
  reconcile(): Promise<Reconciliation>;
  deals(fromIso: string, toIso: string): Promise<Deal[]>;

  /** Subscribes to executions, orders, positions, account and connection events. */
  onEvent(listener: (e: BrokerEvent) => void): () => void;
}
