import {
  allCapabilities,
  type AccountInfo,
  type BrokerAdapter,
  type BrokerCapabilities,
  type BrokerEvent,
  type Candle,
  type ConnectionState,
  type Deal,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Position,
  type Quote,
  type Reconciliation,
  type SymbolInfo,
  type Timeframe,
} from '../types';
import { accountInfo } from './ct-account';
import { deals } from './ct-history';
import * as orders from './ct-orders';
import * as quotes from './ct-quotes';
import * as session from './ct-session';
import { symbolInfo, symbols } from './ct-symbols';
import { createCtState, type CTraderAdapterOptions, type CtState } from './ct-state';

export { TOKEN_CHECK_MS, type CTraderAdapterOptions } from './ct-state';

/**
 * BrokerAdapter over the cTrader Open API (JSON over WebSocket). Symbols are cached per connection,
 * spot subscriptions are shared per symbol, and a lost connection is re-established with exponential
 * backoff, re-authorised, re-subscribed and reconciled.
 *
 * This class only composes the parts that share one state: connection and session (ct-session,
 * ct-call, ct-events), symbols and quotes (ct-symbols, ct-quotes), account (ct-account), orders and
 * positions (ct-orders, ct-mapping) and history (ct-history).
 */
export class CTraderAdapter implements BrokerAdapter {
  readonly platform = 'cTrader' as const;
  readonly capabilities: BrokerCapabilities = allCapabilities();
  private readonly st: CtState;

  constructor(opts: CTraderAdapterOptions) {
    this.st = createCtState(opts);
    this.st.connect = () => session.connect(this.st);
  }

  get ctidTraderAccountId(): number {
    return this.st.opts.ctidTraderAccountId;
  }

  connectionState(): ConnectionState {
    return this.st.state;
  }

  connect(): Promise<void> {
    return session.connect(this.st);
  }

  disconnect(): Promise<void> {
    return session.disconnect(this.st);
  }

  onEvent(listener: (e: BrokerEvent) => void): () => void {
    this.st.listeners.add(listener);
    return () => void this.st.listeners.delete(listener);
  }

  symbols(): Promise<SymbolInfo[]> {
    return symbols(this.st);
  }

  symbolInfo(symbol: string): Promise<SymbolInfo> {
    return symbolInfo(this.st, symbol);
  }

  subscribeQuotes(symbol: string, onQuote: (q: Quote) => void): () => void {
    return quotes.subscribeQuotes(this.st, symbol, onQuote);
  }

  quote(symbol: string): Promise<Quote> {
    return quotes.quote(this.st, symbol);
  }

  candles(symbol: string, timeframe: Timeframe, fromMs: number, toMs: number): Promise<Candle[]> {
    return quotes.candles(this.st, symbol, timeframe, fromMs, toMs);
  }

  accountInfo(): Promise<AccountInfo> {
    return accountInfo(this.st);
  }

  reconcile(): Promise<Reconciliation> {
    return orders.reconcile(this.st);
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

  deals(fromIso: string, toIso: string): Promise<Deal[]> {
    return deals(this.st, fromIso, toIso);
  }
}
