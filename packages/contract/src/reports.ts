import { z } from 'zod';
import { HISTORY_MESSAGES, parseHistoryBound } from './history';

/**
 * Reports (issue 15): the closed trades of one account or of all the user's accounts, in a range
 * of closing dates, summarised and broken down. Money is integer minor units of `currency`
 * (`*_minor` fields; `currency_decimals` says where the point goes). `from`/`to` work as in the
 * history API (dates or zoned instants, `to` inclusive). `tz` is the IANA zone days, weekdays and
 * hours are read in (UTC by default). Without `account`, every account of the user counts; they
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
] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

export const REPORT_MESSAGES = {
  badTimeZone: 'Time zone must be an IANA name such as Europe/London or UTC.',
  badDimension: `Breakdowns must be one or more of ${REPORT_DIMENSIONS.join(', ')}, separated by commas.`,
  mixedCurrencies: 'These accounts are in different currencies and cannot be added up; choose one account.',
  badTag: 'Tag must be at most 100 characters.',
} as const;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

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
