import type { Db } from '../../db';
import type { TradingAccountsTable } from '../../db/schema';

/** Queries of trading accounts; every one scoped by the owning user. */
export function accountsRepo(db: Db) {
  return {
    listFor: (userId: string) =>
      db
        .selectFrom('trading_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('name')
        .execute(),
    byIdFor: (userId: string, id: string) =>
      db
        .selectFrom('trading_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
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
