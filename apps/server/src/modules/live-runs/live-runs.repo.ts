import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db';
import type { LiveRunLogsTable, LiveRunsTable, LiveRunTradesTable } from '../../db/schema';

/** Statuses in which a run holds its version+account slot and a server process may be driving it. */
export const ACTIVE_STATUSES = ['STARTING', 'RUNNING', 'STOPPING'] as const;

/** Queries of live runs; reads for a user are scoped by user_id, the runner's by the run id it holds. */
export function liveRunsRepo(db: Db) {
  const withNames = () =>
    db
      .selectFrom('live_runs')
      .innerJoin('bots', 'bots.id', 'live_runs.bot_id')
      .innerJoin('trading_accounts', 'trading_accounts.id', 'live_runs.account_id')
      .selectAll('live_runs')
      .select([
        'bots.name as bot_name',
        'trading_accounts.name as account_name',
        'trading_accounts.platform as account_platform',
      ]);
  return {
    insert: (row: Insertable<LiveRunsTable>) => db.insertInto('live_runs').values(row).execute(),
    byIdFor: (userId: string, id: string) =>
      withNames().where('live_runs.user_id', '=', userId).where('live_runs.id', '=', id).executeTakeFirst(),
    listFor: (userId: string, versionId?: string) => {
      let q = withNames().where('live_runs.user_id', '=', userId);
      if (versionId) q = q.where('live_runs.bot_version_id', '=', versionId);
      return q.orderBy('live_runs.created_at', 'desc').orderBy('live_runs.id').execute();
    },
    byId: (id: string) => db.selectFrom('live_runs').selectAll().where('id', '=', id).executeTakeFirst(),
    status: async (id: string) =>
      (await db.selectFrom('live_runs').select('status').where('id', '=', id).executeTakeFirst())?.status,
    update: (id: string, set: Updateable<LiveRunsTable>) =>
      db.updateTable('live_runs').set(set).where('id', '=', id).execute(),
    /** Changes a run only while it is in one of `from`; the number of rows changed (0 or 1). */
    async transition(id: string, from: readonly LiveRunsTable['status'][], set: Updateable<LiveRunsTable>) {
      const r = await db
        .updateTable('live_runs')
        .set(set)
        .where('id', '=', id)
        .where('status', 'in', [...from])
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    activeIdsFor: (userId: string) =>
      db
        .selectFrom('live_runs')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', 'in', [...ACTIVE_STATUSES])
        .execute(),
    bumpCounts: (id: string, orders: number, refused: number) =>
      db
        .updateTable('live_runs')
        .set({
          orders_count: sql<number>`orders_count + ${orders}`,
          refused_count: sql<number>`refused_count + ${refused}`,
        })
        .where('id', '=', id)
        .execute(),

    /**
     * Takes the hold on a run for this process: free, already ours, or expired. One conditional
     * UPDATE, so two processes never drive the same run.
     */
    async claim(id: string, owner: string, nowIso: string, untilIso: string) {
      const r = await db
        .updateTable('live_runs')
        .set({ lease_owner: owner, lease_until: untilIso })
        .where('id', '=', id)
        .where('status', 'in', [...ACTIVE_STATUSES])
        .where((eb) =>
          eb.or([
            eb('lease_owner', 'is', null),
            eb('lease_owner', '=', owner),
            eb('lease_until', '<', nowIso),
          ]),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async renew(id: string, owner: string, untilIso: string, heartbeat: string) {
      const r = await db
        .updateTable('live_runs')
        .set({ lease_until: untilIso, last_heartbeat: heartbeat })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    release: (id: string, owner: string) =>
      db
        .updateTable('live_runs')
        .set({ lease_owner: null, lease_until: null })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .execute(),
    /** Active runs no process holds (after a restart or a crash), oldest first. */
    orphans: (nowIso: string) =>
      db
        .selectFrom('live_runs')
        .select('id')
        .where('status', 'in', [...ACTIVE_STATUSES])
        .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_until', '<', nowIso)]))
        .orderBy('created_at')
        .execute(),

    insertLog: (row: LiveRunLogsTable) => db.insertInto('live_run_logs').values(row).execute(),
    lastSeq: async (runId: string) =>
      Number(
        (
          await db
            .selectFrom('live_run_logs')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .where('run_id', '=', runId)
            .executeTakeFirst()
        )?.seq ?? 0,
      ),
    /** The last `limit` lines, oldest first. */
    logs: async (userId: string, runId: string, limit: number) =>
      (
        await db
          .selectFrom('live_run_logs')
          .select(['seq', 'time', 'level', 'message'])
          .where('user_id', '=', userId)
          .where('run_id', '=', runId)
          .orderBy('seq', 'desc')
          .limit(limit)
          .execute()
      ).reverse(),

    /** Links a trade to the run that placed it; a second link of the same trade is a no-op. */
    linkTrade: (row: LiveRunTradesTable) =>
      db
        .insertInto('live_run_trades')
        .values(row)
        .onConflict((oc) => oc.column('trade_id').doNothing())
        .execute(),
    trades: (runId: string) =>
      db
        .selectFrom('live_run_trades')
        .innerJoin('trades', 'trades.id', 'live_run_trades.trade_id')
        .selectAll('trades')
        .select('live_run_trades.bar_time')
        .where('live_run_trades.run_id', '=', runId)
        .orderBy('trades.created_at')
        .orderBy('trades.id')
        .execute(),
    /** The run's trades that are (or may become) positions: submitting, pending or open. */
    liveTrades: (runId: string) =>
      db
        .selectFrom('live_run_trades')
        .innerJoin('trades', 'trades.id', 'live_run_trades.trade_id')
        .selectAll('trades')
        .where('live_run_trades.run_id', '=', runId)
        .where('trades.status', 'in', ['submitting', 'pending', 'open'])
        .orderBy('trades.created_at')
        .execute(),
    /** Open trades of an account placed by live runs, with the bot's name. */
    botPositions: (userId: string, accountId: string) =>
      db
        .selectFrom('live_run_trades')
        .innerJoin('trades', 'trades.id', 'live_run_trades.trade_id')
        .innerJoin('live_runs', 'live_runs.id', 'live_run_trades.run_id')
        .innerJoin('bots', 'bots.id', 'live_runs.bot_id')
        .select(['trades.id as trade_id', 'live_runs.id as live_run_id', 'bots.name as bot_name'])
        .where('live_run_trades.user_id', '=', userId)
        .where('trades.account_id', '=', accountId)
        .where('trades.status', 'in', ['pending', 'open'])
        .execute(),

    /** A bot is active while any of its live runs is RUNNING. */
    refreshBotActive: (botId: string) =>
      db
        .updateTable('bots')
        .set((eb) => ({
          is_active: eb
            .case()
            .when(
              eb.exists(
                eb
                  .selectFrom('live_runs')
                  .select('live_runs.id')
                  .where('live_runs.bot_id', '=', botId)
                  .where('live_runs.status', '=', 'RUNNING'),
              ),
            )
            .then(1)
            .else(0)
            .end(),
        }))
        .where('id', '=', botId)
        .execute(),
  };
}
export type LiveRunsRepo = ReturnType<typeof liveRunsRepo>;
