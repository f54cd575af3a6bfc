import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Users created before the simulated broker existed get the same "Demo" account (10,000 USD, 1:100)
 * that every new user gets, so that the whole app works offline for them too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const users = await sql<{ id: string }>`
    select u.id from users u
    where not exists (select 1 from trading_accounts a where a.user_id = u.id and a.platform = 'SIM')
  `.execute(db);
  const now = new Date().toISOString();
  for (const { id: userId } of users.rows) {
    const accountId = randomUUID();
    await sql`
      insert into trading_accounts
        (id, user_id, name, broker, platform, username, currency, leverage, meta, created_at, updated_at)
      values (${accountId}, ${userId}, 'Demo', 'TradeDesk Simulator', 'SIM', '', 'USD', 100, '{}', ${now}, ${now})
    `.execute(db);
    await sql`
      insert into sim_accounts (account_id, user_id, balance_minor, created_at, updated_at)
      values (${accountId}, ${userId}, 1000000, ${now}, ${now})
    `.execute(db);
    await sql`
      insert into sim_balance_history (id, account_id, user_id, time, delta_minor, balance_minor, reason, deal_id)
      values (${randomUUID()}, ${accountId}, ${userId}, ${now}, 1000000, 1000000, 'DEPOSIT', null)
    `.execute(db);
  }
}

export async function down(): Promise<void> {
  // The Demo accounts are user data from here on; rolling back 0003 removes their ledgers.
}
