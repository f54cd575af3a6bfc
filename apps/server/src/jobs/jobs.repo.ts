import type { Db } from '../db';
import type { JobsTable } from '../db/schema';

export type JobRow = JobsTable;

/** Queries on the `jobs` table and nothing else; every write to a running job names its lease owner. */
export function jobsRepo(db: Db) {
  return {
    async insert(row: JobRow): Promise<void> {
      await db.insertInto('jobs').values(row).execute();
    },

    get(id: string): Promise<JobRow | undefined> {
      return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
    },

    listForUser(userId: string, kind: string, limit: number): Promise<JobRow[]> {
      return db
        .selectFrom('jobs')
        .selectAll()
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },

    /** Jobs a worker may take now: waiting ones, and running ones whose worker stopped renewing. */
    async claimable(now: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('jobs')
        .select('id')
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
          ]),
        )
        .orderBy('created_at')
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Takes the job if nobody holds it. The condition and the write are one statement, so of two
     * workers racing for the same row exactly one gets it, on SQLite and PostgreSQL alike.
     */
    async claim(id: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
      const r = await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          attempts: eb('attempts', '+', 1),
          lease_owner: owner,
          lease_until: leaseUntil,
          heartbeat_at: now,
          started_at: eb.fn.coalesce('started_at', eb.val(now)),
          updated_at: now,
          error: null,
        }))
        .where('id', '=', id)
        .where((eb) => eb('attempts', '<', eb.ref('max_attempts')))
        .where((eb) =>
          eb.or([
            eb('status', '=', 'queued'),
            eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
          ]),
        )
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Fails a job whose lease ran out after its last allowed attempt (its workers kept dying). */
    async failExhausted(id: string, now: string, reason: string): Promise<boolean> {
      const r = await db
        .updateTable('jobs')
        .set({ status: 'failed', error: reason, lease_owner: null, finished_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .where('lease_until', '<', now)
        .where((eb) => eb('attempts', '>=', eb.ref('max_attempts')))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Renews the lease; false when this owner no longer holds the job. */
    async renew(id: string, owner: string, now: string, leaseUntil: string): Promise<boolean> {
      const r = await db
        .updateTable('jobs')
        .set({ lease_until: leaseUntil, heartbeat_at: now })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async progress(id: string, owner: string, stage: string, progress: number, now: string) {
      const r = await db
        .updateTable('jobs')
        .set({ stage, progress, updated_at: now })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async finish(
      id: string,
      owner: string,
      outcome: { status: 'succeeded'; result: string } | { status: 'failed'; error: string },
      now: string,
    ): Promise<boolean> {
      const r = await db
        .updateTable('jobs')
        .set({
          status: outcome.status,
          result: outcome.status === 'succeeded' ? outcome.result : null,
          error: outcome.status === 'failed' ? outcome.error : null,
          ...(outcome.status === 'succeeded' ? { progress: 100 } : {}),
          lease_owner: null,
          lease_until: null,
          finished_at: now,
          updated_at: now,
        })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Gives a job back untouched by a worker that is shutting down; that attempt does not count. */
    async release(id: string, owner: string, now: string): Promise<void> {
      await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'queued',
          attempts: eb('attempts', '-', 1),
          lease_owner: null,
          lease_until: null,
          updated_at: now,
        }))
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .where('status', '=', 'running')
        .execute();
    },

    /** On SQLite one process owns the file: after its restart no other worker can still hold a lease. */
    async expireAllLeases(epoch: string): Promise<void> {
      await db.updateTable('jobs').set({ lease_until: epoch }).where('status', '=', 'running').execute();
    },
  };
}
