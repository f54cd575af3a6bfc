import type { Db } from '../../db';

/** The `user_settings` row of one user (migration 0098); every query is scoped by the user's id. */
export function userSettingsRepo(db: Db) {
  return {
    timeZone: async (userId: string): Promise<string | null> =>
      (
        await db
          .selectFrom('user_settings')
          .select('time_zone')
          .where('user_id', '=', userId)
          .executeTakeFirst()
      )?.time_zone ?? null,
    /** Written on the first change; one statement, so two racing saves cannot both insert. */
    setTimeZone: (userId: string, timeZone: string | null, at: string) =>
      db
        .insertInto('user_settings')
        .values({ user_id: userId, time_zone: timeZone, updated_at: at })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ time_zone: timeZone, updated_at: at }))
        .execute(),
  };
}
