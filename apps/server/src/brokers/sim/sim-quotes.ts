import type { BrokerAdapter } from '../types';
import { toSymbolInfo } from './sim-mapping';
import { specOf, type SimState } from './sim-state';

/** Symbols, quotes and candles of the SIM broker, straight from the simulated market. */
type QuoteMethods = Pick<BrokerAdapter, 'symbols' | 'symbolInfo' | 'quote' | 'subscribeQuotes' | 'candles'>;

export function simQuotes(st: SimState): QuoteMethods {
  const { market, now } = st;
  return {
    async symbols() {
      return market.specs().map(toSymbolInfo);
    },
    async symbolInfo(symbol) {
      return toSymbolInfo(specOf(st, symbol));
    },
    async quote(symbol) {
      specOf(st, symbol);
      return market.quoteAt(symbol, now());
    },
    subscribeQuotes(symbol, onQuote) {
      specOf(st, symbol);
      // A new watcher sees the current price at once, even while the market is closed and no tick comes.
      let active = true;
      queueMicrotask(() => {
        if (active) onQuote(market.quoteAt(symbol, now()));
      });
      const stop = market.subscribe(symbol, onQuote);
      return () => {
        active = false;
        stop();
      };
    },
    async candles(symbol, timeframe, fromMs, toMs) {
      specOf(st, symbol);
      return market.candles(symbol, timeframe, fromMs, toMs, now());
    },
  };
}
