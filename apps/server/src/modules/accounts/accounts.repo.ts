import type { Db } from '../../db';
import type { TradingAccountsTable } from '../../db/schema';
import { notFound } from '../../lib/http-error';

/** The one answer for an account that is not the caller's (or does not exist): nothing tells them apart. */
export const ACCOUNT_NOT_FOUND = 'Account not found.';

/** Queries of trading accounts; every one scoped by the owning user. */
export function accountsRepo(db: Db) {
  const byIdFor = (userId: string, id: string) =>
    db
      .selectFrom('trading_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  return {
    listFor: (userId: string) =>
      db
        .selectFrom('trading_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('name')
        .execute(),
    byIdFor,
    /** The one ownership check: the user's account, or 404 ACCOUNT_NOT_FOUND (another user's account answers the same). */
    async ownedOr404(userId: string, id: string): Promise<TradingAccountsTable> {
      const row = await byIdFor(userId, id);
      if (!row) throw notFound(ACCOUNT_NOT_FOUND);
      return row;
    },
    insert: (row: TradingAccountsTable) => db.insertInto('trading_accounts').values(row).execute(),
    update: (userId: string, id: string, set: Partial<TradingAccountsTable>) =>
      db
        .updateTable('trading_accounts')
        .set(set)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .execute(),
    delete: (userId: string, id: string) =>
      db.deleteFrom('trading_accounts').where('user_id', '=', userId).where('id', '=', id).execute(),
    /** Boot-time lookup of accounts whose sim checker must run; the ids come from our own tables. */
    byIds: (ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db.selectFrom('trading_accounts').selectAll().where('id', 'in', ids).execute(),
  };
}
