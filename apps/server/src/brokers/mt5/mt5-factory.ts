import { MT5_MESSAGES } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { BrokerError } from '../types';
import { Mt5BridgeAdapter, type Mt5Credentials } from './mt5-adapter';

/** Trims the three MT5 details; any one missing is the spec's "incomplete" (an invalid-details error, 400). */
export function mt5Credentials(input: {
  account_number?: string | number | null;
  password?: string | null;
  broker_server?: string | null;
}): Mt5Credentials {
  const account_number =
    input.account_number === null || input.account_number === undefined
      ? ''
      : String(input.account_number).trim();
  const password = input.password ?? '';
  const server = (input.broker_server ?? '').trim();
  if (!account_number || !password.trim() || !server)
    throw new BrokerError(MT5_MESSAGES.incomplete, 'invalid');
  return { account_number, password, server };
}

/** The stored details of an MT5 account, the password opened from its sealed form. */
export function storedMt5Credentials(ctx: AppContext, account: TradingAccountsTable): Mt5Credentials {
  let password = '';
  if (account.password_enc) {
    try {
      password = ctx.secrets.open(account.password_enc);
    } catch {
      throw new BrokerError(MT5_MESSAGES.passwordUnreadable, 'rejected');
    }
  }
  return mt5Credentials({
    account_number: account.account_number,
    password,
    broker_server: account.broker_server,
  });
}

/** A bridge adapter for these details, or 502 with a clear detail when no bridge is configured. */
export function newMt5Adapter(ctx: AppContext, credentials: Mt5Credentials): Mt5BridgeAdapter {
  if (!ctx.config.mt5BridgeUrl) throw new BrokerError(MT5_MESSAGES.notConfigured, 'unavailable');
  return new Mt5BridgeAdapter({
    url: ctx.config.mt5BridgeUrl,
    ...(ctx.config.mt5BridgeToken ? { bridgeToken: ctx.config.mt5BridgeToken } : {}),
    credentials,
    log: ctx.log.child({ module: 'mt5', login: credentials.account_number }),
  });
}

/** The registry's factory for MT5 accounts (brokers/registry.ts). */
export function createMt5Adapter({
  ctx,
  account,
}: {
  ctx: AppContext;
  account: TradingAccountsTable;
}): Mt5BridgeAdapter {
  if (!ctx.config.mt5BridgeUrl) throw new BrokerError(MT5_MESSAGES.notConfigured, 'unavailable');
  return newMt5Adapter(ctx, storedMt5Credentials(ctx, account));
}
