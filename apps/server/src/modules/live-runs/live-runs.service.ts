/** Live runs: start (checks and the one-run-per-version-and-account rule), read, stop, kill switch, logs. */
import {
  LIVE_RUN_MESSAGES,
  LIVE_TIMEFRAMES,
  openPositionsResponse,
  type LiveRun,
  type LiveRunDetail,
  type LiveRunStart,
  type LiveTimeframe,
} from '@tradedesk/contract';
import {
  currencyDecimals,
  fromMinor,
  lastClosedBarOpen,
  sumMinor,
  TIMEFRAME_MS,
  toMinor,
} from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import type { Insertable } from 'kysely';
import type { LiveRunsTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { conflict, notFound, unprocessable } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { botsRepo } from '../bots/bots.repo';
import { positionsService } from '../trades/positions.service';
import { accountClock } from './live-run-finish';
import { liveRunEvents } from './live-run-events';
import { liveRunManager } from './live-run-manager';
import { liveRunsRepo } from './live-runs.repo';

type RunRow = NonNullable<Awaited<ReturnType<ReturnType<typeof liveRunsRepo>['byIdFor']>>>;

const REAL_PLATFORMS = new Set(['MT5', 'cTrader']);

export const liveRunWire = (r: RunRow): LiveRun => ({
  id: r.id,
  bot_id: r.bot_id,
  bot_name: r.bot_name,
  bot_version_id: r.bot_version_id,
  account_id: r.account_id,
  account_name: r.account_name,
  account_platform: r.account_platform,
  symbols: JSON.parse(r.symbols) as string[],
  timeframe: r.timeframe,
  status: r.status,
  created_at: r.created_at,
  started_at: r.started_at,
  stopped_at: r.stopped_at,
  last_heartbeat: r.last_heartbeat,
  last_bar_at: lastBarAt(r.cursor),
  error_message: r.error_message,
  stop_reason: r.stop_reason,
  orders: Number(r.orders_count),
  refused_orders: Number(r.refused_count),
});

/** The newest closed bar the run has dealt with (at start: the bar that closed before it started). */
function lastBarAt(cursor: string): string | null {
  const times = Object.values(JSON.parse(cursor) as Record<string, number>);
  return times.length ? new Date(Math.max(...times)).toISOString() : null;
}

/** Symbols and timeframe of a run: the request's, else the version's params, else EURUSD H1. */
function marketOf(
  params: Record<string, unknown>,
  body: LiveRunStart,
): { symbols: string[]; timeframe: LiveTimeframe } {
  const fromParams = Array.isArray(params.symbols)
    ? params.symbols
    : typeof params.symbol === 'string'
      ? [params.symbol]
      : ['EURUSD'];
  const symbols = [...new Set((body.symbols ?? fromParams).map((s) => String(s).trim().toUpperCase()))];
  if (!symbols.length || symbols.length > 5 || symbols.some((s) => !/^[A-Z0-9._#-]{1,40}$/.test(s)))
    throw unprocessable(LIVE_RUN_MESSAGES.symbols);
  const timeframe = body.timeframe ?? params.timeframe ?? 'H1';
  if (!LIVE_TIMEFRAMES.includes(timeframe as LiveTimeframe)) throw unprocessable(LIVE_RUN_MESSAGES.timeframe);
  return { symbols, timeframe: timeframe as LiveTimeframe };
}

export function liveRunsService(ctx: AppContext) {
  const repo = liveRunsRepo(ctx.db);
  const bots = botsRepo(ctx.db);
  const manager = liveRunManager(ctx);
  const runOr404 = async (user: AuthUser, id: string) =>
    (await repo.byIdFor(user.id, id)) ?? Promise.reject(notFound(LIVE_RUN_MESSAGES.runNotFound));

  async function detail(user: AuthUser, id: string): Promise<LiveRunDetail> {
    const run = await runOr404(user, id);
    const trades = await repo.trades(run.id);
    const currency = trades[0]?.currency ?? null;
    const decimals = currencyDecimals(currency ?? 'USD');
    const realisedMinor = sumMinor(trades.map((t) => Number(t.actual_pl_minor ?? 0)));
    let open: LiveRunDetail['open_positions'] = [];
    let openPl: number | null = 0;
    const liveIds = new Set(trades.filter((t) => t.status === 'open').map((t) => t.id));
    if (liveIds.size) {
      try {
        const all = openPositionsResponse.parse(
          JSON.parse(await positionsService(ctx).openPositions(user, run.account_id)),
        ).open_positions;
        open = all.filter((p) => liveIds.has(p.id));
        openPl = fromMinor(sumMinor(open.map((p) => toMinor(p.current_pl ?? 0, decimals))), decimals);
      } catch {
        openPl = null;
      }
    }
    const realised = fromMinor(realisedMinor, decimals);
    return {
      ...liveRunWire(run),
      trades: trades.map((t) => ({
        id: t.id,
        symbol: t.symbol,
        direction: t.direction,
        lot_size: t.volume,
        entry_price: t.entry_price,
        status: t.status,
        profit_loss: t.actual_pl_minor === null ? null : fromMinor(Number(t.actual_pl_minor), decimals),
        reason: t.reason,
        bar_time: t.bar_time,
        created_at: t.created_at,
        closed_at: t.closed_at,
      })),
      open_positions: open,
      realised_pl: realised,
      open_pl: openPl,
      profit_loss: fromMinor(realisedMinor + toMinor(openPl ?? 0, decimals), decimals),
      currency,
    };
  }

  return {
    async start(user: AuthUser, body: LiveRunStart): Promise<{ id: string }> {
      const version = await bots.version(user.id, body.bot_version_id);
      const bot = version && (await bots.bot(user.id, version.bot_id));
      if (!version || !bot) throw notFound(LIVE_RUN_MESSAGES.versionNotFound);
      const account = await accountsRepo(ctx.db).ownedOr404(user.id, body.account_id ?? bot.account_id);
      if (REAL_PLATFORMS.has(account.platform) && body.confirm_real_account !== true)
        throw unprocessable(LIVE_RUN_MESSAGES.confirmRealAccount);
      const { symbols, timeframe } = marketOf(JSON.parse(version.params) as Record<string, unknown>, body);
      // Unknown symbols are refused now (404), and a down broker answers 502, before anything runs.
      await brokerRegistry(ctx).use(account, async (a) => {
        for (const s of symbols) await a.symbolInfo(s);
      });
      const now = accountClock(ctx, account)();
      // The strategy acts from the next bar that closes: the one closed now is already history.
      const first = lastClosedBarOpen(now, TIMEFRAME_MS[timeframe]);
      const row: Insertable<LiveRunsTable> = {
        id: newId(),
        user_id: user.id,
        bot_id: bot.id,
        bot_version_id: version.id,
        account_id: account.id,
        symbols: JSON.stringify(symbols),
        timeframe,
        status: 'STARTING',
        active_key: `${version.id}|${account.id}`,
        created_at: nowIso(),
        started_at: null,
        stopped_at: null,
        last_heartbeat: null,
        error_message: null,
        stop_reason: null,
        close_on_stop: 0,
        cursor: JSON.stringify(Object.fromEntries(symbols.map((s) => [s, first]))),
        armed_stops: '[]',
        orders_count: 0,
        refused_count: 0,
        lease_owner: null,
        lease_until: null,
      };
      try {
        await repo.insert(row);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(LIVE_RUN_MESSAGES.alreadyRunning);
        throw e;
      }
      await liveRunEvents(ctx).log(
        row.id,
        user.id,
        'info',
        `Live run requested on ${account.name} (${account.platform}): ${symbols.join(', ')} ${timeframe}.`,
      );
      await manager.start(row.id);
      return { id: row.id };
    },
    list: async (user: AuthUser, versionId?: string) =>
      (await repo.listFor(user.id, versionId)).map(liveRunWire),
    detail,
    async stop(user: AuthUser, id: string, closePositions: boolean): Promise<LiveRunDetail> {
      const run = await runOr404(user, id);
      if (run.status === 'STARTING' || run.status === 'RUNNING' || run.status === 'STOPPING')
        await manager.stop(
          run.id,
          user.id,
          closePositions ? 'Stopped by the user; positions closed.' : 'Stopped by the user.',
          closePositions,
        );
      return detail(user, id);
    },
    /** The kill switch: every active run of the user stops now (positions stay open). */
    async stopAll(user: AuthUser): Promise<{ stopped: number }> {
      const ids = await repo.activeIdsFor(user.id);
      await Promise.all(ids.map(({ id }) => manager.stop(id, user.id, 'Stopped by the kill switch.', false)));
      return { stopped: ids.length };
    },
    async logs(user: AuthUser, id: string, limit: number) {
      await runOr404(user, id);
      return repo.logs(user.id, id, limit);
    },
    runOr404,
    async botPositions(user: AuthUser, accountId: string) {
      await accountsRepo(ctx.db).ownedOr404(user.id, accountId);
      return repo.botPositions(user.id, accountId);
    },
  };
}
