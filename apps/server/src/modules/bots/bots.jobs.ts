/** Backtests run as jobs of the job runner (in-process, or pg-boss workers on PostgreSQL). */
import { registerJobKind } from '../../jobs';
import { executeBacktestRun } from './backtest-executor';

export const BACKTEST_JOB = 'backtest';

registerJobKind<{ runId: string }, null>(
  BACKTEST_JOB,
  async ({ job, ctx, signal }) => {
    await executeBacktestRun(ctx, job.payload.runId, signal);
    return null;
  },
  { maxAttempts: 2 },
);
