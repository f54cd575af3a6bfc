import { FX_SERVER_ZONE, isStatementZone } from '@tradedesk/domain';
import { STATEMENT_MESSAGES, type StatementImport, type StatementImportQuery } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { TradingAccountsTable } from '../../db/schema';
import { perApp } from '../../lib/per-app';
import { badRequest } from '../../lib/http-error';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { brokerRegistry } from '../../brokers/registry';
import { tradeSync } from '../trade-sync/trade-sync';
import { parseStatementOffThread } from './parsers/parse-off-thread';
import { planStatement, previewRows } from './statement-import.plan';
import { matchTrades, writeTrades } from './statement-import.writer';

/** How long the import waits for the account's symbol list before filing symbols without it. */
const SYMBOLS_TIMEOUT_MS = 5000;

export const statementImportService = perApp(build);

function build(ctx: AppContext) {
  const accounts = accountsRepo(ctx.db);
  const brokers = brokerRegistry(ctx);

  /** The account's symbol names, or null when its broker cannot be reached in time. */
  async function symbolsOf(account: TradingAccountsTable): Promise<string[] | null> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), SYMBOLS_TIMEOUT_MS);
      timer.unref();
    });
    try {
      const list = await Promise.race([brokers.use(account, (a) => a.symbols()), timeout]);
      return list ? list.map((s) => s.symbol) : null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Previews (dry run) or imports a statement into the account. Ownership first (another user's
   * account is 404 before the file is even read), then the file, the zone, the symbols.
   */
  async function importStatement(
    user: AuthUser,
    accountId: string,
    q: StatementImportQuery,
    file: Buffer | undefined,
  ): Promise<StatementImport> {
    const account = await accounts.ownedOr404(user.id, accountId);
    if (!file || file.length === 0) throw badRequest({ file: [STATEMENT_MESSAGES.noFile] });
    if (q.time_zone !== undefined && !isStatementZone(q.time_zone))
      throw badRequest({ time_zone: [STATEMENT_MESSAGES.badZone] });
    const parsed = await parseStatementOffThread(file);
    if (!parsed) throw badRequest({ file: [STATEMENT_MESSAGES.unknownFormat] });
    if (!parsed.deals.length && !parsed.cash.length)
      throw badRequest({ file: [STATEMENT_MESSAGES.noTrades] });
    const dryRun = q.dry_run === '1' || q.dry_run === 'true';
    const zone = q.time_zone ?? parsed.zone ?? (parsed.format.startsWith('ctrader') ? 'UTC' : FX_SERVER_ZONE);

    const plan = planStatement(parsed, zone, await symbolsOf(account), account.currency);
    const matches = await matchTrades(ctx.db, account.id, plan.closed, parsed.brokerDealIds);
    const statuses = [...matches.values()].map((m) => m.status);
    const imported = dryRun ? null : await writeTrades(ctx.db, account, plan.closed, matches);
    if (imported && imported.new_deals > 0) tradeSync(ctx).invalidate(account.id);
    if (imported && (imported.new_trades || imported.new_deals))
      ctx.log.info({ account: account.id, format: parsed.format, ...imported }, 'statement imported');
    return {
      ...plan.preview,
      dry_run: dryRun,
      counts: {
        ...plan.preview.counts,
        new_trades: statuses.filter((s) => s === 'new').length,
        known_trades: statuses.filter((s) => s === 'known').length,
      },
      rows: previewRows(plan, (t) => matches.get(t.position_id)?.status ?? 'new'),
      imported,
    };
  }

  return { importStatement };
}
