import type { Db } from '../../db';

export function mt5Repo(db: Db) {
  return {
    /** The caller's own MT5 account; anything else (another user's, another platform) is not found. */
    ownedMt5: (userId: string, id: string) =>
      db
        .selectFrom('trading_accounts')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .where('platform', '=', 'MT5')
        .executeTakeFirst(),
  };
}
