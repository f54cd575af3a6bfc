import type { Db } from '../../db';
import type { UsersTable } from '../../db/schema';

/** The unique, case-insensitive form of a username (migration 0060). */
export const usernameKey = (username: string) => username.trim().toLowerCase();

export function usersRepo(db: Db) {
  return {
    /**
     * Case-insensitive; an exact spelling wins, so that accounts kept apart by migration 0060 (names
     * that differed only in case) still sign in with their own spelling.
     */
    async byUsername(username: string) {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb.or([eb('username_key', '=', usernameKey(username)), eb('username', '=', username)]))
        .limit(2)
        .execute();
      return rows.find((r) => r.username === username) ?? rows[0];
    },
    byId: (id: string) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    insert: (row: UsersTable, d: Db = db) => d.insertInto('users').values(row).execute(),
    /** Claims the one-time first-user marker; throws a unique violation when it is already taken. */
    claimBootstrap: (userId: string, d: Db = db) =>
      d
        .insertInto('bootstrap_marker')
        .values({ id: 'first_user', user_id: userId, created_at: new Date().toISOString() })
        .execute(),
    bootstrapDone: async () =>
      (await db.selectFrom('bootstrap_marker').select('id').executeTakeFirst()) !== undefined,
  };
}
