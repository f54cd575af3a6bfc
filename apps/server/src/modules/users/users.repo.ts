import type { Db } from '../../db';
import type { UsersTable } from '../../db/schema';

export function usersRepo(db: Db) {
  return {
    byUsername: (username: string) =>
      db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst(),
    byId: (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    insert: (row: UsersTable) => db.insertInto('users').values(row).execute(),
  };
}
