import type { Db } from '../../db';
import type { WinRateScenariosTable } from '../../db/schema';

export function scenariosRepo(db: Db) {
  return {
    listByUser: (userId: string) =>
      db
        .selectFrom('win_rate_scenarios')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('name_key')
        .execute(),
    byNameKey: (userId: string, nameKey: string) =>
      db
        .selectFrom('win_rate_scenarios')
        .selectAll()
        .where('user_id', '=', userId)
        .where('name_key', '=', nameKey)
        .executeTakeFirst(),
    insert: (row: WinRateScenariosTable) => db.insertInto('win_rate_scenarios').values(row).execute(),
    update: (
      userId: string,
      id: string,
      values: Pick<WinRateScenariosTable, 'name' | 'inputs' | 'updated_at'>,
    ) =>
      db
        .updateTable('win_rate_scenarios')
        .set(values)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .execute(),
  };
}
