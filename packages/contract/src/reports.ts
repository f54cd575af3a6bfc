import { isTimeZone } from '@tradedesk/domain';
import { z } from 'zod';
import { HISTORY_MESSAGES, parseHistoryBound } from './history';

/**
 * Reports (issue 15): the closed trades of one account or of all the user's accounts, in a range
 * of closing dates, summarised and broken down. Money is integer minor units of `currency`
 * (`*_minor` fields; `currency_decimals` says where the point goes). `from`/`to` work as in the
 * history API (dates or zoned instants, `to` inclusive). `tz` is the IANA zone days, weekdays and
 * hours are read in; without it, the trader's saved zone (`/api/users/me/settings/`), else UTC.
 * Answers say the zone used in `time_zone`. Without `account`, every account of the user counts; they
 * must then share one currency.
 */

export const REPORT_DIMENSIONS = [
  'instrument',
  'direction',
  'weekday',
  'hour',
  'session',
  'holding_time',
  'strategy_tag',
  'emotional_state',
  'market_condition',
  'trader',
  /** Placed by a bot's live run or by hand. */
  'bot',
] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

export const REPORT_MESSAGES = {
  badTimeZone: 'Time zone must be an IANA name such as Europe/London or UTC.',
  badDimension: `Breakdowns must be one or more of ${REPORT_DIMENSIONS.join(', ')}, separated by commas.`,
  mixedCurrencies: 'These accounts are in different currencies and cannot be added up; choose one account.',
  badTag: 'Tag must be at most 100 characters.',
  badTargets: 'Targets must be one to five R levels between 0.1 and 20, separated by commas, such as 1,2,3.',
  badPage: 'Limit must be a whole number from 1 to 5000 and offset a whole number from 0.',
} as const;

const bound = z
  .string()
  .max(40, HISTORY_MESSAGES.badDate)
  .refine((v) => parseHistoryBound(v) !== undefined, HISTORY_MESSAGES.badDate);

