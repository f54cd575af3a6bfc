import type { Candle, MarketSession, Quote, SymbolInfo, Timeframe } from '../types';

/** Static description of a simulated instrument. */
export interface SimSymbolSpec extends SymbolInfo {
  /** Typical spread in price units. */
  spread: number;
  /** Annualised volatility used by the price process (e.g. 0.08 for EURUSD). */
  annual_vol: number;
  /** FX and metals close at the weekend; crypto trades every day. */
  calendar: 'fx' | 'index' | 'crypto';
  /** Commission per lot per side in USD (0 for spread-only instruments). */
  commission_per_lot: number;
  /**
   * The broker's leverage cap for the instrument (e.g. 2 for BTCUSD): margin uses the lower of this
   * and the account's leverage, as brokers do (see README.md, Margin).
   */
  max_leverage: number;
}

/**
 * The simulated market: deterministic from a seed, so that the price at an instant is the same
 * whether it is read live or from history, on every node and after every restart.
 */
export interface SimMarket {
  readonly seed: number;
  specs(): SimSymbolSpec[];
  /** Undefined for a symbol the simulator does not know. */
  spec(symbol: string): SimSymbolSpec | undefined;
  /** Bid/ask at an instant (epoch ms). During a market closure the last quote before it holds. */
  quoteAt(symbol: string, timeMs: number): Quote;
  /**
   * Bids at many instants at once, each `quoteAt(symbol, t).bid`; fastest with ascending times.
   * Optional so that stand-in markets of tests need not have it (callers fall back to `quoteAt`).
   */
  bidsAt?(symbol: string, timesMs: Float64Array): Float64Array;
  /** Candles whose open time falls in [fromMs, toMs); the last one may be still forming at `nowMs`. */
  candles(symbol: string, timeframe: Timeframe, fromMs: number, toMs: number, nowMs: number): Candle[];
  /** Converts an amount in `from` currency into `to` at an instant, through the simulator's own cross rates. */
  convert(amount: number, from: string, to: string, timeMs: number): number;
  /** Is the symbol's market open at this instant? */
  isOpen(symbol: string, timeMs: number): boolean;
  /** Open or closed at this instant, and when that next changes (from the symbol's weekly timetable). */
  session(symbol: string, timeMs: number): MarketSession;
  /** Live ticks: calls `onQuote` several times a second while subscribed and the market is open. */
  subscribe(symbol: string, onQuote: (q: Quote) => void): () => void;
}
