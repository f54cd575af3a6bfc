/** Bars for a backtest: the account's prices from the candle store, plus the symbol's trading facts. */
import { TIMEFRAME_MS, type CandleTimeframe } from '@tradedesk/domain';
import type { SymbolInfo } from '../../brokers/types';
import { brokerRegistry } from '../../brokers/registry';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { unprocessable } from '../../lib/http-error';
import { candleStore } from '../../market/candle-store';
import { simLatencyBids } from '../../brokers/sim/latency-prices';
import type { SandboxBars } from '../../sandbox/protocol';

export interface BacktestMarket {
  bars: SandboxBars;
  barMs: number;
  symbol: SymbolInfo;
  /** Value in the account currency of one unit of the quote currency, at the window's end. */
  quoteToAccountRate: number;
}

export async function loadBacktestMarket(
  ctx: AppContext,
  account: TradingAccountsTable,
  symbol: string,
  timeframe: Exclude<CandleTimeframe, 'MN1'>,
  fromMs: number,
  toMs: number,
  accountCurrency: string,
  /** The config's slippage_ms: on SIM bars the fill price that long after each open is read exactly. */
  slippageMs = 0,
): Promise<BacktestMarket> {
  const brokers = brokerRegistry(ctx);
  const series = await candleStore(ctx).series({
    userId: account.user_id,
    accountId: account.id,
    symbol,
    timeframe,
    fromMs,
    toMs,
  });
  if (series.close.length < 2) throw unprocessable(`No ${symbol} ${timeframe} candles in the data window.`);
  const info = await brokers.use(account, (adapter) => adapter.symbolInfo(symbol));
  const q = info.quote_currency.toUpperCase();
  const a = accountCurrency.toUpperCase();
  let rate = 1;
  if (q !== a) {
    if (account.platform !== 'SIM')
      throw unprocessable(
        `Backtests in ${a} of a symbol quoted in ${q} need the simulator's exchange rates (SIM accounts).`,
      );
    rate = brokers.sim.market.convert(1, q, a, Math.min(toMs, brokers.sim.now()));
  }
  const { time, open, high, low, close, volume } = series;
  const barMs = TIMEFRAME_MS[timeframe];
  // The simulator prices any instant, so a SIM backtest fills at the exact price slippage_ms after the
  // open; other sources' bars leave it to the engine's interpolation. With 0 ms the price is the open.
  const latencyBid =
    account.platform === 'SIM' && slippageMs > 0
      ? simLatencyBids(brokers.sim.market, info.symbol, time, barMs, slippageMs)
      : null;
  return {
    bars: { time, open, high, low, close, volume, latencyBid },
    barMs,
    symbol: info,
    quoteToAccountRate: rate,
  };
}
