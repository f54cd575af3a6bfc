import { sql } from 'kysely';
import type { Db } from '../db';
import type { CandleChunksTable } from '../db/schema';

/** Which chunks: a source of one owner (null for the shared simulator), a symbol and a timeframe. */
export interface ChunkSeries {
  source: string;
  userId: string | null;
  symbol: string;
  timeframe: string;
}

/** Queries of the candle store; every one scoped by the source's owner. */
export function candleRepo(db: Db) {
  return {
    /** The stored span [from, to) of a series (e.g. what a user imported), or undefined when none is. */
    async span(key: ChunkSeries): Promise<{ from: number; to: number } | undefined> {
      const r = await db
        .selectFrom('candle_chunks')
        .select((eb) => [eb.fn.min('covered_from').as('from'), eb.fn.max('covered_to').as('to')])
        .where('source', '=', key.source)
        .where('symbol', '=', key.symbol)
        .where('timeframe', '=', key.timeframe)
        .where('bar_count', '>', 0)
        .executeTakeFirst();
      return r && r.from !== null && r.to !== null ? { from: Number(r.from), to: Number(r.to) } : undefined;
    },
    /** The chunks of months [monthFrom, monthTo] ('YYYY-MM', inclusive), oldest first. */
    chunks(key: ChunkSeries, monthFrom: string, monthTo: string): Promise<CandleChunksTable[]> {
      let q = db
        .selectFrom('candle_chunks')
        .selectAll()
        .where('source', '=', key.source)
        .where('symbol', '=', key.symbol)
        .where('timeframe', '=', key.timeframe)
        .where('month', '>=', monthFrom)
        .where('month', '<=', monthTo);
      q = key.userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', key.userId);
      return q.orderBy('month').execute();
    },
    /**
     * Writes a month's chunk, replacing the one stored. Each replacement counts one more `version`,
     * which stored measures (the reports' MFE/MAE) name to know they were taken on these bars.
     */
    async put(row: CandleChunksTable): Promise<void> {
      const { user_id, account_id, bar_count, covered_from, covered_to, data, updated_at } = row;
      const changes = {
        user_id,
        account_id,
        bar_count,
        covered_from,
        covered_to,
        data,
        updated_at,
        version: sql<number>`candle_chunks.version + 1`,
      };
      await db
        .insertInto('candle_chunks')
        .values({ ...row, version: 1 })
        .onConflict((oc) => oc.columns(['source', 'symbol', 'timeframe', 'month']).doUpdateSet(changes))
        .execute();
    },
  };
}
