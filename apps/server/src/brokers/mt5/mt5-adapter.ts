import type {
  AccountInfo,
  BrokerAdapter,
  BrokerCapabilities,
  BrokerEvent,
  Candle,
  ConnectionState,
  Deal,
  PlaceOrderRequest,
  PlaceOrderResult,
  Position,
  Quote,
  Reconciliation,
  SymbolInfo,
  Timeframe,
} from '../types';
import * as history from './mt5-history';
import type { Mt5AccountInfo } from './mt5-mapping';
import * as orders from './mt5-orders';
import * as quotes from './mt5-quotes';
import * as session from './mt5-session';
import { createMt5State, type Mt5BridgeOptions, type Mt5State } from './mt5-state';

export { TRADEDESK_MAGIC, toAccountInfo, toBrokerError, toSymbolInfo } from './mt5-mapping';
export type { Mt5AccountInfo, Mt5Credentials } from './mt5-mapping';
export type { AdapterLog, Mt5BridgeOptions } from './mt5-state';

/**
 * `BrokerAdapter` over the MT5 bridge protocol: HTTP for requests, one WebSocket for ticks and trade
 * events. When the stream is lost the adapter logs in again with backoff and reconciles positions,
 * orders and deals, announcing what changed while it was away as ordinary events.
 *
 * This class only composes the parts that share one state: connection and session (mt5-session,
 * mt5-http, mt5-stream), symbols and quotes (mt5-quotes), orders and positions (mt5-orders) and
 * history (mt5-history).
 */
export class Mt5BridgeAdapter implements BrokerAdapter {
  readonly platform = 'MT5' as const;
  readonly capabilities: BrokerCapabilities;
  private readonly st: Mt5State;

  constructor(opts: Mt5BridgeOptions) {
    this.st = createMt5State(opts);
    this.st.onStreamLost = () => session.onStreamLost(this.st);
    this.st.onRequestOk = () => session.nudgeReconnect(this.st);
    this.capabilities = this.st.capabilities;
  }

  connectionState(): ConnectionState {
    return this.st.state;
  }

  onEvent(listener: (e: BrokerEvent) => void): () => void {
    this.st.listeners.add(listener);
    return () => void this.st.listeners.delete(listener);
  }

  connect(): Promise<void> {
    return session.connect(this.st);
  }

  disconnect(): Promise<void> {
    return session.disconnect(this.st);
  }

  account(): Promise<Mt5AccountInfo> {
    return quotes.account(this.st);
  }

  accountInfo(): Promise<AccountInfo> {
    return quotes.accountInfo(this.st);
  }

  symbols(): Promise<SymbolInfo[]> {
    return quotes.symbols(this.st);
  }

  symbolInfo(symbol: string): Promise<SymbolInfo> {
    return quotes.symbolInfo(this.st, symbol);
  }

  quote(symbol: string): Promise<Quote> {
    return quotes.quote(this.st, symbol);
  }

  subscribeQuotes(symbol: string, onQuote: (q: Quote) => void): () => void {
    return quotes.subscribeQuotes(this.st, symbol, onQuote);
  }

  candles(symbol: string, timeframe: Timeframe, fromMs: number, toMs: number): Promise<Candle[]> {
    return quotes.candles(this.st, symbol, timeframe, fromMs, toMs);
  }

  placeOrder(req: PlaceOrderRequest): Promise<PlaceOrderResult> {
    return orders.placeOrder(this.st, req);
  }

  amendPosition(
    positionId: string,
    stops: { stop_loss?: number | null; take_profit?: number | null },
  ): Promise<Position> {
    return orders.amendPosition(this.st, positionId, stops);
  }

  closePosition(positionId: string, volume?: number): Promise<Deal> {
    return orders.closePosition(this.st, positionId, volume);
  }

  cancelOrder(orderId: string): Promise<void> {
    return orders.cancelOrder(this.st, orderId);
  }

  reconcile(): Promise<Reconciliation> {
    return orders.reconcile(this.st);
  }

  deals(fromIso: string, toIso: string): Promise<Deal[]> {
    return history.deals(this.st, fromIso, toIso);
  }
}
