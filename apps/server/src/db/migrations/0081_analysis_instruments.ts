import type { Kysely } from 'kysely';

/**
 * Instruments a user analyses: which account's platform supplies the history and how far its
 * download got. The candles themselves live in the candle store; analysis jobs are `jobs` rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analysis_instruments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('exchange', 'text', (c) => c.notNull())
    // Where the history comes from: sim (the simulator), account (account_id's platform), csv (imports).
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.references('trading_accounts.id').onDelete('set null'))
    .addColumn('data_status', 'text', (c) => c.notNull())
    .addColumn('base_timeframe', 'text', (c) => c.notNull())
    // The span of history held, ISO instants; null until the first download finished.
    .addColumn('history_from', 'text')
    .addColumn('history_to', 'text')
    .addColumn('last_updated', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('analysis_instruments_user_symbol', ['user_id', 'symbol'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analysis_instruments').execute();
}
