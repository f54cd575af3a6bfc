import { computeTradeStats, currencyDecimals, roundToDigits } from '@tradedesk/domain';
import {
  EQUITY_CURVE_MAX_POINTS,
  HISTORY_CSV_COLUMNS,
  HISTORY_LIMIT_DEFAULT,
  HISTORY_MESSAGES,
  parseHistoryBound,
  type HistoryExportQuery,
  type HistoryOrder,
  type HistorySort,
  type HistoryStats,
  type HistoryStatsQuery,
  type HistorySyncResult,
  type HistoryTrade,
  type HistoryTradesPage,
  type HistoryTradesQuery,
  type TradeStatus,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import type { TradingAccountsTable } from '../../db/schema';
import { badRequest, notFound } from '../../lib/http-error';
import { accountsRepo } from '../accounts/accounts.repo';
import { money } from '../trades/trades.model';
import type { AuthUser } from '../../request-context';
import { csvLine, csvNumber } from './history.csv';
import { historyRepo, SORT_KEYS, type HistoryFilter, type HistoryRow, type KeyValue } from './history.repo';
import { historySync } from './history.sync';

type DealRow = Awaited<ReturnType<ReturnType<typeof historyRepo>['dealsOf']>>[number];

/** Rows per query while the CSV export walks the whole range. */
const EXPORT_BATCH = 1000;

/** Figures for the wire, by the domain's one rounding (half away from zero on the decimal value). */
const round = (v: number | null, digits: number): number | null =>
  v === null || !Number.isFinite(v) ? v : roundToDigits(v, digits);

function toOrder(d: DealRow, currency: string): HistoryOrder {
  return {
    id: d.id,
    broker_deal_id: d.broker_deal_id,
    filled_at: d.filled_at,
    order_type: d.order_type,
    direction: d.direction,
    entry: d.entry,
    filled_price: d.filled_price,
    filled_volume: d.filled_volume,
    profit: money(d.profit_minor, currency)!,
    commission: money(d.commission_minor, currency)!,
    swap: money(d.swap_minor, currency)!,
    deal_reason: d.deal_reason,
  };
}

function rMultiple(t: HistoryRow): number | null {
  if (t.status !== 'closed' || t.actual_pl_minor === null || !t.initial_risk_minor) return null;
  const risk = Number(t.initial_risk_minor);
  return risk > 0 ? round(Number(t.actual_pl_minor) / risk, 2) : null;
}

function toTrade(t: HistoryRow, orders: HistoryOrder[]): HistoryTrade {
  return {
    id: t.id,
    account_id: t.account_id,
    instrument: t.symbol,
    direction: t.direction,
    lot_size: t.volume,
    entry_price: t.entry_price,
    stop_loss: t.stop_loss,
    take_profit: t.take_profit,
    actual_profit_loss: money(t.actual_pl_minor, t.currency),
    r_multiple: rMultiple(t),
    currency: t.currency,
    reason: t.reason,
    rr_ratio: t.rr_ratio,
    // An order on its way to the broker shows as pending until the broker answered.
    trade_status: t.status === 'submitting' ? 'pending' : t.status,
    source: t.source,
    is_external: t.source !== 'app',
    closed_at: t.closed_at,
    created_at: t.created_at,
    order_history: orders,
  };
}

interface Range {
  from?: string;
  toExclusive?: string;
}

/** The `from`/`to` query as ISO bounds (400 naming the field when one is not a date). */
export function rangeOf(q: { from?: string; to?: string }): Range {
  const from = q.from ? parseHistoryBound(q.from) : undefined;
  const to = q.to ? parseHistoryBound(q.to) : undefined;
  if ((q.from && !from) || (q.to && !to)) {
    const detail: Record<string, string[]> = {};
    if (q.from && !from) detail.from = [HISTORY_MESSAGES.badDate];
    if (q.to && !to) detail.to = [HISTORY_MESSAGES.badDate];
    throw badRequest(detail);
  }
  return { from: from?.start, toExclusive: to?.endExclusive };
}

function sortOf(q: { sort?: string }): HistorySort {
  const s = q.sort ?? 'newest';
  if (!(s in SORT_KEYS)) throw badRequest({ sort: [HISTORY_MESSAGES.badSort] });
  return s as HistorySort;
}

function filterOf(user: AuthUser, accountId: string, q: HistoryExportQuery): HistoryFilter {
  const statuses = q.status
    ? [...new Set(q.status.split(',').map((s) => s.trim().toLowerCase() as TradeStatus))]
    : undefined;
  return {
    userId: user.id,
    accountId,
    ...rangeOf(q),
    statuses,
    instrument: q.instrument?.trim().toUpperCase(),
  };
}

/** Cursors are base64url JSON of the sort and the last row's key values. */
function encodeCursor(sort: HistorySort, values: KeyValue[]): string {
  return Buffer.from(JSON.stringify({ s: sort, v: values })).toString('base64url');
}

function decodeCursor(text: string, sort: HistorySort): KeyValue[] {
  const bad = () => badRequest({ cursor: [HISTORY_MESSAGES.badCursor] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (typeof parsed !== 'object' || parsed === null) throw bad();
  const { s, v } = parsed as { s?: unknown; v?: unknown };
  const keys = SORT_KEYS[sort];
  if (s !== sort || !Array.isArray(v) || v.length !== keys.length) throw bad();
  keys.forEach((k, i) => {
    const value: unknown = v[i];
    const ok =
      k.col === 'actual_pl_minor'
        ? value === null || (typeof value === 'number' && Number.isSafeInteger(value))
        : typeof value === 'string' && value.length <= 100;
    if (!ok) throw bad();
  });
  return v as KeyValue[];
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'account';

export const historyService = perApp(build);

function build(ctx: AppContext) {
  const repo = historyRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);
  const sync = historySync(ctx);

  const ownedAccount = (user: AuthUser, id: string): Promise<TradingAccountsTable> =>
    accounts.ownedOr404(user.id, id);

  /** Rows with their order history, loaded for the whole page in one query. */
  async function withOrders(userId: string, rows: HistoryRow[]): Promise<HistoryTrade[]> {
    const deals = await repo.dealsOf(
      userId,
      rows.map((r) => r.id),
    );
    const byTrade = new Map<string, DealRow[]>();
    for (const d of deals) {
      const list = byTrade.get(d.trade_id) ?? [];
      list.push(d);
      byTrade.set(d.trade_id, list);
    }
    return rows.map((r) =>
      toTrade(
        r,
        (byTrade.get(r.id) ?? []).map((d) => toOrder(d, r.currency)),
      ),
    );
  }

  async function list(user: AuthUser, accountId: string, q: HistoryTradesQuery): Promise<HistoryTradesPage> {
    const sort = sortOf(q);
    const filter = filterOf(user, accountId, q);
    const cursor = q.cursor ? decodeCursor(q.cursor, sort) : undefined;
    const limit = q.limit ? Number(q.limit) : HISTORY_LIMIT_DEFAULT;
    await ownedAccount(user, accountId);
    const rows = await repo.page(filter, sort, limit + 1, cursor);
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    return {
      results: await withOrders(user.id, pageRows),
      next_cursor: more ? encodeCursor(sort, repo.keyOf(pageRows.at(-1)!, sort)) : null,
    };
  }

  async function detail(user: AuthUser, id: string): Promise<HistoryTrade> {
    const row = await repo.byId(user.id, id);
    if (!row) throw notFound('Trade not found.');
    const [trade] = await withOrders(user.id, [row]);
    return trade!;
  }

  async function stats(user: AuthUser, accountId: string, q: HistoryStatsQuery): Promise<HistoryStats> {
    const range = rangeOf(q);
    const account = await ownedAccount(user, accountId);
    const rows = await repo.closedForStats(user.id, account.id, range.from, range.toExclusive);
    // Downsampling keeps two points a bucket plus the last one: one under the cap keeps it a cap.
    const s = computeTradeStats(rows, { max_points: EQUITY_CURVE_MAX_POINTS - 1 });
    const c = account.currency;
    const m = (v: number | null) => money(v, c);
    return {
      account_id: account.id,
      currency: c,
      from: range.from ?? null,
      to: range.toExclusive ?? null,
      trades: s.trades,
      wins: s.wins,
      losses: s.losses,
      breakeven: s.breakeven,
      win_rate: round(s.win_rate, 4),
      profit_factor: round(s.profit_factor, 4),
      gross_profit: m(s.gross_profit_minor)!,
      gross_loss: m(s.gross_loss_minor)!,
      net_profit_loss: m(s.net_minor)!,
      average_win: m(s.avg_win_minor),
      average_loss: m(s.avg_loss_minor),
      expectancy: m(s.expectancy_minor),
      expectancy_r: round(s.expectancy_r, 4),
      r_trades: s.r_trades,
      best_trade: m(s.best_minor),
      worst_trade: m(s.worst_minor),
      max_drawdown: m(s.max_drawdown_minor)!,
      equity_curve: s.equity_curve.map((p) => ({ time: p.time, equity: m(p.equity_minor)! })),
    };
  }

  /**
   * The filtered trades as CSV, one trade a line, produced a batch at a time so that memory stays
   * flat however long the history is. Validation and the ownership check happen before the first byte.
   */
  async function exportCsv(
    user: AuthUser,
    accountId: string,
    q: HistoryExportQuery,
  ): Promise<{ filename: string; lines: AsyncGenerator<string> }> {
    const sort = sortOf(q);
    const filter = filterOf(user, accountId, q);
    const account = await ownedAccount(user, accountId);
    const day = (iso: string | undefined) => iso?.slice(0, 10);
    const lastDay = filter.toExclusive
      ? new Date(Date.parse(filter.toExclusive) - 1).toISOString().slice(0, 10)
      : undefined;
    const span = [day(filter.from), lastDay].filter(Boolean).join('-to-');
    const filename = `trade-history-${slug(account.name)}${span ? `-${span}` : ''}.csv`;
    async function* lines(): AsyncGenerator<string> {
      yield csvLine([...HISTORY_CSV_COLUMNS]);
      let cursor: KeyValue[] | undefined;
      for (;;) {
        const rows = await repo.page(filter, sort, EXPORT_BATCH, cursor);
        let chunk = '';
        for (const r of rows) {
          const t = toTrade(r, []);
          chunk += csvLine([
            t.id,
            t.created_at,
            t.closed_at,
            t.instrument,
            t.direction,
            csvNumber(t.lot_size),
            csvNumber(t.entry_price),
            csvNumber(t.stop_loss),
            csvNumber(t.take_profit),
            t.actual_profit_loss === null
              ? null
              : csvNumber(t.actual_profit_loss, currencyDecimals(t.currency)),
            t.currency,
            csvNumber(t.r_multiple),
            csvNumber(t.rr_ratio),
            t.trade_status,
            t.source,
            t.reason,
          ]);
        }
        if (chunk) yield chunk;
        if (rows.length < EXPORT_BATCH) return;
        cursor = repo.keyOf(rows.at(-1)!, sort);
      }
    }
    return { filename, lines: lines() };
  }

  async function runSync(user: AuthUser, accountId: string): Promise<HistorySyncResult> {
    const account = await ownedAccount(user, accountId);
    return sync.run(account);
  }

  return { list, detail, stats, exportCsv, runSync, ownedAccount };
}
