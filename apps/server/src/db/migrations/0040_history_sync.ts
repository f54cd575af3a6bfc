import type { Kysely } from 'kysely';

/**
 * Where the history sync of each account got to: the broker-clock instant up to which its deal
 * history has been read (the next run reads from a little before it, so late deals are not missed),
 * and what the last run did, for diagnostics.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('history_sync_state')
    .addColumn('account_id', 'text', (c) =>
      c.primaryKey().references('trading_accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // ISO instant (the broker's clock) up to which deals have been read; null before the first run.
    .addColumn('synced_to', 'text')
    .addColumn('last_run_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('history_sync_state').execute();
}
