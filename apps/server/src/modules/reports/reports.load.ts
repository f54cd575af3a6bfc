import { currencyDecimals, type ReportColumns } from '@tradedesk/domain';
import { REPORT_MESSAGES, type ReportsQuery } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { badRequest } from '../../lib/http-error';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { timeZoneResolver } from '../users/user-settings.service';
import { rangeOf } from '../history/history.service';
import { joinChunks } from './reports.columns';
import { factsReader, type FactChunk } from './reports.facts';

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
  /** Closed trades in closing order, narrowed by the range, the instrument and the tag. */
  trades: ReportColumns;
  /** The months read (by month, then account), with their trade data when asked for. */
  chunks: FactChunk[];
  /** For each trade, its chunk in `chunks` and its position there. */
  chunkOf: Uint32Array;
  localOf: Uint32Array;
}

/** Reads what every report starts from: the accounts asked for and their closed trades in scope. */
export function reportsLoader(ctx: AppContext) {
  const accounts = accountsRepo(ctx.db);
  const read = factsReader(ctx.db);
  const zoneOf = timeZoneResolver(ctx);

  /**
   * The accounts asked for (404 for an account that is not the user's) and the trades in scope;
   * `withTradeData` also reads ids, entry prices and stop distances (MFE/MAE).
   */
  return async function load(
    user: AuthUser,
    q: ReportsQuery,
    opts: { withTradeData?: boolean } = {},
  ): Promise<LoadedReport> {
    const range = rangeOf(q);
    const [rows, timeZone] = await Promise.all([
      q.account ? accounts.ownedOr404(user.id, q.account).then((a) => [a]) : accounts.listFor(user.id),
      zoneOf(user.id, q.tz),
    ]);
    const currencies = [...new Set(rows.map((a) => a.currency))];
    if (currencies.length > 1) throw badRequest({ account: [REPORT_MESSAGES.mixedCurrencies] });
    const currency = currencies[0] ?? 'USD';
    const accountIds = rows.map((a) => a.id);
    // Trades of several accounts in one month are put in order by id, which the trade data holds.
    const chunks = await read(
      user.id,
      accountIds,
      range.from?.slice(0, 7),
      range.toExclusive?.slice(0, 7),
      opts.withTradeData === true || accountIds.length > 1,
    );
    const tag = q.tag?.trim().toLowerCase();
    const { trades, chunkOf, localOf } = joinChunks(chunks, {
      from: range.from,
      toExclusive: range.toExclusive,
      instrument: q.instrument?.trim().toUpperCase() || undefined,
      tag: tag || undefined,
    });
    return {
      scope: {
        accounts: accountIds,
        currency,
        currency_decimals: currencyDecimals(currency),
        time_zone: timeZone,
      },
      accountRows: rows,
      trades,
      chunks,
      chunkOf,
      localOf,
    };
  };
}
