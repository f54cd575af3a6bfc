import type { Db } from '../../db';
import type { ProfitProfilesTable } from '../../db/schema';

export function profitProfilesRepo(db: Db) {
  return {
    listByUser: (userId: string) =>
      db
        .selectFrom('profit_profiles')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('is_default', 'desc')
        .orderBy('name_key')
        .execute(),
    byId: (userId: string, id: string) =>
      db
        .selectFrom('profit_profiles')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    byNameKey: (userId: string, nameKey: string) =>
      db
        .selectFrom('profit_profiles')
        .select('id')
        .where('user_id', '=', userId)
        .where('name_key', '=', nameKey)
        .executeTakeFirst(),
    /** Inserts a profile; a new default first clears the user's other defaults, in one transaction. */
    insert: (row: ProfitProfilesTable) =>
      db.transaction().execute(async (trx) => {
        if (row.is_default === 1) {
          await trx
            .updateTable('profit_profiles')
            .set({ is_default: 0, updated_at: row.updated_at })
            .where('user_id', '=', row.user_id)
            .where('is_default', '=', 1)
            .execute();
        }
        await trx.insertInto('profit_profiles').values(row).execute();
      }),
  };
}
