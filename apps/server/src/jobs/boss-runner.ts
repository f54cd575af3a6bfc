import { PgBoss } from 'pg-boss';
import type { Executor } from './execute';
import type { jobsRepo } from './jobs.repo';
import type { Runner } from './local-runner';

/** The one pg-boss queue: its messages only name a `jobs` row, which says everything else. */
export const JOBS_QUEUE = 'tradedesk-jobs';

/** pg-boss keeps its tables in a schema of its own beside ours (`pgboss`, or `<schema>_pgboss`). */
export function bossSchemaFor(appSchema: string): string {
  return appSchema === 'public' ? 'pgboss' : `${appSchema}_pgboss`;
}

/**
 * On PostgreSQL pg-boss carries the queue, so that any number of processes (the server and every
 * `npm run worker`, on any machine with the same DATABASE_URL) share the work. The row's lease, not
 * pg-boss, is what guarantees a job never runs in two places at once: a duplicate delivery finds the
 * row done or held and returns. A sweep re-sends rows that wait without a live pg-boss job (the
 * server stopped between writing the row and sending, or a worker died holding it); the queue's
 * `short` policy keyed by job id (at most one waiting message per job, any number active) keeps those
 * re-sends from piling up while still letting one through when a dead worker's message is stuck active.
 */
export async function createBossRunner(
  repo: ReturnType<typeof jobsRepo>,
  executor: Executor,
  opts: {
    connectionString: string;
    schema: string;
    concurrency: number;
    sweepMs: number;
    onError: (err: unknown) => void;
  },
): Promise<Runner> {
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    schema: opts.schema,
    max: 4,
    schedule: false,
    registerInstance: false,
  });
  boss.on('error', opts.onError);
  await boss.start();
  if (!(await boss.getQueue(JOBS_QUEUE))) {
    try {
      await boss.createQueue(JOBS_QUEUE, { policy: 'short', retryLimit: 5, retryDelay: 1 });
    } catch (err) {
      // Another process created it between our look and our create.
      if (!(await boss.getQueue(JOBS_QUEUE))) throw err;
    }
  }

  const send = (id: string) => boss.send(JOBS_QUEUE, { jobId: id }, { singletonKey: id });

  // Runs in flight here, so that stopping waits for them to hand their rows back.
  const inFlight = new Set<Promise<unknown>>();
  if (opts.concurrency > 0) {
    await boss.work<{ jobId: string }>(
      JOBS_QUEUE,
      { localConcurrency: opts.concurrency, pollingIntervalSeconds: 0.5 },
      async ([job]) => {
        if (!job) return;
        const run = executor.runIfClaimable(job.data.jobId);
        inFlight.add(run);
        try {
          await run;
        } finally {
          inFlight.delete(run);
        }
      },
    );
  }

  let stopped = false;
  const sweep = async () => {
    try {
      for (const id of await repo.claimable(new Date().toISOString(), 100)) {
        if (stopped) return;
        await send(id);
      }
    } catch (err) {
      if (!stopped) opts.onError(err);
    }
  };
  const timer = setInterval(() => void sweep(), opts.sweepMs);
  timer.unref();

  return {
    async notify(id) {
      await send(id);
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      executor.abortAll();
      // Aborted runs release their rows; an executor that ignores its signal gets 5 s, then its lease
      // simply runs out. pg-boss itself need not wait: its messages only point at rows.
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise((r) => setTimeout(r, 5000).unref()),
      ]);
      await boss.stop({ graceful: false });
    },
  };
}
