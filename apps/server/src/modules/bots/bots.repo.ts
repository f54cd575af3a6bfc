import type { Db } from '../../db';
import type { BacktestConfigsTable, BacktestRunsTable, BotsTable, BotVersionsTable } from '../../db/schema';

/** Queries of the bots feature; every read is scoped by the owning user. */
export function botsRepo(db: Db) {
  return {
    bots: (userId: string) =>
      db
        .selectFrom('bots')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute(),
    bot: (userId: string, id: string) =>
      db.selectFrom('bots').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst(),
    insertBot: (row: BotsTable) => db.insertInto('bots').values(row).execute(),
    deleteBot: (userId: string, id: string) =>
      db.deleteFrom('bots').where('user_id', '=', userId).where('id', '=', id).execute(),

    versions: (userId: string, botId?: string) => {
      let q = db.selectFrom('bot_versions').selectAll().where('user_id', '=', userId);
      if (botId) q = q.where('bot_id', '=', botId);
      return q.orderBy('created_at', 'desc').orderBy('id').execute();
    },
    version: (userId: string, id: string) =>
      db
        .selectFrom('bot_versions')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    insertVersion: (row: BotVersionsTable) => db.insertInto('bot_versions').values(row).execute(),
    deleteVersion: (userId: string, id: string) =>
      db.deleteFrom('bot_versions').where('user_id', '=', userId).where('id', '=', id).execute(),

    configs: (userId: string, versionId?: string) => {
      let q = db.selectFrom('backtest_configs').selectAll().where('user_id', '=', userId);
      if (versionId) q = q.where('bot_version_id', '=', versionId);
      return q.orderBy('created_at').orderBy('id').execute();
    },
    config: (userId: string, id: string) =>
      db
        .selectFrom('backtest_configs')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    insertConfig: (row: BacktestConfigsTable) => db.insertInto('backtest_configs').values(row).execute(),
    updateConfig: (userId: string, id: string, set: Partial<BacktestConfigsTable>) =>
      db
        .updateTable('backtest_configs')
        .set(set)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .execute(),

    runs: (userId: string, versionId?: string) => {
      let q = db
        .selectFrom('backtest_runs')
        .innerJoin('backtest_configs', 'backtest_configs.id', 'backtest_runs.backtest_config_id')
        .innerJoin('bot_versions', 'bot_versions.id', 'backtest_runs.bot_version_id')
        .selectAll('backtest_runs')
        .select(['backtest_configs.label as config_label', 'bot_versions.bot_id as bot_id'])
        .where('backtest_runs.user_id', '=', userId);
      if (versionId) q = q.where('backtest_runs.bot_version_id', '=', versionId);
      return q.orderBy('backtest_runs.created_at', 'desc').orderBy('backtest_runs.id').execute();
    },
    run: (userId: string, id: string) =>
      db
        .selectFrom('backtest_runs')
        .innerJoin('backtest_configs', 'backtest_configs.id', 'backtest_runs.backtest_config_id')
        .innerJoin('bot_versions', 'bot_versions.id', 'backtest_runs.bot_version_id')
        .selectAll('backtest_runs')
        .select(['backtest_configs.label as config_label', 'bot_versions.bot_id as bot_id'])
        .where('backtest_runs.user_id', '=', userId)
        .where('backtest_runs.id', '=', id)
        .executeTakeFirst(),
    insertRun: (row: BacktestRunsTable) => db.insertInto('backtest_runs').values(row).execute(),
    updateRun: (id: string, set: Partial<BacktestRunsTable>) =>
      db.updateTable('backtest_runs').set(set).where('id', '=', id).execute(),
    /** Runs left unfinished by a stopped server, oldest first. */
    unfinishedRuns: () =>
      db
        .selectFrom('backtest_runs')
        .select('id')
        .where('status', 'in', ['PENDING', 'RUNNING'])
        .orderBy('created_at')
        .execute(),
    runForExecution: (id: string) =>
      db.selectFrom('backtest_runs').selectAll().where('id', '=', id).executeTakeFirst(),
  };
}
export type BotsRepo = ReturnType<typeof botsRepo>;
