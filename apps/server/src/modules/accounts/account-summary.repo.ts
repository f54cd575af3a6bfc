import type { Db } from '../../db';

/** Queries behind the account strip; every one scoped by the owning user. */
export function accountSummaryRepo(db: Db) {
  return {
    /** Money of the account's fills in [fromIso, toIso]: ISO instants compare as text. */
    dealsBetween: (userId: string, accountId: string, fromIso: string, toIso: string) =>
      db
        .selectFrom('trade_deals')
        .select(['profit_minor', 'commission_minor', 'swap_minor'])
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('filled_at', '>=', fromIso)
        .where('filled_at', '<=', toIso)
        .execute(),
    async openTrades(userId: string, accountId: string): Promise<number> {
      const row = await db
        .selectFrom('trades')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('status', '=', 'open')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
