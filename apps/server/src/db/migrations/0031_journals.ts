import type { Kysely } from 'kysely';

/** Trade journals and their image attachments (files under DATA_DIR/attachments, random names). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_journals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('trade_id', 'text', (c) => c.notNull().references('trades.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('trade_timeframe', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('strategy_tag', 'text', (c) => c.notNull())
    .addColumn('emotional_state', 'text', (c) => c.notNull())
    .addColumn('market_condition', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trade_journals_user_trade')
    .on('trade_journals')
    .columns(['user_id', 'trade_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('journal_attachments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('journal_id', 'text', (c) => c.notNull().references('trade_journals.id').onDelete('cascade'))
    // Random file name under DATA_DIR/attachments; never derived from the upload's name.
    .addColumn('stored_name', 'text', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('journal_attachments_journal')
    .on('journal_attachments')
    .columns(['journal_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('journal_attachments').execute();
  await db.schema.dropTable('trade_journals').execute();
}
