import {
  MAX_SNAPSHOT_TIMEFRAMES,
  SNAPSHOT_MESSAGES,
  type snapshotRequest,
  type SnapshotTask,
} from '@tradedesk/contract';
import type { z } from 'zod';
import type { TradeLevel } from '../../charts/model';
import type { AppContext } from '../../context';
import type { SnapshotTasksTable } from '../../db/schema';
import { badRequest, notFound } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import { enqueueJob } from '../../jobs';
import type { AuthUser } from '../../request-context';
import { journalService } from '../journal/journal.service';
import { configsService } from './configs.service';
import { SNAPSHOT_JOB } from './snapshots.jobs';
import { tasksRepo } from './tasks.repo';

type SnapshotRequestBody = z.output<typeof snapshotRequest>;

/** The trade's entry, stop and target as the chart labels them; missing ones are left out. */
function tradeLevels(t: {
  entry_price: number | null;
  limit_price: number | null;
  stop_loss: number | null;
  take_profit: number | null;
}): TradeLevel[] {
  const levels: TradeLevel[] = [];
  const entry = t.entry_price ?? t.limit_price;
  if (entry !== null) levels.push({ kind: 'entry', label: 'Entry', price: Number(entry) });
  if (t.stop_loss !== null) levels.push({ kind: 'stop', label: 'SL', price: Number(t.stop_loss) });
  if (t.take_profit !== null) levels.push({ kind: 'target', label: 'TP', price: Number(t.take_profit) });
  return levels;
}

/** Automatic snapshots: a request becomes a task row at once; the runner draws and attaches later. */
export function tasksService(ctx: AppContext) {
  const repo = tasksRepo(ctx.db);
  const configs = configsService(ctx);
  const journals = journalService(ctx);
  return {
    async request(user: AuthUser, body: SnapshotRequestBody): Promise<{ task_id: string }> {
      const symbol = (body.symbol ?? '').trim().toUpperCase();
      if (!symbol) throw badRequest({ symbol: [SNAPSHOT_MESSAGES.symbolRequired] });
      const timeframes = [...new Set(body.timeframes)];
      if (timeframes.length === 0) throw badRequest({ timeframes: [SNAPSHOT_MESSAGES.timeframeRequired] });
      if (timeframes.length > MAX_SNAPSHOT_TIMEFRAMES)
        throw badRequest({ timeframes: [SNAPSHOT_MESSAGES.tooManyTimeframes] });
      const config = await configs.get(user, body.config_id);
      const trade = await repo.journalTrade(user.id, body.journal_entry_id);
      if (!trade) throw notFound(SNAPSHOT_MESSAGES.journalNotFound);
      const now = nowIso();
      const row: SnapshotTasksTable = {
        id: newId(),
        user_id: user.id,
        journal_id: body.journal_entry_id,
        account_id: trade.account_id,
        config_name: config.name,
        indicator_settings: JSON.stringify(config.indicator_settings),
        symbol,
        timeframes: JSON.stringify(timeframes),
        theme: body.theme,
        anchor_at: trade.opened_at ?? trade.created_at,
        // Levels belong to the trade's own symbol; a chart of another symbol gets none.
        levels: JSON.stringify(symbol === trade.symbol.toUpperCase() ? tradeLevels(trade) : []),
        status: 'PENDING',
        error: null,
        attachment_ids: '[]',
        attempts: 0,
        created_at: now,
        updated_at: now,
      };
      await repo.insert(row);
      await enqueueJob(ctx, { kind: SNAPSHOT_JOB, userId: user.id, payload: { taskId: row.id } });
      return { task_id: row.id };
    },
    async get(user: AuthUser, taskId: string): Promise<SnapshotTask> {
      const row = await repo.ownedById(user.id, taskId);
      if (!row) throw notFound('Snapshot task not found.');
      return {
        task_id: row.id,
        status: row.status,
        error: row.error,
        journal_entry_id: row.journal_id,
        symbol: row.symbol,
        timeframes: JSON.parse(row.timeframes),
        attachments: await journals.attachmentsByIds(user.id, JSON.parse(row.attachment_ids)),
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    },
  };
}
