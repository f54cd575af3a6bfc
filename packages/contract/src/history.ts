import { z } from 'zod';
import { text } from './common';
import { tradeDirection } from './trades';

/**
 * Trade history API (issue 5). Money on the wire is a decimal number in the account currency
 * (`currency` on each trade); it is stored and summed as integer minor units on the server.
 *
 * Lists are keyset-paginated: `GET /api/history/accounts/{id}/trades/?limit=50` answers
 * `{results, next_cursor}`; pass `cursor=<next_cursor>` with the SAME filters and sort to get the
 * next page; `next_cursor` is null on the last page. A cursor is opaque and belongs to one sort.
 *
 * Dates: `from` and `to` are `YYYY-MM-DD` (UTC days) or ISO 8601 instants with a zone
 * (`2026-01-07T10:00:00Z`, `2026-01-07T12:00:00+02:00`). `from` is inclusive; a date `to` includes
 * that whole day, an instant `to` is inclusive. The trade list filters on the trade's created_at,
 * the stats on closed_at (a trade counts in the range it was closed in).
 */

export const HISTORY_SORTS = [
  'newest',
  'oldest',
  'instrument_asc',
  'instrument_desc',
  'pl_desc',
  'pl_asc',
] as const;
export const historySort = z.enum(HISTORY_SORTS);
export type HistorySort = z.infer<typeof historySort>;

/** The screen's sort select, in its order (Newest is the default). */
export const HISTORY_SORT_LABELS: Record<HistorySort, string> = {
  newest: 'Newest',
  oldest: 'Oldest',
  instrument_asc: 'Instrument A-Z',
  instrument_desc: 'Instrument Z-A',
  pl_desc: 'P/L High-Low',
  pl_asc: 'P/L Low-High',
};

export const TRADE_STATUSES = ['pending', 'open', 'closed', 'cancelled'] as const;
export const tradeStatus = z.enum(TRADE_STATUSES);
export type TradeStatus = z.infer<typeof tradeStatus>;

export const HISTORY_LIMIT_DEFAULT = 50;
export const HISTORY_LIMIT_MAX = 500;
/** Points of the stats' equity curve at most (longer curves are downsampled keeping extremes). */
export const EQUITY_CURVE_MAX_POINTS = 500;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A `from`/`to` value as a range bound: the first instant it covers and the first instant after it
 * (ISO strings). Undefined when the text is neither a real calendar date nor a zoned ISO instant.
 */
export function parseHistoryBound(text: string): { start: string; endExclusive: string } | undefined {
  const v = text.trim();
  if (DATE_RE.test(v)) {
    const ms = Date.parse(`${v}T00:00:00.000Z`);
    if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== v) return undefined;
    return { start: new Date(ms).toISOString(), endExclusive: new Date(ms + 86_400_000).toISOString() };
  }
  if (INSTANT_RE.test(v)) {
    const ms = Date.parse(v);
    if (!Number.isFinite(ms)) return undefined;
    // Instants are stored with millisecond precision: the end of an instant is the next millisecond.
    return { start: new Date(ms).toISOString(), endExclusive: new Date(ms + 1).toISOString() };
  }
  return undefined;
}

export const HISTORY_MESSAGES = {
  badDate: 'Enter a date as YYYY-MM-DD or an ISO 8601 instant with a time zone.',
  toBeforeFrom: '"to" must not be before "from".',
  badStatus: `Status must be one or more of ${TRADE_STATUSES.join(', ')}, separated by commas.`,
  badSort: `Sort must be one of ${HISTORY_SORTS.join(', ')}.`,
  badLimit: `Limit must be a whole number from 1 to ${HISTORY_LIMIT_MAX}.`,
  badInstrument: 'Instrument must be a symbol such as EURUSD (letters, digits, . _ - / #).',
  badCursor: 'This cursor is not valid for this list and sort; start again from the first page.',
} as const;

const bound = z
  .string()
  .max(40, HISTORY_MESSAGES.badDate)
  .refine((v) => parseHistoryBound(v) !== undefined, HISTORY_MESSAGES.badDate);

const range = {
  from: bound.optional(),
  to: bound.optional(),
};

function toNotBeforeFrom(q: { from?: string; to?: string }): boolean {
  if (!q.from || !q.to) return true;
  const f = parseHistoryBound(q.from);
  const t = parseHistoryBound(q.to);
  return !f || !t || t.endExclusive > f.start;
}

