import { currencyDecimals } from '@tradedesk/domain';
import {
  ACCOUNT_MESSAGES,
  type AccountCreate,
  type AccountDetails,
  type AccountUpdate,
  type Mt5AccountDetails,
  type TradingAccount,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { brokerRegistry } from '../../brokers/registry';
import { openSimLedger } from '../../brokers/sim/sim-store';
import { badRequest, notFound } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from './accounts.repo';

export const SIM_DEFAULTS = {
  currency: 'USD',
  balance: 10_000,
  leverage: 100,
  broker: 'TradeDesk Simulator',
} as const;

export const toAccount = (r: TradingAccountsTable): TradingAccount => ({
  id: r.id,
  name: r.name,
  broker: r.broker,
  platform: r.platform,
  username: r.username,
  account_number: r.account_number,
  broker_server: r.broker_server,
  currency: r.currency,
  leverage: Number(r.leverage),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

const text = (v: string | number | null | undefined): string =>
  v === null || v === undefined ? '' : String(v).trim();
const nameRequired = () => badRequest({ name: [ACCOUNT_MESSAGES.nameRequired] });

export function accountsService(ctx: AppContext) {
  const repo = accountsRepo(ctx.db);
  const brokers = () => brokerRegistry(ctx);

  const owned = (user: AuthUser, id: string): Promise<TradingAccountsTable> => repo.ownedOr404(user.id, id);

  /** A currency the simulator can price against USD (its cross rates are the only source). */
  function simCurrency(raw: string | null | undefined): string {
    const c = text(raw).toUpperCase() || SIM_DEFAULTS.currency;
    if (!/^[A-Z]{3}$/.test(c)) throw badRequest({ currency: [ACCOUNT_MESSAGES.unknownCurrency] });
    if (c === 'USD') return c;
    const { market, now } = brokers().sim;
    try {
      const v = market.convert(1, c, 'USD', now());
      if (Number.isFinite(v) && v > 0) return c;
    } catch {
      // fall through to the refusal
    }
    throw badRequest({ currency: [ACCOUNT_MESSAGES.unknownCurrency] });
  }

  async function createSim(
    userId: string,
    name: string,
    opts: { currency?: string | null; balance?: number | null; leverage?: number | null },
  ): Promise<TradingAccountsTable> {
    const currency = simCurrency(opts.currency);
    const balance = opts.balance ?? SIM_DEFAULTS.balance;
    const time = nowIso();
    const row: TradingAccountsTable = {
      id: newId(),
      user_id: userId,
      name,
      broker: SIM_DEFAULTS.broker,
      platform: 'SIM',
      username: '',
      password_enc: null,
      account_number: null,
      broker_server: null,
      currency,
      leverage: opts.leverage ?? SIM_DEFAULTS.leverage,
      meta: '{}',
      created_at: time,
      updated_at: time,
    };
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('trading_accounts').values(row).execute();
      await openSimLedger(trx, row.id, userId, Math.round(balance * 10 ** currencyDecimals(currency)), time);
    });
    return row;
  }

  return {
    /** Every new user gets one simulated account, so the whole app works offline. */
    async createDefaultSim(userId: string): Promise<void> {
      await createSim(userId, ACCOUNT_MESSAGES.defaultSimName, {});
    },

    async list(user: AuthUser): Promise<TradingAccount[]> {
      return (await repo.listFor(user.id)).map(toAccount);
    },

    async get(user: AuthUser, id: string): Promise<TradingAccount> {
      return toAccount(await owned(user, id));
    },

    /** The owned row, for other modules that talk to the account's broker. */
    owned,

    async details(user: AuthUser, id: string): Promise<AccountDetails> {
      const row = await owned(user, id);
      const info = await brokers().use(row, (a) => a.accountInfo());
      return { id: row.id, ...info, connection_state: brokers().state(row.id) };
    },

    async create(user: AuthUser, body: AccountCreate): Promise<TradingAccount> {
      const name = text(body.name);
      if (!name) throw nameRequired();
      if (body.platform === 'SIM') return toAccount(await createSim(user.id, name, body));
      const password = body.password ?? '';
      const accountNumber = text(body.account_number);
      const server = text(body.broker_server);
      if (body.platform === 'MT5' && (!accountNumber || !password || !server)) {
        throw badRequest(ACCOUNT_MESSAGES.mt5Incomplete);
      }
      const time = nowIso();
      const row: TradingAccountsTable = {
        id: newId(),
        user_id: user.id,
        name,
        broker: text(body.broker),
        platform: body.platform,
        username: text(body.username),
        password_enc: password ? ctx.secrets.seal(password) : null,
        account_number: accountNumber || null,
        broker_server: server || null,
        currency: text(body.currency).toUpperCase() || SIM_DEFAULTS.currency,
        leverage: body.leverage ?? SIM_DEFAULTS.leverage,
        meta: '{}',
        created_at: time,
        updated_at: time,
      };
      await repo.insert(row);
      return toAccount(row);
    },

    async update(user: AuthUser, id: string, body: AccountUpdate): Promise<TradingAccount> {
      const row = await owned(user, id);
      const set: Partial<TradingAccountsTable> = {};
      if (body.name !== undefined) {
        const name = text(body.name);
        if (!name) throw nameRequired();
        set.name = name;
      }
      if (body.broker !== undefined) set.broker = text(body.broker);
      if (body.username !== undefined) set.username = text(body.username);
      // A blank password keeps the stored one (the form never shows it, so it comes back empty).
      if (body.password) set.password_enc = ctx.secrets.seal(body.password);
      if (body.account_number !== undefined) set.account_number = text(body.account_number) || null;
      if (body.broker_server !== undefined) set.broker_server = text(body.broker_server) || null;
      set.updated_at = nowIso();
      await repo.update(user.id, id, set);
      const credentialsChanged =
        set.password_enc !== undefined ||
        (set.username !== undefined && set.username !== row.username) ||
        (set.account_number !== undefined && set.account_number !== row.account_number) ||
        (set.broker_server !== undefined && set.broker_server !== row.broker_server);
      // The next request reconnects with the new credentials.
      if (credentialsChanged && row.platform !== 'SIM') await brokers().evict(id);
      return toAccount({ ...row, ...set });
    },

    async remove(user: AuthUser, id: string): Promise<void> {
      await owned(user, id);
      await brokers().evict(id);
      await ctx.db.transaction().execute(async (trx) => {
        for (const table of [
          'sim_deals',
          'sim_positions',
          'sim_orders',
          'sim_balance_history',
          'sim_accounts',
        ] as const) {
          await trx.deleteFrom(table).where('account_id', '=', id).where('user_id', '=', user.id).execute();
        }
        await trx
          .deleteFrom('trading_accounts')
          .where('id', '=', id)
          .where('user_id', '=', user.id)
          .execute();
      });
    },

    async mt5(user: AuthUser, id: string): Promise<Mt5AccountDetails> {
      const row = await owned(user, id);
      if (row.platform !== 'MT5') throw notFound(ACCOUNT_MESSAGES.notMt5);
      return { account_number: row.account_number, broker_server: row.broker_server, username: row.username };
    },
  };
}
