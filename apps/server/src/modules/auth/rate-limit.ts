import { sql } from 'kysely';
import type { Db } from '../../db';

const WINDOW_MS = 60_000;

/**
 * Login attempts in fixed one-minute windows, per client IP and username together and per IP alone:
 * a guesser gets `perPair` tries at one account from one address, and `perIp` across usernames.
 * An attempt is reserved in the database BEFORE its password is checked (one atomic upsert per key),
 * so requests in flight count too, and the limit holds across processes sharing one PostgreSQL.
 * A successful login gives its reservation back, so people behind one address do not lock each other out.
 */
export function createLoginLimiter(
  db: Db,
  perPair: number,
  perIp = perPair * 5,
  now: () => number = Date.now,
) {
  let calls = 0;
  const keys = (ip: string, username: string) =>
    [
      [`pair:${ip}|${username.toLowerCase()}`, perPair],
      [`ip:${ip}`, perIp],
    ] as const;

  async function bump(key: string, t: number): Promise<{ count: number; windowStart: number }> {
    const expired = t - WINDOW_MS;
    const row = await db
      .insertInto('login_attempts')
      .values({ key, window_start: t, count: 1 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when login_attempts.window_start <= ${expired} then 1 else login_attempts.count + 1 end`,
          window_start: sql<number>`case when login_attempts.window_start <= ${expired} then ${t} else login_attempts.window_start end`,
        }),
      )
      .returning(['count', 'window_start'])
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), windowStart: Number(row.window_start) };
  }

  return {
    /**
     * Reserves one attempt. Answers the seconds to wait when the attempt is over a limit (it must then
     * be refused without checking the password), or 0 when it may go ahead.
     */
    async reserve(ip: string, username: string): Promise<number> {
      const t = now();
      if (++calls % 500 === 0)
        await db
          .deleteFrom('login_attempts')
          .where('window_start', '<=', t - WINDOW_MS)
          .execute();
      let wait = 0;
      for (const [key, limit] of keys(ip, username)) {
        const { count, windowStart } = await bump(key, t);
        if (count > limit) wait = Math.max(wait, Math.ceil((windowStart + WINDOW_MS - t) / 1000), 1);
      }
      return wait;
    },
    /** A successful login does not count against the limit. */
    async release(ip: string, username: string): Promise<void> {
      await db
        .updateTable('login_attempts')
        .set({ count: sql<number>`count - 1` })
        .where(
          'key',
          'in',
          keys(ip, username).map(([k]) => k),
        )
        .where('count', '>', 0)
        .execute();
    },
  };
}
