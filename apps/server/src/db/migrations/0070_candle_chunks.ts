import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * The candle store: one row per source, symbol, timeframe and calendar month (UTC), the month's bars
 * packed in `data` (see market/candle-codec.ts). `source` names where the bars came from: `sim:<seed>`
 * (shared by everyone: the simulator is deterministic), `account:<id>` (a broker account's own
 * prices, its owner's) or `csv:<user id>` (a user's imported files). The covered interval says which
 * part of the month has been asked of the source, so a later read fetches only what is missing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const blob = db.getExecutor().adapter instanceof PostgresAdapter ? sql`bytea` : sql`blob`;
  await db.schema
    .createTable('candle_chunks')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('timeframe', 'text', (c) => c.notNull())
    // 'YYYY-MM'
    .addColumn('month', 'text', (c) => c.notNull())
    // Owner of user-scoped sources; null for the shared simulator.
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.references('trading_accounts.id').onDelete('cascade'))
    .addColumn('bar_count', 'integer', (c) => c.notNull())
    // Epoch ms: the interval of the month already read from the source ([from, to)).
    .addColumn('covered_from', 'bigint', (c) => c.notNull())
    .addColumn('covered_to', 'bigint', (c) => c.notNull())
    .addColumn('data', blob, (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('candle_chunks_pk', ['source', 'symbol', 'timeframe', 'month'])
    .execute();
  await db.schema.createIndex('candle_chunks_user').on('candle_chunks').column('user_id').execute();
  await db.schema.createIndex('candle_chunks_account').on('candle_chunks').column('account_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('candle_chunks').execute();
}
