import type { AppContext } from '../context';
import { jobKind } from './registry';
import { jobsRepo } from './jobs.repo';
import { toJob } from './job-row';

export interface Executor {
  /** Claims the job and runs it to the end; false when it was not ours to run (done, or held). */
  runIfClaimable(id: string): Promise<boolean>;
  /** Aborts every run of this process (shutdown); their leases run out and another worker resumes them. */
  abortAll(): void;
}

export interface ExecutorOptions {
  /** This process's name on the leases it holds. */
  owner: string;
  leaseMs: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const STOPPING = new Error('The worker is stopping.');

/**
 * Runs claimed jobs: the same code behind the in-process runner and the pg-boss workers. The lease is
 * renewed every third of its length while the executor works; losing it aborts the run, and every
 * write of the run is conditional on still holding it, so a worker that was presumed dead can never
 * overwrite the outcome of the worker that took over.
 */
export function createExecutor(ctx: AppContext, opts: ExecutorOptions): Executor {
  const repo = jobsRepo(ctx.db);
  const running = new Set<AbortController>();

  async function claim(id: string): Promise<boolean> {
    const now = Date.now();
    if (await repo.claim(id, opts.owner, iso(now), iso(now + opts.leaseMs))) return true;
    const row = await repo.get(id);
    if (row?.status === 'running' && row.lease_until !== null && row.lease_until < iso(now)) {
      const reason = `The job was stopped ${row.attempts} times before it could finish (its worker process ended); it was not retried again.`;
      if (await repo.failExhausted(id, iso(now), reason))
        ctx.log.warn({ jobId: id }, 'job failed: attempts exhausted');
    }
    return false;
  }

  async function run(id: string): Promise<void> {
    const row = await repo.get(id);
    if (!row) return;
    const job = toJob(row);
    const abort = new AbortController();
    running.add(abort);
    const heartbeat = setInterval(
      () => {
        const now = Date.now();
        repo.renew(id, opts.owner, iso(now), iso(now + opts.leaseMs)).then(
          (held) => {
            if (!held) abort.abort(new Error('The job lease was lost.'));
          },
          (err: unknown) => ctx.log.warn({ err, jobId: id }, 'job lease renewal failed'),
        );
      },
      Math.max(50, Math.floor(opts.leaseMs / 3)),
    );
    try {
      const kind = jobKind(job.kind);
      if (!kind) throw new Error(`Unknown job kind ${job.kind}.`);
      const result = await kind.run({
        job,
        ctx,
        signal: abort.signal,
        async progress(stage, percent) {
          const pct = Math.max(0, Math.min(100, percent));
          if (!(await repo.progress(id, opts.owner, stage, pct, iso(Date.now())))) {
            abort.abort(new Error('The job lease was lost.'));
          }
          abort.signal.throwIfAborted();
        },
      });
      abort.signal.throwIfAborted();
      await repo.finish(
        id,
        opts.owner,
        { status: 'succeeded', result: JSON.stringify(result ?? null) },
        iso(Date.now()),
      );
    } catch (err) {
      // A run that lost its lease leaves the row to whoever holds it now; a run stopped by shutdown
      // hands it back at once, so the next worker need not wait for the lease to run out.
      if (abort.signal.aborted) {
        if (abort.signal.reason === STOPPING) await repo.release(id, opts.owner, iso(Date.now()));
        return;
      }
      const message = err instanceof Error ? err.message : String(err);
      ctx.log.warn({ err, jobId: id, kind: job.kind }, 'job failed');
      await repo.finish(id, opts.owner, { status: 'failed', error: message }, iso(Date.now()));
    } finally {
      clearInterval(heartbeat);
      running.delete(abort);
    }
  }

  return {
    async runIfClaimable(id) {
      if (!(await claim(id))) return false;
      await run(id);
      return true;
    },
    abortAll() {
      for (const a of running) a.abort(STOPPING);
    },
  };
}
