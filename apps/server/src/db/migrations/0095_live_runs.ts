import type { Kysely } from 'kysely';

/**
 * Bot live runs (issue 12): the run rows, their log lines, and the link from each trade a run placed
 * to the run. Trades stay ordinary trade rows; the link table keeps the trades table unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('live_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    .addColumn('bot_version_id', 'text', (c) => c.notNull().references('bot_versions.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    .addColumn('symbols', 'text', (c) => c.notNull())
    .addColumn('timeframe', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // "<version>|<account>" while the run is STARTING, RUNNING or STOPPING, else null: the unique
    // index makes "one running run per version and account" hold under concurrent starts, on both
    // dialects (NULLs are distinct in SQLite and PostgreSQL alike).
    .addColumn('active_key', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('stopped_at', 'text')
    .addColumn('last_heartbeat', 'text')
    .addColumn('error_message', 'text')
    .addColumn('stop_reason', 'text')
    .addColumn('close_on_stop', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON {symbol: open time ms of the last bar given to the strategy}.
    .addColumn('cursor', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('orders_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('refused_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .execute();
  await db.schema.createIndex('live_runs_active').on('live_runs').column('active_key').unique().execute();
  await db.schema
    .createIndex('live_runs_version')
    .on('live_runs')
    .columns(['user_id', 'bot_version_id', 'created_at'])
    .execute();
  await db.schema.createIndex('live_runs_status').on('live_runs').column('status').execute();

  await db.schema
    .createTable('live_run_logs')
    .addColumn('run_id', 'text', (c) => c.notNull().references('live_runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('live_run_logs_pk', ['run_id', 'seq'])
    .execute();

  await db.schema
    .createTable('live_run_trades')
    .addColumn('trade_id', 'text', (c) => c.primaryKey().references('trades.id').onDelete('cascade'))
    .addColumn('run_id', 'text', (c) => c.notNull().references('live_runs.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('bar_time', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_run_trades_run').on('live_run_trades').column('run_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['live_run_trades', 'live_run_logs', 'live_runs']) await db.schema.dropTable(t).execute();
}
