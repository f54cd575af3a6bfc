import { currencyDecimals, type ReportTrade } from '@tradedesk/domain';
import { REPORT_MESSAGES, type ReportsQuery } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { badRequest } from '../../lib/http-error';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { rangeOf } from '../history/history.service';
import { reportsRepo, type ReportFilter } from './reports.repo';
import { toReportTrades } from './reports.model';

export interface ReportScope {
  accounts: string[];
  currency: string;
  currency_decimals: number;
  time_zone: string;
}

export interface LoadedReport {
  scope: ReportScope;
  /** The accounts in scope (owned by the user). */
  accountRows: TradingAccountsTable[];
  filter: ReportFilter;
  /** Closed trades in closing order, with their journals, narrowed by the tag. */
  trades: ReportTrade[];
}

/** Reads what every report starts from: the accounts asked for and their closed trades in scope. */
export function reportsLoader(ctx: AppContext) {
  const repo = reportsRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);

  /** The accounts asked for (404 for an account that is not the user's) and the trades in scope. */
  return async function load(user: AuthUser, q: ReportsQuery): Promise<LoadedReport> {
    const range = rangeOf(q);
    const rows = q.account
      ? [await accounts.ownedOr404(user.id, q.account)]
      : await accounts.listFor(user.id);
    const currencies = [...new Set(rows.map((a) => a.currency))];
    if (currencies.length > 1) throw badRequest({ account: [REPORT_MESSAGES.mixedCurrencies] });
    const currency = currencies[0] ?? 'USD';
    const filter: ReportFilter = {
      userId: user.id,
      accountIds: rows.map((a) => a.id),
      from: range.from,
      toExclusive: range.toExclusive,
      instrument: q.instrument?.trim().toUpperCase(),
    };
    const tag = q.tag?.trim().toLowerCase();
    // The database narrows to trades with a journal tag containing it (ASCII only: both dialects
    // lower-case ASCII alike); the exact rule (the latest tag, trimmed, any case) is applied below.
    if (tag && /^[\x20-\x7e]+$/.test(tag)) filter.tagContains = tag;
    const [closed, journals] = await Promise.all([repo.closedTrades(filter), repo.journals(filter)]);
    let trades = toReportTrades(closed, journals);
    if (tag) trades = trades.filter((t) => t.strategy_tag?.toLowerCase() === tag);
    return {
      scope: {
        accounts: filter.accountIds,
        currency,
        currency_decimals: currencyDecimals(currency),
        time_zone: q.tz ?? 'UTC',
      },
      accountRows: rows,
      filter,
      trades,
    };
  };
}
