import type { Kysely } from 'kysely';

/**
 * Every long task (analysis jobs, instrument downloads, snapshot tasks, backtests) is a row here: the
 * row is the truth about the job (status, stage, progress, result, error); a queue only says "look at
 * row X". A running row carries a lease (owner + until) that its worker renews; a row whose lease ran
 * out belongs to a worker that died and may be claimed again, so a job is never lost and never runs in
 * two places at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('payload', 'text', (c) => c.notNull())
    // queued | running | succeeded | failed
    .addColumn('status', 'text', (c) => c.notNull())
    // Kind-specific step name (e.g. FETCHING_DATA) and 0-100 progress within the whole job.
    .addColumn('stage', 'text')
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    // ISO instants compare as text: one query for both dialects.
    .addColumn('lease_until', 'text')
    .addColumn('heartbeat_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_status').on('jobs').columns(['status', 'created_at']).execute();
  await db.schema
    .createIndex('jobs_user_kind')
    .on('jobs')
    .columns(['user_id', 'kind', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}
