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
}

export interface ClosedTradeRow {
  id: string;
  symbol: string;
  direction: 'BUY' | 'SELL';
  /** When it opened (its creation when the broker gave no fill time). */
  opened_at: string;
  closed_at: string;
  actual_pl_minor: number;
  initial_risk_minor: number | null;
  trader: string;
  has_reason: boolean;
}

const FS = '\u001f';
const RS = '\u001e';

/** The packed text back into rows, restoring closing order if the aggregate did not keep it. */
export function unpackTrades(packed: string): ClosedTradeRow[] {
  const parts = packed.split(RS);
  const out = new Array<ClosedTradeRow>(parts.length);
  let sorted = true;
  for (let i = 0; i < parts.length; i++) {
    const f = parts[i]!.split(FS);
    out[i] = {
      id: f[0]!,
      symbol: f[1]!,
      direction: f[2] as 'BUY' | 'SELL',
      opened_at: f[3]!,
      closed_at: f[4]!,
      actual_pl_minor: Number(f[5]),
      initial_risk_minor: f[6] === '' ? null : Number(f[6]),
      trader: f[7]!,
      has_reason: f[8] === '1',
    };
    const prev = out[i - 1];
    if (
      prev &&
      (out[i]!.closed_at < prev.closed_at || (out[i]!.closed_at === prev.closed_at && out[i]!.id < prev.id))
    )
      sorted = false;
  }
  return sorted
    ? out
    : out.sort((x, y) =>
        x.closed_at < y.closed_at
          ? -1
          : x.closed_at > y.closed_at
            ? 1
            : x.id < y.id
              ? -1
              : x.id > y.id
                ? 1
                : 0,
      );
}

export interface JournalRow {
  trade_id: string;
  strategy_tag: string;
  emotional_state: string;
  market_condition: string;
  has_reason: boolean;
  has_attachment: boolean;
}

/** Reads of the reports: closed trades in a range of closing dates and their journal entries. */
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
    return q;
  }

  return {
    /**
     * The closed trades in closing order, packed by the database into one text (fields split by
     * unit separators, rows by record separators) as the history stats do: for 100,000 trades one
     * value to transfer and split instead of 100,000 row objects for the driver to build. Free
     * text (the trader's name) has the separators blanked out first.
     */
    async closedTrades(f: ReportFilter): Promise<ClosedTradeRow[]> {
      if (f.accountIds.length === 0) return [];
      const rows = closed(f).select(
        sql<string>`trades.id || ${FS} || trades.symbol || ${FS} || trades.direction || ${FS} || coalesce(trades.opened_at, trades.created_at) || ${FS} || trades.closed_at || ${FS} || cast(trades.actual_pl_minor as text) || ${FS} || coalesce(cast(trades.initial_risk_minor as text), '') || ${FS} || replace(replace(trades.trader, ${FS}, ' '), ${RS}, ' ') || ${FS} || case when trim(trades.reason) = '' then '0' else '1' end`.as(
          'r',
        ),
      );
      const packed = (
        await db
          .selectFrom(rows.orderBy('trades.closed_at').orderBy('trades.id').as('s'))
          .select(sql<string | null>`string_agg(s.r, ${RS})`.as('packed'))
          .executeTakeFirst()
      )?.packed;
      return packed ? unpackTrades(packed) : [];
    },

    /**
     * The journal entries of those trades, oldest first, packed the same way: the journal fields
     * the reports read, whether the entry gives a reason, and how many attachments it has.
     */
    async journals(f: ReportFilter): Promise<JournalRow[]> {
      if (f.accountIds.length === 0) return [];
      const clean = (col: string) => sql`replace(replace(trim(${sql.ref(col)}), ${FS}, ' '), ${RS}, ' ')`;
      const rows = db
        .selectFrom('trade_journals as j')
        .innerJoin(closed(f).select('trades.id').as('t'), 't.id', 'j.trade_id')
        .select(
          sql<string>`j.trade_id || ${FS} || ${clean('j.strategy_tag')} || ${FS} || ${clean('j.emotional_state')} || ${FS} || ${clean('j.market_condition')} || ${FS} || case when trim(j.reason) = '' then '0' else '1' end || ${FS} || case when exists (select 1 from journal_attachments a where a.journal_id = j.id) then '1' else '0' end`.as(
            'r',
          ),
        )
        .where('j.user_id', '=', f.userId);
      const packed = (
        await db
          .selectFrom(rows.orderBy('j.created_at').orderBy('j.id').as('s'))
          .select(sql<string | null>`string_agg(s.r, ${RS})`.as('packed'))
          .executeTakeFirst()
      )?.packed;
      if (!packed) return [];
      // Order among one trade's entries is all that matters (latest non-empty value wins); an
      // aggregate that lost the order would at worst pick an older tag, so it is kept as given.
      return packed.split(RS).map((r) => {
        const x = r.split(FS);
        return {
          trade_id: x[0]!,
          strategy_tag: x[1]!,
          emotional_state: x[2]!,
          market_condition: x[3]!,
          has_reason: x[4] === '1',
          has_attachment: x[5] === '1',
        };
      });
    },
  };
}
