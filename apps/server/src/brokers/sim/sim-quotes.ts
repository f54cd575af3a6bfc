import type { BrokerAdapter } from '../types';
import { toSymbolInfo } from './sim-mapping';
import { specOf, type SimState } from './sim-state';

/** Symbols, quotes and candles of the SIM broker, straight from the simulated market. */
type QuoteMethods = Pick<
  BrokerAdapter,
  'symbols' | 'symbolInfo' | 'quote' | 'subscribeQuotes' | 'candles' | 'marketSession'
>;

/** setTimeout's ceiling (about 24.8 days); a longer wait is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
      // No tick comes while closed, so the close itself is announced with one more (the last) quote:
      // a watcher learns the market closed at that moment instead of guessing from silence.
      let closeTimer: NodeJS.Timeout | undefined;
      const armClose = () => {
        const { nextClose } = market.session(symbol, now());
        if (nextClose === null || !active) return;
        closeTimer = setTimeout(
          () => {
            closeTimer = undefined;
            if (!active) return;
            if (!market.isOpen(symbol, now())) onQuote(market.quoteAt(symbol, now()));
            armClose();
          },
          Math.min(MAX_TIMER_MS, Math.max(0, nextClose - now()) + 5),
        );
        closeTimer.unref?.();
      };
      armClose();
      const stop = market.subscribe(symbol, (q) => {
        // The first tick after a reopening arms the timer for the next close.
        if (!closeTimer) armClose();
        onQuote(q);
      });
      return () => {
        active = false;
        clearTimeout(closeTimer);
        stop();
      };
    },
    marketSession(symbol) {
      specOf(st, symbol);
      return market.session(symbol, now());
    },
    async candles(symbol, timeframe, fromMs, toMs) {
      specOf(st, symbol);
      return market.candles(symbol, timeframe, fromMs, toMs, now());
    },
  };
}
