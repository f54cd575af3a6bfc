import type { Db } from '../../db';
import type { AnalysisInstrumentsTable } from '../../db/schema';

export type InstrumentRow = AnalysisInstrumentsTable;

/** Queries on analysis_instruments, every one scoped by the owning user. */
export function instrumentsRepo(db: Db) {
  return {
    list: (userId: string) =>
      db
        .selectFrom('analysis_instruments')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('symbol')
        .execute(),
    byId: (userId: string, id: string) =>
      db
        .selectFrom('analysis_instruments')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    bySymbol: (userId: string, symbol: string) =>
      db
        .selectFrom('analysis_instruments')
        .selectAll()
        .where('user_id', '=', userId)
        .where('symbol', '=', symbol)
        .executeTakeFirst(),
    /** false when the user already has the symbol (the unique key decides, not a prior read). */
    async insert(row: InstrumentRow): Promise<boolean> {
      const r = await db
        .insertInto('analysis_instruments')
        .values(row)
        .onConflict((oc) => oc.columns(['user_id', 'symbol']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    update: (userId: string, id: string, set: Partial<InstrumentRow>) =>
      db
        .updateTable('analysis_instruments')
        .set(set)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .execute(),
  };
}
