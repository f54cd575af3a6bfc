import type { SimMarket } from './market-types';

/**
 * The bid `latencyMs` after each bar opens, read from the simulated market's own price path: the
 * exact price a market order sent at the bar's open fills at, for backtests on SIM bars
 * (`BacktestBars.latencyBid`). The bar opens at its first open instant (a bar that starts while the
 * market is closed opens when it reopens, as the SIM candles do); a latency longer than the bar is
 * capped at the bar's last instant, as the interpolation of imported bars caps it at the close.
 */
export function simLatencyBids(
  market: SimMarket,
  symbol: string,
  time: Float64Array,
  barMs: number,
  latencyMs: number,
): Float64Array {
  const at = new Float64Array(time.length);
  const lag = Math.max(0, latencyMs);
  for (let i = 0; i < time.length; i++) {
    const t = time[i]!;
    const opensAt = market.isOpen(symbol, t) ? t : (market.session(symbol, t).nextOpen ?? t);
    at[i] = Math.min(opensAt + lag, t + barMs - 1);
  }
  if (market.bidsAt) return market.bidsAt(symbol, at);
  return at.map((t) => market.quoteAt(symbol, t).bid);
}
