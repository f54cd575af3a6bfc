import {
  MT5_MESSAGES,
  type Mt5AccountInfo,
  type Mt5ConnectRequest,
  type Mt5ConnectResponse,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { ACCOUNT_NOT_FOUND } from '../accounts/accounts.repo';
import { brokerRegistry } from '../../brokers/registry';
import { knownErrorToHttp } from '../../lib/error-status';
import { Mt5BridgeAdapter, type Mt5AccountInfo as AdapterAccount } from '../../brokers/mt5/mt5-adapter';
import { mt5Credentials, newMt5Adapter, storedMt5Credentials } from '../../brokers/mt5/mt5-factory';
import type { BrokerAdapter, ConnectionState } from '../../brokers/types';
import type { TradingAccountsTable } from '../../db/schema';
import { badGateway, notFound } from '../../lib/http-error';
import type { AuthUser } from '../../request-context';
import { mt5Repo } from './mt5.repo';

const toInfo = (a: AdapterAccount, accountId: string | null, state: ConnectionState): Mt5AccountInfo => ({
  account_id: accountId,
  login: a.login,
  server: a.server,
  name: a.name,
  company: a.company,
  currency: a.currency,
  leverage: a.leverage,
  balance: a.balance,
  equity: a.equity,
  margin: a.margin,
  free_margin: a.free_margin,
  margin_level: a.margin_level,
  trade_mode: a.trade_mode,
  margin_mode: a.margin_mode,
  connection_state: state,
});

async function mt5Account(adapter: BrokerAdapter): Promise<AdapterAccount> {
  if (!(adapter instanceof Mt5BridgeAdapter)) throw badGateway(MT5_MESSAGES.detailsFailed);
  return adapter.account();
}

export function mt5Service(ctx: AppContext) {
  const repo = mt5Repo(ctx.db);
  const brokers = () => brokerRegistry(ctx);

  async function owned(user: AuthUser, id: string): Promise<TradingAccountsTable> {
    const row = await repo.ownedMt5(user.id, id);
    if (!row) throw notFound(ACCOUNT_NOT_FOUND);
    return row;
  }

  /** Account info through the registry's long-lived connection of a stored account. */
  async function storedInfo(row: TradingAccountsTable): Promise<Mt5AccountInfo> {
    // Incomplete stored details answer the spec's 400 before any bridge is involved.
    storedMt5Credentials(ctx, row);
    const info = await brokers().use(row, mt5Account);
    return toInfo(info, row.id, brokers().state(row.id));
  }

  return {
    async connect(user: AuthUser, body: Mt5ConnectRequest): Promise<Mt5ConnectResponse> {
      const accountId = body.account_id?.trim();
      if (accountId) {
        const row = await owned(user, accountId);
        ctx.log.info({ account: row.id, user: user.id }, 'mt5 connect with stored details');
        return { ...(await storedInfo(row)), message: MT5_MESSAGES.connected };
      }
      const credentials = mt5Credentials(body);
      // A one-off check of details that are not stored: log in, read the account, log out.
      const adapter = newMt5Adapter(ctx, credentials);
      ctx.log.info(
        { login: credentials.account_number, server: credentials.server, user: user.id },
        'mt5 connect with entered details',
      );
      try {
        await adapter.connect();
        const info = await adapter.account();
        return { ...toInfo(info, null, 'connected'), message: MT5_MESSAGES.connected };
      } catch (e) {
        throw knownErrorToHttp(e) ?? e;
      } finally {
        await adapter.disconnect();
      }
    },

    async account(user: AuthUser, id: string): Promise<Mt5AccountInfo> {
      return storedInfo(await owned(user, id));
    },
  };
}
