import type { Kysely } from 'kysely';

/**
 * Snapshot tasks: the queue is this table. A row is PENDING until a runner claims it (RUNNING), then
 * COMPLETED or FAILED. Rows left RUNNING by a stopped process are taken up again after a restart.
 * The template's settings are copied in at request time, so editing or deleting the template later
 * does not change a chart already asked for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('snapshot_tasks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('journal_id', 'text', (c) => c.notNull().references('trade_journals.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('config_name', 'text', (c) => c.notNull())
    .addColumn('indicator_settings', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    // JSON array of the spec's timeframe names.
    .addColumn('timeframes', 'text', (c) => c.notNull())
    .addColumn('theme', 'text', (c) => c.notNull())
    // Instant the charts are drawn around (the trade's open), and the trade's levels as JSON.
    .addColumn('anchor_at', 'text', (c) => c.notNull())
    .addColumn('levels', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    // JSON array of attachment ids made so far: a resumed task skips the timeframes already attached.
    .addColumn('attachment_ids', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('snapshot_tasks_status')
    .on('snapshot_tasks')
    .columns(['status', 'created_at'])
    .execute();
  await db.schema
    .createIndex('snapshot_tasks_journal')
    .on('snapshot_tasks')
    .columns(['user_id', 'journal_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('snapshot_tasks').execute();
}
