import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Indexes of the trade history queries (keyset pages per account, each sort, the stats scan).
 * Every sort ends with created_at and id so that pages are stable; the newest-first tie-break is
 * stored descending where an index serves an ascending leading key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Newest / Oldest, and the date range of every sort.
  await db.schema
    .createIndex('trades_history_created')
    .on('trades')
    .columns(['account_id', 'created_at', 'id'])
    .execute();
  // Instrument A-Z (forward) and the instrument filter.
  await db.schema
    .createIndex('trades_history_symbol')
    .on('trades')
    .columns(['account_id', 'symbol', 'created_at desc', 'id desc'])
    .execute();
  // Instrument Z-A (scanned backwards: symbol desc, newest first).
  await db.schema
    .createIndex('trades_history_symbol_rev')
    .on('trades')
    .columns(['account_id', 'symbol', 'created_at', 'id'])
    .execute();
  // P/L Low-High (nulls last, newest first among equals); on SQLite, scanned backwards, High-Low too.
  await db.schema
    .createIndex('trades_history_pl')
    .on('trades')
    .columns(['account_id', 'actual_pl_minor', 'created_at desc', 'id desc'])
    .execute();
  // P/L High-Low on PostgreSQL, whose descending order puts NULLs first unless told otherwise
  // (SQLite has no NULLS LAST in an index and needs none: its DESC already puts NULLs last).
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create index trades_history_pl_desc on trades (account_id, actual_pl_minor desc nulls last, created_at desc, id desc)`.execute(
      db,
    );
  }
  // Stats: closed trades of an account in closing order, covering every column the stats read.
  await db.schema
    .createIndex('trades_history_closed')
    .on('trades')
    .columns(['account_id', 'status', 'closed_at', 'id', 'user_id', 'actual_pl_minor', 'initial_risk_minor'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_history_closed').execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await db.schema.dropIndex('trades_history_pl_desc').execute();
  await db.schema.dropIndex('trades_history_pl').execute();
  await db.schema.dropIndex('trades_history_symbol_rev').execute();
  await db.schema.dropIndex('trades_history_symbol').execute();
  await db.schema.dropIndex('trades_history_created').execute();
}
