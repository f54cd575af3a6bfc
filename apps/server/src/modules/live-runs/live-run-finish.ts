/**
 * The facts a live run is driven from (read once when its runner starts) and the one way a run ends:
 * positions closed when asked, the row STOPPED or FAILED with the reason, the version+account slot
 * freed, the bot's is_active refreshed and the watchers told.
 */
import type { LiveTimeframe } from '@tradedesk/contract';
import { decodeArmedStops, describeStop, type ArmedStop } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import type { TradingAccountsTable } from '../../db/schema';
import { knownErrorToHttp } from '../../lib/error-status';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { botsRepo } from '../bots/bots.repo';
import { positionsService } from '../trades/positions.service';
import { riskSettingsOf } from '../trades/risk-check';
import { tradeSync } from '../trade-sync/trade-sync';
import { liveRunEvents } from './live-run-events';
import { ACTIVE_STATUSES, liveRunsRepo } from './live-runs.repo';

export interface RunFacts {
  user: AuthUser;
  account: TradingAccountsTable;
  botId: string;
  symbols: string[];
  timeframe: LiveTimeframe;
  cursor: Record<string, number>;
  /** The stop entries the run holds until the quote crosses them (kept across restarts). */
  armedStops: ArmedStop[];
  code: string;
  paramsJson: string;
  strategyTag: string;
  journalTimeframe: string;
  riskPercent: number;
  startedAt: string | null;
  /** Set when the run was asked to stop before this runner took it (another process, a restart). */
  stopRequested: { reason: string; close: boolean } | null;
  /** The account's clock: the simulator's for a SIM account, else the real one. */
  clock: () => number;
  accountInfo: () => Promise<{ balance: number }>;
}

/** The journal's trade timeframes (spec: 1M, 5M, 15M, 1H, 4H, 1D), nearest at or below the run's. */
const JOURNAL_TIMEFRAME: Record<LiveTimeframe, string> = {
  M1: '1M',
  M3: '1M',
  M5: '5M',
  M15: '15M',
  M30: '15M',
  H1: '1H',
  H2: '1H',
  H4: '4H',
  D1: '1D',
};

/** The clock a run of this account reads bars by. */
export function accountClock(ctx: AppContext, account: TradingAccountsTable): () => number {
  return account.platform === 'SIM' ? brokerRegistry(ctx).sim.now : Date.now;
}

/** "<bot name> v<n>", n counting the bot's versions from the oldest. */
export async function strategyTagOf(
  ctx: AppContext,
  userId: string,
  botName: string,
  botId: string,
  versionId: string,
) {
  const versions = await botsRepo(ctx.db).versions(userId, botId);
  const n = versions.length - versions.findIndex((v) => v.id === versionId);
  return `${botName} v${n}`;
}

export async function loadRunFacts(ctx: AppContext, runId: string): Promise<RunFacts | undefined> {
  const run = await liveRunsRepo(ctx.db).byId(runId);
  if (!run || !ACTIVE_STATUSES.includes(run.status as (typeof ACTIVE_STATUSES)[number])) return undefined;
  const bots = botsRepo(ctx.db);
  const version = await bots.version(run.user_id, run.bot_version_id);
  const bot = await bots.bot(run.user_id, run.bot_id);
  const userRow = await ctx.db
    .selectFrom('users')
    .select(['id', 'username', 'is_staff'])
    .where('id', '=', run.user_id)
    .executeTakeFirst();
  if (!version || !bot || !userRow) throw new Error('The bot, its version or its owner was deleted.');
  const user: AuthUser = { id: userRow.id, username: userRow.username, is_staff: Boolean(userRow.is_staff) };
  const account = await accountsRepo(ctx.db).ownedOr404(user.id, run.account_id);
  const settings = await riskSettingsOf(ctx.db, user, account.id);
  const timeframe = run.timeframe as LiveTimeframe;
  return {
    user,
    account,
    botId: bot.id,
    symbols: JSON.parse(run.symbols) as string[],
    timeframe,
    cursor: JSON.parse(run.cursor) as Record<string, number>,
    armedStops: decodeArmedStops(run.armed_stops),
    code: version.strategy_file_content,
    paramsJson: version.params,
    strategyTag: await strategyTagOf(ctx, user.id, bot.name, bot.id, version.id),
    journalTimeframe: JOURNAL_TIMEFRAME[timeframe] ?? '1H',
    riskPercent: settings.risk_percent ?? 0.5,
    startedAt: run.started_at,
    stopRequested:
      run.status === 'STOPPING'
        ? { reason: run.stop_reason ?? 'Stopped by the user.', close: run.close_on_stop === 1 }
        : null,
    clock: accountClock(ctx, account),
    accountInfo: async () => (await tradeSync(ctx).attach(account)).accountInfo(),
  };
}

export async function finishRun(
  ctx: AppContext,
  runId: string,
  end: {
    status: 'STOPPED' | 'FAILED';
    reason: string;
    close: boolean;
    owner?: string;
    log: (level: 'info' | 'warn' | 'error', message: string) => Promise<void>;
  },
): Promise<void> {
  const repo = liveRunsRepo(ctx.db);
  const run = await repo.byId(runId);
  if (!run) return;
  if (end.close) {
    const user = { id: run.user_id, username: '', is_staff: false };
    for (const t of await repo.liveTrades(runId)) {
      if (t.status === 'submitting') continue;
      try {
        const res = await positionsService(ctx).close(user, t.id);
        await end.log(
          'info',
          `Closed ${t.direction} ${t.symbol} ${t.id.slice(0, 8)} on stop: ${res.message}`,
        );
      } catch (e) {
        const detail = knownErrorToHttp(e)?.detail ?? (e as Error)?.message;
        await end.log('warn', `Could not close ${t.id.slice(0, 8)} on stop: ${String(detail)}`);
      }
    }
  }
  const changed = await repo.transition(runId, ACTIVE_STATUSES, {
    status: end.status,
    stopped_at: nowIso(),
    active_key: null,
    lease_owner: null,
    lease_until: null,
    error_message: end.status === 'FAILED' ? end.reason : null,
    stop_reason: end.status === 'STOPPED' ? end.reason : null,
    armed_stops: '[]',
  });
  if (!changed) return;
  for (const s of decodeArmedStops(run.armed_stops))
    await end.log('info', `Stop entry ${describeStop(s)} cancelled: the run ended.`);
  await end.log(
    end.status === 'FAILED' ? 'error' : 'info',
    `${end.status === 'FAILED' ? 'Failed' : 'Stopped'}: ${end.reason}`,
  );
  await repo.refreshBotActive(run.bot_id);
  const events = liveRunEvents(ctx);
  events.status(runId, end.status);
  events.forget(runId);
}
