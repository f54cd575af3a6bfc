import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { HistorySort, TradeStatus } from '@tradedesk/contract';
import type { Db } from '../../db';
import type { Database, HistorySyncStateTable } from '../../db/schema';

/** The columns a history row needs (never the targets JSON or the projections). */
export const HISTORY_COLUMNS = [
  'id',
  'account_id',
  'symbol',
  'direction',
  'volume',
  'entry_price',
  'stop_loss',
  'take_profit',
  'actual_pl_minor',
  'initial_risk_minor',
  'currency',
  'reason',
  'rr_ratio',
  'status',
  'source',
  'closed_at',
  'created_at',
] as const;

export type HistoryRow = Pick<Database['trades'], (typeof HISTORY_COLUMNS)[number]>;

type KeyColumn = 'created_at' | 'id' | 'symbol' | 'actual_pl_minor';
interface SortKey {
  col: KeyColumn;
  dir: 'asc' | 'desc';
  /** Only P/L can be null (trades not closed yet): they come last in both directions. */
  nullable?: boolean;
}
export type KeyValue = string | number | null;

/** Each sort of the screen, with newest-first tie-breaks so that equal keys keep a stable order. */
export const SORT_KEYS: Record<HistorySort, SortKey[]> = {
  newest: [
    { col: 'created_at', dir: 'desc' },
    { col: 'id', dir: 'desc' },
  ],
  oldest: [
    { col: 'created_at', dir: 'asc' },
    { col: 'id', dir: 'asc' },
  ],
  instrument_asc: [
    { col: 'symbol', dir: 'asc' },
    { col: 'created_at', dir: 'desc' },
    { col: 'id', dir: 'desc' },
  ],
  instrument_desc: [
    { col: 'symbol', dir: 'desc' },
    { col: 'created_at', dir: 'desc' },
    { col: 'id', dir: 'desc' },
  ],
  pl_desc: [
    { col: 'actual_pl_minor', dir: 'desc', nullable: true },
    { col: 'created_at', dir: 'desc' },
    { col: 'id', dir: 'desc' },
  ],
  pl_asc: [
    { col: 'actual_pl_minor', dir: 'asc', nullable: true },
    { col: 'created_at', dir: 'desc' },
    { col: 'id', dir: 'desc' },
  ],
};

export interface HistoryFilter {
  userId: string;
  accountId: string;
  /** Inclusive lower bound of created_at (ISO). */
  from?: string;
  /** Exclusive upper bound of created_at (ISO). */
  toExclusive?: string;
  statuses?: TradeStatus[];
  instrument?: string;
}

type TradesEb = ExpressionBuilder<Database, 'trades'>;

/**
 * Rows strictly after `values` in the order of `keys`: the lexicographic "greater than" spelled out
 * as OR of AND, so that any mix of directions and NULLS LAST works the same on SQLite and PostgreSQL.
 */
function after(eb: TradesEb, keys: SortKey[], values: KeyValue[]): Expression<SqlBool> {
  const branches: Expression<SqlBool>[] = [];
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = values[i] ?? null;
    // Past a NULL (nulls last) nothing non-null follows; NULLs among themselves go by the next keys.
    if (v === null) continue;
    const beyond = eb(k.col, k.dir === 'asc' ? '>' : '<', v);
    const step = k.nullable ? eb.or([beyond, eb(k.col, 'is', null)]) : beyond;
    const equal = keys
      .slice(0, i)
      .map((p, j) => (values[j] === null ? eb(p.col, 'is', null) : eb(p.col, '=', values[j]!)));
    branches.push(equal.length ? eb.and([...equal, step]) : step);
  }
  if (!branches.length) return eb.lit(false);
  // The leading key's bound, redundant but plain, lets the index start at the cursor.
  const lead = keys[0]!;
  const v0 = values[0] ?? null;
  return lead.nullable || v0 === null
    ? eb.or(branches)
    : eb.and([eb(lead.col, lead.dir === 'asc' ? '>=' : '<=', v0), eb.or(branches)]);
}

export interface StatsRow {
  pnl_minor: number;
  initial_risk_minor: number | null;
  closed_at: string;
}

/** "pl,risk,closed_at;..." back into rows in closing order (a stable sort only when needed). */
export function unpackStats(packed: string): StatsRow[] {
  const parts = packed.split(';');
  const out = new Array<StatsRow>(parts.length);
  let sorted = true;
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const a = p.indexOf(',');
    const b = p.indexOf(',', a + 1);
    const risk = p.slice(a + 1, b);
    out[i] = {
      pnl_minor: Number(p.slice(0, a)),
      initial_risk_minor: risk === '' ? null : Number(risk),
      closed_at: p.slice(b + 1),
    };
    if (i > 0 && out[i]!.closed_at < out[i - 1]!.closed_at) sorted = false;
  }
  return sorted
    ? out
    : out.sort((x, y) => (x.closed_at < y.closed_at ? -1 : x.closed_at > y.closed_at ? 1 : 0));
}

