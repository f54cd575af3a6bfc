import { sql } from 'kysely';
import type { Db } from '../../db';
import type { ReportExcursionsTable } from '../../db/schema';

/** Which closed trades to read (the reports' copy is built from these reads, a month at a time). */
export interface ReportFilter {
  userId: string;
  accountIds: string[];
  /** Only trades closed in these months ('YYYY-MM' = substr(closed_at, 1, 7), as report_facts). */
  months?: string[];
}

/** A month of an account's copy (report_facts): the blobs only when they are up to date. */
export interface FactsRow {
  account_id: string;
  month: string;
  version: number;
  built_version: number;
  data: Uint8Array | null;
  trade_data: Uint8Array | null;
}

/** Separators of the packed text: fields by unit separators, rows by record separators. */
export const FS = '\u001f';
export const RS = '\u001e';
/** Fields of one packed closed trade (see `closedTrades`). */
export const TRADE_FIELDS = 12;
/** Fields of one packed journal entry (see `journals`). */
export const JOURNAL_FIELDS = 6;

/** The month after a 'YYYY-MM' month, as 'YYYY-MM'. */
export function nextMonthKey(month: string): string {
  const y = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return m === 12
    ? `${String(y + 1).padStart(4, '0')}-01`
    : `${month.slice(0, 4)}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * Reads and writes of the reports: the copy of the closed trades (report_facts) and the closed
 * trades and journal entries it is built from, packed (reports.model.ts reads them); the stored
 * MFE/MAE (report_excursions) and the stored M1 candles they are measured on.
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
    if (f.months?.length) {
      // The month expression of report_facts decides; bounds let the index narrow the scan (every
      // text starting 'YYYY-MM' sorts from 'YYYY-MM' to before the next month's key).
      const sorted = [...f.months].sort();
      q = q.where(sql<string>`substr(trades.closed_at, 1, 7)`, 'in', f.months);
      if (sorted.every((m) => /^\d{4}-\d{2}$/.test(m)))
        q = q
          .where('trades.closed_at', '>=', sorted[0]!)
          .where('trades.closed_at', '<', nextMonthKey(sorted.at(-1)!));
    }
    return q;
  }

  /** Stored, non-empty M1 chunks of these sources and months that the user may read (theirs or shared). */
  function m1Months(userId: string, sources: string[], months: string[]) {
    return db
      .selectFrom('candle_chunks')
      .where('source', 'in', sources)
      .where('timeframe', '=', 'M1')
      .where('month', 'in', months)
      .where('bar_count', '>', 0)
      .where((eb) => eb.or([eb('user_id', 'is', null), eb('user_id', '=', userId)]));
  }

  return {
    /**
     * The months of these accounts' copies from `fromMonth` to `toMonth` (inclusive, either open),
     * by month then account; `data` (and `trade_data` when asked for) only where the month is built
     * from its latest version.
     */
    async facts(
      accountIds: string[],
      fromMonth: string | undefined,
      toMonth: string | undefined,
      withTradeData: boolean,
    ): Promise<FactsRow[]> {
      if (accountIds.length === 0) return [];
      let q = db
        .selectFrom('report_facts')
        .select([
          'account_id',
          'month',
          'version',
          'built_version',
          sql<Uint8Array | null>`case when version = built_version then data end`.as('data'),
          (withTradeData
            ? sql<Uint8Array | null>`case when version = built_version then trade_data end`
            : sql<null>`null`
          ).as('trade_data'),
        ])
        .where('account_id', 'in', accountIds);
      if (fromMonth) q = q.where('month', '>=', fromMonth);
      if (toMonth) q = q.where('month', '<=', toMonth);
      const rows = await q.orderBy('month').orderBy('account_id').execute();
      return rows.map((r) => ({ ...r, version: Number(r.version), built_version: Number(r.built_version) }));
    },

    /** Keeps a month's rebuilt copy, as of `version` (read before its trades were). */
    async saveFacts(
      accountId: string,
      month: string,
      version: number,
      data: Uint8Array,
      tradeData: Uint8Array,
    ) {
      await db
        .updateTable('report_facts')
        .set({ data, trade_data: tradeData, built_version: version })
        .where('account_id', '=', accountId)
        .where('month', '=', month)
        .execute();
    },

    /**
     * The closed trades in closing order, packed by the database into one text as the history stats
     * do: for 100,000 trades one value to transfer instead of 100,000 row objects for the driver to
     * build. Every field, and every row, ends at a unit separator: rows have TRADE_FIELDS fields, so
     * one split gives them all (id, symbol, direction, opened, closed, P/L, risk, trader, has a
     * reason, placed by a bot, entry price, stop distance). Free text (the trader's name) has the
     * separators blanked out first. "Bot" reads the link bot live runs file for each trade they
     * place (migration 0095). Prices travel as text: both dialects print a double with the digits
     * that read back to it (SQLite to 15 significant digits, more than any symbol quotes); the stop
     * distance is the one filed at the fill, else entry to the stop held.
     */
    async closedTrades(f: ReportFilter): Promise<string> {
      if (f.accountIds.length === 0) return '';
      const rows = closed(f).select(
        sql<string>`trades.id || ${FS} || trades.symbol || ${FS} || trades.direction || ${FS} || coalesce(trades.opened_at, trades.created_at) || ${FS} || trades.closed_at || ${FS} || cast(trades.actual_pl_minor as text) || ${FS} || coalesce(cast(trades.initial_risk_minor as text), '') || ${FS} || replace(replace(trades.trader, ${FS}, ' '), ${RS}, ' ') || ${FS} || case when trim(trades.reason) = '' then '0' else '1' end || ${FS} || case when exists (select 1 from live_run_trades l where l.trade_id = trades.id) then '1' else '0' end || ${FS} || coalesce(cast(trades.entry_price as text), '') || ${FS} || coalesce(cast(coalesce(trades.sl_distance, abs(trades.entry_price - trades.stop_loss)) as text), '') || ${FS}`.as(
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
     * Which M1 months of these symbols the sources hold (the user's or shared), with each month's
     * write count and time: what a stored MFE/MAE names as the candles it was measured on.
     */
    async m1Stamps(userId: string, sources: string[], symbols: string[], months: string[]) {
      if (sources.length === 0 || symbols.length === 0 || months.length === 0) return [];
      const rows = await m1Months(userId, sources, months)
        .select(['source', 'symbol', 'month', 'version', 'updated_at'])
        .where('symbol', 'in', symbols)
        .execute();
      return rows.map((r) => ({ ...r, version: Number(r.version) }));
    },

    /** The stored MFE/MAE of these accounts' months from `fromMonth` to `toMonth` (either open). */
    async excursions(accountIds: string[], fromMonth: string | undefined, toMonth: string | undefined) {
      if (accountIds.length === 0) return [];
      let q = db
        .selectFrom('report_excursions')
        .select(['account_id', 'month', 'facts_version', 'candles_key', 'data'])
        .where('account_id', 'in', accountIds);
      if (fromMonth) q = q.where('month', '>=', fromMonth);
      if (toMonth) q = q.where('month', '<=', toMonth);
      const rows = await q.execute();
      return rows.map((r) => ({ ...r, facts_version: Number(r.facts_version) }));
    },

    /** Keeps a month's MFE/MAE, replacing the one stored. */
    async saveExcursions(row: ReportExcursionsTable) {
      const { facts_version, candles_key, data } = row;
      await db
        .insertInto('report_excursions')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['account_id', 'month']).doUpdateSet({ facts_version, candles_key, data }),
        )
        .execute();
    },

    /** Stored M1 chunks of `symbol` from these sources, for the months given (the user's or shared). */
    async m1Chunks(userId: string, sources: string[], symbol: string, months: string[]) {
      if (months.length === 0) return [];
      return m1Months(userId, sources, months)
        .select(['source', 'month', 'data'])
        .where('symbol', '=', symbol)
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
