import type { SnapshotTimeframe } from '@tradedesk/contract';
import type { TradeLevel } from '../../charts/model';
import type { AppContext } from '../../context';
import { HttpError } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import { accountsRepo } from '../accounts/accounts.repo';
import { journalService } from '../journal/journal.service';
import { parseStoredSettings } from './configs.service';
import { chartEnd, marketNow, renderSnapshot } from './snapshot-render';
import { tasksRepo } from './tasks.repo';

/** Starts of one task (a process stopped mid-way each time) before it is given up. */
export const MAX_TASK_ATTEMPTS = 3;

const message = (e: unknown) =>
  e instanceof HttpError && typeof e.detail === 'string'
    ? e.detail
    : e instanceof Error
      ? e.message
      : String(e);

/**
 * Renders every timeframe of one snapshot task and attaches each PNG to the journal entry as an
 * ordinary attachment. The ids made so far are written after each chart, and a resumed task skips the
 * timeframes already attached, so a restart never draws or attaches them again. (A process stopped
 * between storing an attachment and recording its id leaves that one chart twice: the price of not
 * holding a transaction open across a render.)
 * Returns how many charts the task holds. A failure is recorded on the task and thrown, so the job
 * fails with the same reason; an abort (the runner is stopping) leaves the task RUNNING to resume.
 */
export async function runSnapshotTask(
  ctx: AppContext,
  taskId: string,
  signal?: AbortSignal,
): Promise<number> {
  const repo = tasksRepo(ctx.db);
  const task = await repo.byId(taskId);
  if (!task) throw new Error('This snapshot task no longer exists.');
  if (task.status === 'COMPLETED' || task.status === 'FAILED') return JSON.parse(task.attachment_ids).length;
  const attempts = Number(task.attempts) + 1;
  if (attempts > MAX_TASK_ATTEMPTS) {
    const error = 'The snapshot was interrupted too many times.';
    await repo.update(taskId, { status: 'FAILED', error, updated_at: nowIso() });
    throw new Error(error);
  }
  await repo.update(taskId, { status: 'RUNNING', attempts, updated_at: nowIso() });
  try {
    const account = await accountsRepo(ctx.db).ownedOr404(task.user_id, task.account_id);
    // Through the schema: a task queued before a template field existed (VWAP) draws with its default.
    const settings = parseStoredSettings(task.indicator_settings);
    const timeframes = JSON.parse(task.timeframes) as SnapshotTimeframe[];
    const levels = JSON.parse(task.levels) as TradeLevel[];
    const done = JSON.parse(task.attachment_ids) as string[];
    const anchor = Date.parse(task.anchor_at);
    const now = marketNow(ctx, account);
    const journals = journalService(ctx);
    for (const timeframe of timeframes.slice(done.length)) {
      signal?.throwIfAborted();
      const png = await renderSnapshot(ctx, {
        account,
        symbol: task.symbol,
        timeframe,
        settings,
        templateName: task.config_name,
        theme: task.theme === 'dark' ? 'dark' : 'light',
        endMs: chartEnd(timeframe, anchor, now),
        levels,
        markerTime: anchor,
      });
      const attachment = await journals.attachFile(task.user_id, task.journal_id, {
        data: png,
        filename: `${task.symbol}-${timeframe}.png`,
      });
      done.push(attachment.id);
      await repo.update(taskId, { attachment_ids: JSON.stringify(done), updated_at: nowIso() });
    }
    await repo.update(taskId, { status: 'COMPLETED', error: null, updated_at: nowIso() });
    return done.length;
  } catch (e) {
    if (signal?.aborted) throw e;
    await repo.update(taskId, { status: 'FAILED', error: message(e), updated_at: nowIso() });
    throw e;
  }
}