export function historyRepo(db: Db) {
  function filtered(f: HistoryFilter) {
    let q = db
      .selectFrom('trades')
      .where('trades.user_id', '=', f.userId)
      .where('trades.account_id', '=', f.accountId);
    if (f.from) q = q.where('created_at', '>=', f.from);
    if (f.toExclusive) q = q.where('created_at', '<', f.toExclusive);
    if (f.statuses?.length) q = q.where('status', 'in', f.statuses);
    if (f.instrument) q = q.where('symbol', '=', f.instrument);
    return q;
  }

  return {
    /** One keyset page: `limit` rows after `cursor` (values of the sort keys of the previous page's last row). */
    page(f: HistoryFilter, sort: HistorySort, limit: number, cursor: KeyValue[] | undefined) {
      const keys = SORT_KEYS[sort];
      let q = filtered(f).select([...HISTORY_COLUMNS]);
      if (cursor) q = q.where((eb) => after(eb, keys, cursor));
      for (const k of keys)
        q = q.orderBy(k.col, (ob) => {
          const o = k.dir === 'asc' ? ob.asc() : ob.desc();
          return k.nullable ? o.nullsLast() : o;
        });
      return q.limit(limit).execute();
    },
    keyOf(row: HistoryRow, sort: HistorySort): KeyValue[] {
      return SORT_KEYS[sort].map((k) => {
        const v = row[k.col];
        return v === null || v === undefined ? null : typeof v === 'number' ? v : String(v);
      });
    },
    byId: (userId: string, id: string) =>
      db
        .selectFrom('trades')
        .select([...HISTORY_COLUMNS])
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    /** The deals of a page of trades in one query, in fill order. */
    dealsOf: (userId: string, tradeIds: string[]) =>
      tradeIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('trade_deals')
            .select([
              'id',
              'trade_id',
              'broker_deal_id',
              'filled_at',
              'order_type',
              'direction',
              'entry',
              'filled_price',
              'filled_volume',
              'profit_minor',
              'commission_minor',
              'swap_minor',
              'deal_reason',
            ])
            .where('user_id', '=', userId)
            .where('trade_id', 'in', tradeIds)
            .orderBy('trade_id')
            .orderBy('filled_at')
            .orderBy('id')
            .execute(),
    /**
     * Closed trades of an account closed in [from, toExclusive), in closing order: just what the
     * stats read. The rows come packed into one text ("pl,risk,closed_at;..."), built by the
     * database with string_agg (PostgreSQL, and SQLite since 3.44): for 100,000 trades that is one
     * value to transfer and split instead of 100,000 row objects for the driver to build. The rows
     * are ordered in a subquery, which the covering index (account_id, status, closed_at, id, ...)
     * serves without a sort; an ORDER BY inside string_agg would sort them again (PostgreSQL < 16).
     * Neither database promises that an aggregate keeps its input's order, so the order is checked
     * while unpacking and restored if it was not kept.
     */
    async closedForStats(
      userId: string,
      accountId: string,
      from?: string,
      toExclusive?: string,
    ): Promise<StatsRow[]> {
      let rows = db
        .selectFrom('trades')
        .select(
          sql<string>`cast(actual_pl_minor as text) || ',' || coalesce(cast(initial_risk_minor as text), '') || ',' || closed_at`.as(
            'r',
          ),
        )
        .where('account_id', '=', accountId)
        .where('status', '=', 'closed')
        .where('user_id', '=', userId)
        .where('closed_at', 'is not', null)
        .where('actual_pl_minor', 'is not', null);
      if (from) rows = rows.where('closed_at', '>=', from);
      if (toExclusive) rows = rows.where('closed_at', '<', toExclusive);
      const packed = (
        await db
          .selectFrom(rows.orderBy('closed_at').orderBy('id').as('s'))
          .select(sql<string | null>`string_agg(s.r, ';')`.as('packed'))
          .executeTakeFirst()
      )?.packed;
      return packed ? unpackStats(packed) : [];
    },

    syncState: (accountId: string) =>
      db.selectFrom('history_sync_state').selectAll().where('account_id', '=', accountId).executeTakeFirst(),
    async saveSyncState(row: HistorySyncStateTable): Promise<void> {
      await db
        .insertInto('history_sync_state')
        .values(row)
        .onConflict((oc) =>
          oc.column('account_id').doUpdateSet({
            synced_to: row.synced_to,
            last_run_at: row.last_run_at,
            last_error: row.last_error,
            updated_at: row.updated_at,
          }),
        )
        .execute();
    },
    /** How many trades of the account hold one of these positions. */
    async countByPositions(accountId: string, positionIds: string[]): Promise<number> {
      let n = 0;
      for (let i = 0; i < positionIds.length; i += 500) {
        const row = await db
          .selectFrom('trades')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('account_id', '=', accountId)
          .where('position_id', 'in', positionIds.slice(i, i + 500))
          .executeTakeFirstOrThrow();
        n += Number(row.n);
      }
      return n;
    },
    /** Which of these broker deal ids the account already has. */
    async knownDealIds(accountId: string, brokerDealIds: string[]): Promise<Set<string>> {
      const known = new Set<string>();
      for (let i = 0; i < brokerDealIds.length; i += 500) {
        const chunk = brokerDealIds.slice(i, i + 500);
        const rows = await db
          .selectFrom('trade_deals')
          .select('broker_deal_id')
          .where('account_id', '=', accountId)
          .where('broker_deal_id', 'in', chunk)
          .execute();
        for (const r of rows) known.add(r.broker_deal_id);
      }
      return known;
    },
  };
}

export type HistoryRepo = ReturnType<typeof historyRepo>;
