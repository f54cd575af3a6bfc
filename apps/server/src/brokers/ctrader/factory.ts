import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { CTRADER_MESSAGES } from '@tradedesk/contract';
import { BrokerError, type BrokerAdapter } from '../types';
import { CTraderAdapter } from './adapter';
import { ctraderConfigured, ctraderTokens, openApiUrl, readMeta } from './tokens';

/** The registry's factory for cTrader accounts (brokers/registry.ts). */
export function createCTraderBroker(ctx: AppContext, account: TradingAccountsTable): BrokerAdapter {
  if (!ctraderConfigured(ctx.config)) throw new BrokerError(CTRADER_MESSAGES.notConfigured);
  const { ct } = readMeta(account);
  if (!ct.ctid_trader_account_id || !ct.access_token_enc) throw new BrokerError(CTRADER_MESSAGES.notBound);
  const tokens = ctraderTokens(ctx);
  return new CTraderAdapter({
    url: openApiUrl(ctx.config, ct.is_live),
    clientId: ctx.config.ctrader.clientId,
    clientSecret: ctx.config.ctrader.clientSecret,
    ctidTraderAccountId: ct.ctid_trader_account_id,
    accessToken: () => tokens.accessToken(account.id),
    log: ctx.log,
  });
}