const filterShape = {
  account: z.uuid().optional(),
  from: bound.optional(),
  to: bound.optional(),
  instrument: z
    .string()
    .regex(/^[A-Za-z0-9._\-/#]{1,40}$/, HISTORY_MESSAGES.badInstrument)
    .optional(),
  /** A journal strategy tag: only trades journaled with it. */
  tag: z.string().min(1, REPORT_MESSAGES.badTag).max(100, REPORT_MESSAGES.badTag).optional(),
  tz: z
    .string()
    .max(64, REPORT_MESSAGES.badTimeZone)
    .refine(isTimeZone, REPORT_MESSAGES.badTimeZone)
    .optional(),
};

function toNotBeforeFrom(q: { from?: string; to?: string }): boolean {
  if (!q.from || !q.to) return true;
  const f = parseHistoryBound(q.from);
  const t = parseHistoryBound(q.to);
  return !f || !t || t.endExclusive > f.start;
}

export const reportsQuery = z
  .object(filterShape)
  .refine(toNotBeforeFrom, { message: HISTORY_MESSAGES.toBeforeFrom, path: ['to'] });
export type ReportsQuery = z.infer<typeof reportsQuery>;

export const reportBreakdownsQuery = z
  .object({
    ...filterShape,
    /** Comma-separated dimensions; all of them when left out. */
    by: z
      .string()
      .max(300, REPORT_MESSAGES.badDimension)
      .refine(
        (v) => v.split(',').every((d) => (REPORT_DIMENSIONS as readonly string[]).includes(d.trim())),
        REPORT_MESSAGES.badDimension,
      )
      .optional(),
  })
  .refine(toNotBeforeFrom, { message: HISTORY_MESSAGES.toBeforeFrom, path: ['to'] });
export type ReportBreakdownsQuery = z.infer<typeof reportBreakdownsQuery>;

export const reportFigures = z.object({
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
  win_rate: z.number().nullable(),
  net_minor: z.number().int(),
  gross_profit_minor: z.number().int(),
  gross_loss_minor: z.number().int(),
  profit_factor: z.number().nullable(),
  expectancy_minor: z.number().int().nullable(),
  expectancy_r: z.number().nullable(),
  r_trades: z.number().int(),
});
export type ReportFigures = z.infer<typeof reportFigures>;

const calendarTotal = z.object({
  key: z.string(),
  net_minor: z.number().int(),
  trades: z.number().int(),
  wins: z.number().int(),
  losses: z.number().int(),
});
export type CalendarTotal = z.infer<typeof calendarTotal>;

const reportScope = {
  /** The accounts the report covers. */
  accounts: z.array(z.string()),
  currency: z.string(),
  currency_decimals: z.number().int(),
  time_zone: z.string(),
};

export const reportSummary = z.object({
  ...reportScope,
  figures: reportFigures,
  calendar: z.object({
    days: z.array(calendarTotal),
    weeks: z.array(calendarTotal),
    months: z.array(calendarTotal),
    years: z.array(calendarTotal),
  }),
  r_histogram: z.object({
    bins: z.array(
      z.object({ from_r: z.number().nullable(), to_r: z.number().nullable(), count: z.number().int() }),
    ),
    without_risk: z.number().int(),
  }),
  /** At most 500 points (longer curves keep each stretch's extremes). */
  equity_curve: z.array(
    z.object({ time: z.string(), equity_minor: z.number().int(), drawdown_minor: z.number().int() }),
  ),
  max_drawdown_minor: z.number().int(),
  streaks: z.object({
    longest_win: z.number().int(),
    longest_loss: z.number().int(),
    current: z.number().int(),
  }),
  discipline: z.object({
    trades: z.number().int(),
    journaled: z.number().int(),
    with_snapshot: z.number().int(),
    with_reason: z.number().int(),
    journaled_share: z.number().nullable(),
    snapshot_share: z.number().nullable(),
    reason_share: z.number().nullable(),
    journaled_figures: reportFigures,
    not_journaled_figures: reportFigures,
  }),
});
export type ReportSummary = z.infer<typeof reportSummary>;

export const breakdownRow = reportFigures.extend({ key: z.string() });
export type BreakdownRow = z.infer<typeof breakdownRow>;

export const reportBreakdowns = z.object({
  ...reportScope,
  breakdowns: z.partialRecord(z.enum(REPORT_DIMENSIONS), z.array(breakdownRow)),
});
export type ReportBreakdowns = z.infer<typeof reportBreakdowns>;

/** The R levels "left on the table" is measured at when none are asked for. */
export const DEFAULT_EXCURSION_TARGETS = [1, 2, 3] as const;
/** Most per-trade excursions one response lists (page through the rest with `offset`). */
export const EXCURSIONS_MAX_LIMIT = 5000;
/** Most trades without candles one response lists by id (the count is always whole). */
export const WITHOUT_CANDLES_MAX_LISTED = 500;

const targetLevels = (v: string) => v.split(',').map((x) => Number(x.trim()));
const pageNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, REPORT_MESSAGES.badPage)
    .transform(Number)
    .refine((n) => n >= min && n <= max, REPORT_MESSAGES.badPage);

/**
 * MFE/MAE query: the summary's filters, the R levels of "left on the table" (`targets`, default
 * 1,2,3) and a page of the per-trade list (`limit`, default 1000, at most 5000; `offset`).
 */
export const reportExcursionsQuery = z
  .object({
    ...filterShape,
    targets: z
      .string()
      .max(60, REPORT_MESSAGES.badTargets)
      .refine((v) => {
        const xs = targetLevels(v);
        return xs.length <= 5 && xs.every((x) => Number.isFinite(x) && x >= 0.1 && x <= 20);
      }, REPORT_MESSAGES.badTargets)
      .transform((v) => [...new Set(targetLevels(v))].sort((a, b) => a - b))
      .optional(),
    limit: pageNumber(1, EXCURSIONS_MAX_LIMIT).optional(),
    offset: pageNumber(0, 999_999_999).optional(),
  })
  .refine(toNotBeforeFrom, { message: HISTORY_MESSAGES.toBeforeFrom, path: ['to'] });
export type ReportExcursionsQuery = z.output<typeof reportExcursionsQuery>;

export const tradeExcursionRow = z.object({
  id: z.string(),
  symbol: z.string(),
  direction: z.enum(['BUY', 'SELL']),
  closed_at: z.string(),
  pnl_minor: z.number().int(),
  /** Price distances from entry (>= 0). */
  mfe_price: z.number(),
  mae_price: z.number(),
  /** In R of the initial stop; null without one. */
  mfe_r: z.number().nullable(),
  mae_r: z.number().nullable(),
  /** In money (minor units); null without a stop and a known risk. */
  mfe_minor: z.number().int().nullable(),
  mae_minor: z.number().int().nullable(),
  /** The result in R; null without a known risk. */
  final_r: z.number().nullable(),
  /** The price went against the trade in an earlier minute than it first went for it. */
  negative_first: z.boolean(),
});
export type TradeExcursionRow = z.infer<typeof tradeExcursionRow>;

export const reportExcursions = z.object({
  ...reportScope,
  /** Closed trades in scope; measured + without candles. */
  trades_total: z.number().int(),
  measured: z.number().int(),
  /** Trades of which no M1 candle between entry and exit is stored (or without an entry price). */
  without_candles: z.object({
    count: z.number().int(),
    /** The most recently closed ones first, at most 500. */
    trades: z.array(
      z.object({ id: z.string(), symbol: z.string(), opened_at: z.string(), closed_at: z.string() }),
    ),
  }),
  winners: z.number().int(),
  winners_negative_first: z.number().int(),
  /** 0..1; null without measured winners. */
  winners_negative_first_share: z.number().nullable(),
  left_on_table: z.array(
    z.object({
      target_r: z.number(),
      /** Trades whose MFE reached the target. */
      reached: z.number().int(),
      /** Of those, the ones that closed below it. */
      closed_below: z.number().int(),
      /** What closing at the target would have added over those trades, minor units. */
      left_minor: z.number().int(),
    }),
  ),
  /** One page of the measured trades, most recently closed first. */
  offset: z.number().int(),
  limit: z.number().int(),
  trades: z.array(tradeExcursionRow),
});
export type ReportExcursions = z.infer<typeof reportExcursions>;