/** Filters shared by the list and the CSV export. Values are strings as they come in the query. */
const filterShape = {
  ...range,
  /** One status or several separated by commas (`open,pending`). */
  status: z
    .string()
    .max(100, HISTORY_MESSAGES.badStatus)
    .refine(
      (v) =>
        v.split(',').every((s) => (TRADE_STATUSES as readonly string[]).includes(s.trim().toLowerCase())),
      HISTORY_MESSAGES.badStatus,
    )
    .optional(),
  /** Exact symbol, case-insensitive. */
  instrument: z
    .string()
    .regex(/^[A-Za-z0-9._\-/#]{1,40}$/, HISTORY_MESSAGES.badInstrument)
    .optional(),
  sort: z
    .string()
    .refine((v) => (HISTORY_SORTS as readonly string[]).includes(v), HISTORY_MESSAGES.badSort)
    .optional(),
};

export const historyExportQuery = z
  .object(filterShape)
  .refine(toNotBeforeFrom, { message: HISTORY_MESSAGES.toBeforeFrom, path: ['to'] });
export type HistoryExportQuery = z.infer<typeof historyExportQuery>;

export const historyTradesQuery = z
  .object({
    ...filterShape,
    limit: z
      .string()
      .refine(
        (v) => /^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= HISTORY_LIMIT_MAX,
        HISTORY_MESSAGES.badLimit,
      )
      .optional(),
    cursor: text().max(1000, HISTORY_MESSAGES.badCursor).optional(),
  })
  .refine(toNotBeforeFrom, { message: HISTORY_MESSAGES.toBeforeFrom, path: ['to'] });
export type HistoryTradesQuery = z.infer<typeof historyTradesQuery>;

export const historyStatsQuery = z
  .object(range)
  .refine(toNotBeforeFrom, { message: HISTORY_MESSAGES.toBeforeFrom, path: ['to'] });
export type HistoryStatsQuery = z.infer<typeof historyStatsQuery>;

/** The spec's Order: one fill (deal) of the trade, in fill order. Money in the account currency. */
export const historyOrder = z.object({
  id: z.string(),
  /** The broker's deal id. */
  broker_deal_id: z.string(),
  filled_at: z.string(),
  /** MARKET | LIMIT for the opening fill, CLOSE for closing fills. */
  order_type: z.string(),
  direction: tradeDirection,
  /** IN opens (or adds to) the position, OUT closes it fully or partly. */
  entry: z.enum(['IN', 'OUT']),
  filled_price: z.number(),
  filled_volume: z.number(),
  profit: z.number(),
  commission: z.number(),
  swap: z.number(),
  /** MARKET | LIMIT | STOP_LOSS | TAKE_PROFIT | CLOSE | PARTIAL_CLOSE | TARGET | STOP_OUT | EXTERNAL */
  deal_reason: z.string(),
});
export type HistoryOrder = z.infer<typeof historyOrder>;

/** The spec's Trade (history) plus where it came from. */
export const historyTrade = z.object({
  id: z.string(),
  account_id: z.string(),
  instrument: z.string(),
  direction: tradeDirection,
  /** Lots opened. */
  lot_size: z.number(),
  entry_price: z.number().nullable(),
  stop_loss: z.number().nullable(),
  take_profit: z.number().nullable(),
  /** Sum of the deals' profit, commission and swap (account currency); null while the trade is not closed. */
  actual_profit_loss: z.number().nullable(),
  /** actual_profit_loss over the money risked at the open; null when the initial risk is unknown. */
  r_multiple: z.number().nullable(),
  currency: z.string(),
  reason: z.string(),
  rr_ratio: z.number().nullable(),
  /** 'closed' or the trade's other status: open, pending, cancelled. */
  trade_status: tradeStatus,
  /** 'app' when placed here, 'external' when opened in the broker's own terminal, 'import' from a statement. */
  source: z.enum(['app', 'external', 'import']),
  is_external: z.boolean(),
  closed_at: z.string().nullable(),
  created_at: z.string(),
  order_history: z.array(historyOrder),
});
export type HistoryTrade = z.infer<typeof historyTrade>;

export const historyTradesPage = z.object({
  results: z.array(historyTrade),
  /** Pass as `cursor` (with the same filters and sort) for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type HistoryTradesPage = z.infer<typeof historyTradesPage>;

export const equityPoint = z.object({
  time: z.string(),
  /** Cumulative realised P/L of the range after this trade, account currency. */
  equity: z.number(),
});
export type EquityPoint = z.infer<typeof equityPoint>;

/** GET /api/history/accounts/{id}/stats/: closed trades whose closed_at is in the range. */
export const historyStats = z.object({
  account_id: z.string(),
  currency: z.string(),
  /** The range as applied: first instant included, null when open-ended. */
  from: z.string().nullable(),
  /** The range as applied: first instant NOT included (a date `to` gives the next midnight UTC). */
  to: z.string().nullable(),
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  breakeven: z.number().int(),
  /** Wins over trades, 0..1; null without trades. */
  win_rate: z.number().nullable(),
  /** Gross profit over gross loss; null when there is no losing trade. */
  profit_factor: z.number().nullable(),
  gross_profit: z.number(),
  gross_loss: z.number(),
  net_profit_loss: z.number(),
  average_win: z.number().nullable(),
  /** Negative (a loss). */
  average_loss: z.number().nullable(),
  /** Average P/L per trade. */
  expectancy: z.number().nullable(),
  /** Average R per trade, over the trades whose initial risk is known (`r_trades` of them). */
  expectancy_r: z.number().nullable(),
  r_trades: z.number().int(),
  best_trade: z.number().nullable(),
  worst_trade: z.number().nullable(),
  /** Largest peak-to-trough fall of the closed-trade equity curve (>= 0). */
  max_drawdown: z.number(),
  equity_curve: z.array(equityPoint),
});
export type HistoryStats = z.infer<typeof historyStats>;

/** POST /api/history/accounts/{id}/sync/: what one run of the history sync did. */
export const historySyncResult = z.object({
  new_deals: z.number().int(),
  new_trades: z.number().int(),
  updated_trades: z.number().int(),
  synced_to: z.string().nullable(),
});
export type HistorySyncResult = z.infer<typeof historySyncResult>;

/** Columns of the CSV export, in order. */
export const HISTORY_CSV_COLUMNS = [
  'id',
  'created_at',
  'closed_at',
  'instrument',
  'direction',
  'lot_size',
  'entry_price',
  'stop_loss',
  'take_profit',
  'actual_profit_loss',
  'currency',
  'r_multiple',
  'rr_ratio',
  'trade_status',
  'source',
  'reason',
] as const;
