import {
  breakdownsOf,
  calendarOf,
  columnFigures,
  disciplineOf,
  equityOf,
  histogramOf,
  streaksOf,
} from '@tradedesk/domain';
import {
  EQUITY_CURVE_MAX_POINTS,
  REPORT_DIMENSIONS,
  type ReportBreakdowns,
  type ReportBreakdownsQuery,
  type ReportDimension,
  type ReportSummary,
  type ReportsQuery,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { AuthUser } from '../../request-context';
import { excursionsReport } from './reports.excursions';
import { reportsLoader } from './reports.load';

export function reportsService(ctx: AppContext) {
  const load = reportsLoader(ctx);

  async function summary(user: AuthUser, q: ReportsQuery): Promise<ReportSummary> {
    const { scope, trades } = await load(user, q);
    // Downsampling keeps two points a bucket plus the last one: one under the cap keeps it a cap.
    const equity = equityOf(trades, EQUITY_CURVE_MAX_POINTS - 1);
    return {
      ...scope,
      figures: columnFigures(trades),
      calendar: calendarOf(trades, scope.time_zone),
      r_histogram: histogramOf(trades),
      equity_curve: equity.points,
      max_drawdown_minor: equity.max_drawdown_minor,
      streaks: streaksOf(trades),
      discipline: disciplineOf(trades),
    };
  }

  async function breakdowns(user: AuthUser, q: ReportBreakdownsQuery): Promise<ReportBreakdowns> {
    const dims = q.by
      ? [...new Set(q.by.split(',').map((d) => d.trim() as ReportDimension))]
      : [...REPORT_DIMENSIONS];
    const { scope, trades } = await load(user, q);
    return { ...scope, breakdowns: breakdownsOf(trades, dims, { timeZone: scope.time_zone }) };
  }

  return { summary, breakdowns, excursions: excursionsReport(ctx, load) };
}
