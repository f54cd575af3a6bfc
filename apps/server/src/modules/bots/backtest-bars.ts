/** Bars for a backtest: the account's prices from the candle store, plus the symbol's trading facts. */
import { TIMEFRAME_MS, type CandleTimeframe } from '@tradedesk/domain';
import type { SymbolInfo } from '../../brokers/types';
import { brokerRegistry } from '../../brokers/registry';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { unprocessable } from '../../lib/http-error';
import { candleStore } from '../../market/candle-store';
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
  return {
    bars: { time, open, high, low, close, volume },
    barMs: TIMEFRAME_MS[timeframe],
    symbol: info,
    quoteToAccountRate: rate,
  };
}
