import { sql } from 'kysely';
import type { Db } from '../../db';

export interface ReportFilter {
  userId: string;
  accountIds: string[];
  /** Inclusive lower bound of closed_at (ISO). */
  from?: string;
  /** Exclusive upper bound of closed_at (ISO). */
  toExclusive?: string;
  instrument?: string;
  /**
   * Only trades with a journal entry whose strategy tag contains this text, ignoring ASCII case: a
   * cheap superset of "tagged with it" for the tag filter, which the caller then applies exactly.
   */
  tagContains?: string;
}

/** What MFE/MAE needs beyond the report row: where the trade's prices come from and its stop. */
export interface TradePriceRow {
  account_id: string;
  entry_price: number | null;
  /** Entry to the initial stop: the distance filed at the fill, else entry to the stop held. */
  stop_distance: number | null;
}

/** Separators of the packed text: fields by unit separators, rows by record separators. */
export const FS = '\u001f';
export const RS = '\u001e';
/** Fields of one packed closed trade (see `closedTrades`). */
export const TRADE_FIELDS = 10;
/** Fields of one packed journal entry (see `journals`). */
export const JOURNAL_FIELDS = 6;

/**
 * Reads of the reports: closed trades in a range of closing dates and their journal entries, packed
 * (reports.model.ts reads them), their prices, and stored M1 candles.
 */
export function reportsRepo(db: Db) {
  function closed(f: ReportFilter) {
    let q = db
      .selectFrom('trades')
      .where('trades.account_id', 'in', f.accountIds)
      .where('trades.status', '=', 'closed')
      .where('trades.user_id', '=', f.userId)
      .where('trades.closed_at', 'is not', null)
      .where('trades.actual_pl_minor', 'is not', null);
    if (f.from) q = q.where('trades.closed_at', '>=', f.from);
    if (f.toExclusive) q = q.where('trades.closed_at', '<', f.toExclusive);
    if (f.instrument) q = q.where('trades.symbol', '=', f.instrument);
    if (f.tagContains) {
      const pattern = `%${f.tagContains.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('trade_journals as tj')
            .select(sql`1`.as('one'))
            .whereRef('tj.trade_id', '=', 'trades.id')
            .where('tj.user_id', '=', f.userId)
            .where(sql<boolean>`lower(tj.strategy_tag) like ${pattern} escape '\\'`),
        ),
      );
    }
    return q;
  }

  return {
    /**
     * The closed trades in closing order, packed by the database into one text as the history stats
     * do: for 100,000 trades one value to transfer instead of 100,000 row objects for the driver to
     * build. Every field, and every row, ends at a unit separator: rows have TRADE_FIELDS fields, so
     * one split gives them all (id, symbol, direction, opened, closed, P/L, risk, trader, has a
     * reason, placed by a bot). Free text (the trader's name) has the separators blanked out first.
     * "Bot" reads the link bot live runs file for each trade they place (migration 0095).
     */
    async closedTrades(f: ReportFilter): Promise<string> {
      if (f.accountIds.length === 0) return '';
      const rows = closed(f).select(
        sql<string>`trades.id || ${FS} || trades.symbol || ${FS} || trades.direction || ${FS} || coalesce(trades.opened_at, trades.created_at) || ${FS} || trades.closed_at || ${FS} || cast(trades.actual_pl_minor as text) || ${FS} || coalesce(cast(trades.initial_risk_minor as text), '') || ${FS} || replace(replace(trades.trader, ${FS}, ' '), ${RS}, ' ') || ${FS} || case when trim(trades.reason) = '' then '0' else '1' end || ${FS} || case when exists (select 1 from live_run_trades l where l.trade_id = trades.id) then '1' else '0' end || ${FS}`.as(
          'r',
        ),
      );
      const packed = (
        await db
          .selectFrom(rows.orderBy('trades.closed_at').orderBy('trades.id').as('s'))
          .select(sql<string | null>`string_agg(s.r, '')`.as('packed'))
          .executeTakeFirst()
      )?.packed;
      return packed ?? '';
    },

    /**
     * Account, entry price and initial stop distance of the closed trades, by id, packed the same
     * way. Prices travel as text: both dialects print a double with the digits that read back to
     * it (SQLite to 15 significant digits, more than any symbol quotes).
     */
    async tradePrices(f: ReportFilter): Promise<Map<string, TradePriceRow>> {
      const out = new Map<string, TradePriceRow>();
      if (f.accountIds.length === 0) return out;
      const rows = closed(f).select(
        sql<string>`trades.id || ${FS} || trades.account_id || ${FS} || coalesce(cast(trades.entry_price as text), '') || ${FS} || coalesce(cast(coalesce(trades.sl_distance, abs(trades.entry_price - trades.stop_loss)) as text), '')`.as(
          'r',
        ),
      );
      const packed = (
        await db
          .selectFrom(rows.as('s'))
          .select(sql<string | null>`string_agg(s.r, ${RS})`.as('packed'))
          .executeTakeFirst()
      )?.packed;
      if (!packed) return out;
      const num = (v: string | undefined) => (v ? Number(v) : null);
      for (const r of packed.split(RS)) {
        const x = r.split(FS);
        out.set(x[0]!, { account_id: x[1]!, entry_price: num(x[2]), stop_distance: num(x[3]) });
      }
      return out;
    },

    /** Stored M1 chunks of `symbol` from these sources, for the months given (the user's or shared). */
    async m1Chunks(userId: string, sources: string[], symbol: string, months: string[]) {
      if (months.length === 0) return [];
      return db
        .selectFrom('candle_chunks')
        .select(['source', 'month', 'data'])
        .where('source', 'in', sources)
        .where('symbol', '=', symbol)
        .where('timeframe', '=', 'M1')
        .where('month', 'in', months)
        .where('bar_count', '>', 0)
        .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', userId)]))
        .orderBy('month')
        .execute();
    },

    /**
     * The journal entries of those trades, oldest first, packed the same way (JOURNAL_FIELDS each):
     * trade id, the three journal fields the reports read (trimmed), whether the entry gives a
     * reason, and whether it has an attachment.
     */
    async journals(f: ReportFilter): Promise<string> {
      if (f.accountIds.length === 0) return '';
      const clean = (col: string) => sql`replace(replace(trim(${sql.ref(col)}), ${FS}, ' '), ${RS}, ' ')`;
      const rows = db
        .selectFrom('trade_journals as j')
        .innerJoin(closed(f).select('trades.id').as('t'), 't.id', 'j.trade_id')
        .select(
          sql<string>`j.trade_id || ${FS} || ${clean('j.strategy_tag')} || ${FS} || ${clean('j.emotional_state')} || ${FS} || ${clean('j.market_condition')} || ${FS} || case when trim(j.reason) = '' then '0' else '1' end || ${FS} || case when exists (select 1 from journal_attachments a where a.journal_id = j.id) then '1' else '0' end || ${FS}`.as(
            'r',
          ),
        )
        .where('j.user_id', '=', f.userId);
      // Order among one trade's entries is all that matters (latest non-empty value wins); an
      // aggregate that lost the order would at worst pick an older tag, so it is kept as given.
      const packed = (
        await db
          .selectFrom(rows.orderBy('j.created_at').orderBy('j.id').as('s'))
          .select(sql<string | null>`string_agg(s.r, '')`.as('packed'))
          .executeTakeFirst()
      )?.packed;
      return packed ?? '';
    },
  };
}
