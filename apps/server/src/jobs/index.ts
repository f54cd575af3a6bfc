/**
 * The job system: every long task is a `jobs` row, run by the in-process runner (SQLite) or by
 * pg-boss workers (PostgreSQL). See docs/architecture.md ("Jobs") for the API and README for workers.
 */
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { AppContext } from '../context';
import { newId } from '../lib/ids';
import { perApp } from '../lib/per-app';
import { createExecutor } from './execute';
import { jobsRepo } from './jobs.repo';
import { toJob } from './job-row';
import { createLocalRunner, type Runner } from './local-runner';
import { bossSchemaFor, createBossRunner } from './boss-runner';
import { jobKind } from './registry';
import type { Job } from './types';

export { registerJobKind } from './registry';
export type { Job, JobExecutor, JobRun, JobStatus, JobKindOptions } from './types';

interface Runtime {
  runner?: Promise<Runner>;
}

const runtime = perApp<Runtime>(() => ({}));

/**
 * Starts this process's runner (the server calls it once; so does `npm run worker`). `ctx.config`
 * decides how many jobs run here at once (`jobWorkers`, 0 = none: this process only enqueues).
 */
export function startJobs(ctx: AppContext): Promise<void> {
  const rt = runtime(ctx);
  if (!rt.runner) {
    rt.runner = createRunner(ctx);
    // Stopped before the DB closes; a failed start has nothing to stop.
    ctx.onShutdown(async () => (await rt.runner?.catch(() => undefined))?.stop());
  }
  return rt.runner.then(() => undefined);
}

async function createRunner(ctx: AppContext): Promise<Runner> {
  const { jobs } = ctx.config;
  const repo = jobsRepo(ctx.db);
  const owner = `${hostname()}:${process.pid}:${newId().slice(0, 8)}`;
  const executor = createExecutor(ctx, { owner, leaseMs: jobs.leaseMs });
  const onError = (err: unknown) => ctx.log.error({ err }, 'job runner error');
  if (ctx.dialect === 'postgres' && ctx.config.databaseUrl) {
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(ctx.db)).rows[0]?.s;
    return createBossRunner(repo, executor, {
      connectionString: ctx.config.databaseUrl,
      schema: bossSchemaFor(schema ?? 'public'),
      concurrency: jobs.workers,
      sweepMs: jobs.sweepMs,
      onError,
    });
  }
  await repo.expireAllLeases(new Date(0).toISOString());
  return createLocalRunner(repo, executor, { concurrency: jobs.workers, pollMs: jobs.pollMs, onError });
}

export interface EnqueueInput<P> {
  kind: string;
  userId: string;
  payload: P;
}

/** Writes the job row (status `queued`) and hands it to the runner; returns the job as stored. */
export async function enqueueJob<P>(ctx: AppContext, input: EnqueueInput<P>): Promise<Job<P>> {
  const kind = jobKind(input.kind);
  if (!kind) throw new Error(`Unknown job kind ${input.kind}.`);
  const now = new Date().toISOString();
  const row = {
    id: newId(),
    kind: input.kind,
    user_id: input.userId,
    payload: JSON.stringify(input.payload),
    status: 'queued' as const,
    stage: null,
    progress: 0,
    result: null,
    error: null,
    attempts: 0,
    max_attempts: kind.maxAttempts,
    lease_owner: null,
    lease_until: null,
    heartbeat_at: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    finished_at: null,
  };
  await jobsRepo(ctx.db).insert(row);
  const runner = await startJobsRunner(ctx);
  // The row is the truth: if the hand-over fails, the runner's poll or sweep picks the row up later.
  await runner
    .notify(row.id)
    .catch((err: unknown) => ctx.log.warn({ err, jobId: row.id }, 'job notify failed'));
  return toJob<P, never>(row);
}

async function startJobsRunner(ctx: AppContext): Promise<Runner> {
  await startJobs(ctx);
  const runner = runtime(ctx).runner;
  if (!runner) throw new Error('job runner not started');
  return runner;
}

/** The job, whoever owns it (callers check ownership), or undefined. */
export async function getJob<P = unknown, R = unknown>(
  ctx: AppContext,
  id: string,
): Promise<Job<P, R> | undefined> {
  const row = await jobsRepo(ctx.db).get(id);
  return row ? toJob<P, R>(row) : undefined;
}

/** A user's jobs of one kind, newest first. */
export async function listJobs<P = unknown, R = unknown>(
  ctx: AppContext,
  userId: string,
  kind: string,
  limit = 200,
): Promise<Array<Job<P, R>>> {
  return (await jobsRepo(ctx.db).listForUser(userId, kind, limit)).map((r) => toJob<P, R>(r));
}
