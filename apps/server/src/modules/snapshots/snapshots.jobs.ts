import { registerJobKind } from '../../jobs';
import { MAX_TASK_ATTEMPTS, runSnapshotTask } from './snapshot-task';

export const SNAPSHOT_JOB = 'snapshots.render';

/**
 * A snapshot task runs as a job of the app's runner, which resumes it after a restart. One attempt more
 * than the task allows itself, so the task row (what the API shows) is the one that records giving up.
 */
registerJobKind<{ taskId: string }, { charts: number }>(
  SNAPSHOT_JOB,
  async ({ job, ctx, signal }) => ({ charts: await runSnapshotTask(ctx, job.payload.taskId, signal) }),
  { maxAttempts: MAX_TASK_ATTEMPTS + 1 },
);
