import type { Db } from '../../db';
import type { TradeDealsTable, TradesTable } from '../../db/schema';

type Tx = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable'>;

/** Queries of the statement import; every one scoped by the account (whose owner the service checked). */
export function statementImportRepo(db: Tx) {
  return {
    /** Trades of the account holding these positions, by position id. */
    async tradesByPosition(accountId: string, positionIds: string[]): Promise<Map<string, TradesTable>> {
      const out = new Map<string, TradesTable>();
      for (let i = 0; i < positionIds.length; i += 500) {
        const rows = await db
          .selectFrom('trades')
          .selectAll()
          .where('account_id', '=', accountId)
          .where('position_id', 'in', positionIds.slice(i, i + 500))
          .execute();
        for (const r of rows) if (r.position_id) out.set(r.position_id, r);
      }
      return out;
    },
    /** Which of these broker deal ids the account already has. */
    async knownDealIds(accountId: string, dealIds: string[]): Promise<Set<string>> {
      const known = new Set<string>();
      for (let i = 0; i < dealIds.length; i += 500) {
        const rows = await db
          .selectFrom('trade_deals')
          .select('broker_deal_id')
          .where('account_id', '=', accountId)
          .where('broker_deal_id', 'in', dealIds.slice(i, i + 500))
          .execute();
        for (const r of rows) known.add(r.broker_deal_id);
      }
      return known;
    },
    /** Inserts a trade unless its client order id is taken (a concurrent import); returns the stored row. */
    async insertTrade(row: TradesTable): Promise<TradesTable> {
      await db
        .insertInto('trades')
        .values(row)
        .onConflict((oc) => oc.columns(['account_id', 'client_order_id']).doNothing())
        .execute();
      return db
        .selectFrom('trades')
        .selectAll()
        .where('account_id', '=', row.account_id)
        .where('client_order_id', '=', row.client_order_id)
        .executeTakeFirstOrThrow();
    },
    /** Inserts deals the account does not have yet (the broker's deal id is unique per account). */
    async insertDeals(rows: TradeDealsTable[]): Promise<number> {
      let n = 0;
      for (const row of rows) {
        const res = await db
          .insertInto('trade_deals')
          .values(row)
          .onConflict((oc) => oc.columns(['account_id', 'broker_deal_id']).doNothing())
          .executeTakeFirst();
        n += Number(res.numInsertedOrUpdatedRows ?? 0n);
      }
      return n;
    },
    dealsOf: (tradeId: string) =>
      db
        .selectFrom('trade_deals')
        .select(['entry', 'filled_at', 'profit_minor', 'commission_minor', 'swap_minor'])
        .where('trade_id', '=', tradeId)
        .execute(),
    async updateClosed(
      tradeId: string,
      set: Pick<TradesTable, 'actual_pl_minor' | 'closed_at' | 'updated_at'>,
    ) {
      await db.updateTable('trades').set(set).where('id', '=', tradeId).execute();
    },
  };
}
