import {
  computeBreakdowns,
  computeCalendar,
  currencyDecimals,
  downsample,
  equityWithDrawdown,
  groupFigures,
  journalDiscipline,
  rHistogram,
  streaks,
  type ReportTrade,
} from '@tradedesk/domain';
import {
  EQUITY_CURVE_MAX_POINTS,
  REPORT_DIMENSIONS,
  REPORT_MESSAGES,
  type ReportBreakdowns,
  type ReportBreakdownsQuery,
  type ReportDimension,
  type ReportSummary,
  type ReportsQuery,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/http-error';
import type { AuthUser } from '../auth/tokens';
import { accountsRepo } from '../accounts/accounts.repo';
import { rangeOf } from '../history/history.service';
import { reportsRepo } from './reports.repo';
import { toReportTrades } from './reports.model';

interface Scope {
  accounts: string[];
  currency: string;
  currency_decimals: number;
  time_zone: string;
}

export function reportsService(ctx: AppContext) {
  const repo = reportsRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);

  /** The accounts asked for (404 for an account that is not the user's) and the trades in scope. */
  async function load(user: AuthUser, q: ReportsQuery): Promise<{ scope: Scope; trades: ReportTrade[] }> {
    const range = rangeOf(q);
    const rows = q.account
      ? [await accounts.ownedOr404(user.id, q.account)]
      : await accounts.listFor(user.id);
    const currencies = [...new Set(rows.map((a) => a.currency))];
    if (currencies.length > 1) throw badRequest({ account: [REPORT_MESSAGES.mixedCurrencies] });
    const currency = currencies[0] ?? 'USD';
    const filter = {
      userId: user.id,
      accountIds: rows.map((a) => a.id),
      from: range.from,
      toExclusive: range.toExclusive,
      instrument: q.instrument?.trim().toUpperCase(),
    };
    const [closed, journals] = await Promise.all([repo.closedTrades(filter), repo.journals(filter)]);
    let trades = toReportTrades(closed, journals);
    const tag = q.tag?.trim().toLowerCase();
    if (tag) trades = trades.filter((t) => t.strategy_tag?.toLowerCase() === tag);
    return {
      scope: {
        accounts: filter.accountIds,
        currency,
        currency_decimals: currencyDecimals(currency),
        time_zone: q.tz ?? 'UTC',
      },
      trades,
    };
  }

  async function summary(user: AuthUser, q: ReportsQuery): Promise<ReportSummary> {
    const { scope, trades } = await load(user, q);
    const equity = equityWithDrawdown(trades);
    return {
      ...scope,
      figures: groupFigures(trades),
      calendar: computeCalendar(trades, scope.time_zone),
      r_histogram: rHistogram(trades),
      // Downsampling keeps two points a bucket plus the last one: one under the cap keeps it a cap.
      equity_curve: downsample(equity.points, EQUITY_CURVE_MAX_POINTS - 1),
      max_drawdown_minor: equity.max_drawdown_minor,
      streaks: streaks(trades),
      discipline: journalDiscipline(trades),
    };
  }

  async function breakdowns(user: AuthUser, q: ReportBreakdownsQuery): Promise<ReportBreakdowns> {
    const dims = q.by
      ? [...new Set(q.by.split(',').map((d) => d.trim() as ReportDimension))]
      : [...REPORT_DIMENSIONS];
    const { scope, trades } = await load(user, q);
    return { ...scope, breakdowns: computeBreakdowns(trades, dims, { timeZone: scope.time_zone }) };
  }

  return { summary, breakdowns };
}
