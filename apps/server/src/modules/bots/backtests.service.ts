/** Backtest launch and runs: the run rows are the queue (PENDING → RUNNING → COMPLETED | FAILED). */
import { BOT_MESSAGES, type BacktestRun, type BacktestRunDetail } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { BacktestRunsTable } from '../../db/schema';
import { badRequest, notFound } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import { enqueueJob } from '../../jobs';
import type { AuthUser } from '../../request-context';
import { BACKTEST_JOB } from './bots.jobs';
import { botsRepo } from './bots.repo';
import { botsService } from './bots.service';

type RunRow = BacktestRunsTable & { config_label: string; bot_id: string };

const parsed = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

export function runWire(r: RunRow): BacktestRun {
  return {
    id: r.id,
    status: r.status,
    bot_version: r.bot_version_id,
    bot_version_details: { bot_id: r.bot_id },
    backtest_config: r.backtest_config_id,
    backtest_config_details: { label: r.config_label },
    data_window_start: r.data_window_start,
    data_window_end: r.data_window_end,
    created_at: r.created_at,
    started_at: r.started_at,
    completed_at: r.completed_at,
    error_message: r.error_message,
    progress: Number(r.progress),
    stats: parsed(r.stats, null),
    equity_curve: parsed(r.equity_curve, []),
    timings: parsed(r.timings, null),
    warnings: parsed(r.warnings, null),
  };
}

function instant(value: string | null | undefined, field: string): string {
  const ms = Date.parse(String(value));
  if (!Number.isFinite(ms)) throw badRequest({ [field]: ['Enter a valid date.'] });
  return new Date(ms).toISOString();
}

export function backtestsService(ctx: AppContext) {
  const repo = botsRepo(ctx.db);
  const bots = botsService(ctx);
  return {
    async launch(
      user: AuthUser,
      body: {
        bot_version_id?: string | null;
        backtest_config_id?: string | null;
        data_window_start?: string | null;
        data_window_end?: string | null;
      },
    ): Promise<BacktestRun> {
      if (!body.data_window_start || !body.data_window_end) throw badRequest(BOT_MESSAGES.windowRequired);
      if (!body.bot_version_id || !body.backtest_config_id)
        throw badRequest(
          Object.fromEntries(
            (['bot_version_id', 'backtest_config_id'] as const)
              .filter((k) => !body[k])
              .map((k) => [k, [BOT_MESSAGES.required]]),
          ),
        );
      const version = await bots.versionOr404(user, body.bot_version_id);
      const config = await bots.configOr404(user, body.backtest_config_id);
      if (config.bot_version_id !== version.id)
        throw badRequest({ backtest_config_id: [BOT_MESSAGES.configVersionMismatch] });
      const start = instant(body.data_window_start, 'data_window_start');
      const end = instant(body.data_window_end, 'data_window_end');
      if (Date.parse(end) <= Date.parse(start))
        throw badRequest({ data_window_end: [BOT_MESSAGES.windowOrder] });
      const row: BacktestRunsTable = {
        id: newId(),
        user_id: user.id,
        bot_version_id: version.id,
        backtest_config_id: config.id,
        status: 'PENDING',
        data_window_start: start,
        data_window_end: end,
        created_at: nowIso(),
        started_at: null,
        completed_at: null,
        error_message: null,
        progress: 0,
        stats: null,
        equity_curve: null,
        trades: null,
        timings: null,
        warnings: null,
      };
      await repo.insertRun(row);
      await enqueueJob(ctx, { kind: BACKTEST_JOB, userId: user.id, payload: { runId: row.id } });
      return runWire({ ...row, config_label: config.label, bot_id: version.bot_id });
    },
    async listRuns(user: AuthUser, versionId?: string): Promise<BacktestRun[]> {
      if (versionId) await bots.versionOr404(user, versionId);
      return (await repo.runs(user.id, versionId)).map((r) => runWire(r as RunRow));
    },
    async getRun(user: AuthUser, id: string): Promise<BacktestRunDetail> {
      const r = await repo.run(user.id, id);
      if (!r) throw notFound(BOT_MESSAGES.runNotFound);
      return { ...runWire(r as RunRow), trades: parsed(r.trades, []) };
    },
  };
}
