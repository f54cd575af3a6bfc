import type { PlanFacts, RiskSettings } from '@tradedesk/domain';
import { profitPlanOf } from '@tradedesk/domain';
import type { TradeExecuteRequest } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import type { AccountInfo, BrokerAdapter, SymbolInfo } from '../../brokers/types';
import type { TradingAccountsTable } from '../../db/schema';
import { roundToDigits } from '@tradedesk/domain';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { tradeSync } from '../trade-sync/trade-sync';
import { quoteToAccount } from './conversion';
import { atrOf, parseTimeframe, resolveSymbol } from './indicator';
import { riskSettingsOf } from './risk-check';

/** Everything the server knows when it plans a request: never taken from the client. */
export interface ExecutionFacts {
  account: TradingAccountsTable;
  adapter: BrokerAdapter;
  symbol: SymbolInfo;
  info: AccountInfo;
  settings: RiskSettings;
  /** The broker's clock (the simulator's for a SIM account). */
  nowMs: number;
  plan: PlanFacts;
}

/** Loads the account, its broker, the symbol, the price, the conversion and the risk settings. */
export async function loadFacts(
  ctx: AppContext,
  user: AuthUser,
  body: TradeExecuteRequest,
): Promise<ExecutionFacts> {
  const account = await accountsRepo(ctx.db).ownedOr404(user.id, body.account_id);
  const adapter = await tradeSync(ctx).attach(account);
  const [symbol, info, settings] = await Promise.all([
    resolveSymbol(adapter, body.symbol),
    adapter.accountInfo(),
    riskSettingsOf(ctx.db, user, account.id),
  ]);
  const quote = await adapter.quote(symbol.symbol);
  const nowMs = account.platform === 'SIM' ? brokerRegistry(ctx).sim.now() : Date.now();
  const entry =
    body.order_type === 'LIMIT' && typeof body.limit_price === 'number'
      ? roundToDigits(body.limit_price, symbol.digits)
      : body.direction === 'BUY'
        ? quote.ask
        : quote.bid;
  const profit = profitPlanOf(body);
  const needsAtr = profit.mode === 'multi' && profit.targets.some((t) => t.tp_type === 'ATR');
  const atr = needsAtr
    ? await atrOf(adapter, symbol.symbol, parseTimeframe(body.timeframe) ?? 'M15', nowMs)
    : null;
  return {
    account,
    adapter,
    symbol,
    info,
    settings,
    nowMs,
    plan: {
      entry,
      symbol,
      account: {
        equity: info.equity,
        currency: info.currency,
        max_lot_size: settings.max_lot_size ?? null,
        leverage: info.leverage,
        free_margin: info.free_margin,
      },
      quoteToAccountRate: await quoteToAccount(adapter, symbol, info.currency, quote),
      atr,
    },
  };
}
