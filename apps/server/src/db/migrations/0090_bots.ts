import type { Kysely } from 'kysely';

/**
 * Trading bots: bots, immutable strategy versions, backtest configs and backtest runs. Every row
 * carries its owner's user_id so that each query is scoped by it. JSON is stored as text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    .addColumn('strategy_template', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bots_user').on('bots').columns(['user_id', 'created_at']).execute();
  await db.schema
    .createTable('bot_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
    .addColumn('strategy_file_content', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bot_versions_bot')
    .on('bot_versions')
    .columns(['bot_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('backtest_configs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bot_version_id', 'text', (c) => c.notNull().references('bot_versions.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('risk_json', 'text', (c) => c.notNull())
    .addColumn('slippage_ms', 'integer', (c) => c.notNull())
    .addColumn('slippage_r', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('backtest_configs_version')
    .on('backtest_configs')
    .column('bot_version_id')
    .execute();
  await db.schema
    .createTable('backtest_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('bot_version_id', 'text', (c) => c.notNull().references('bot_versions.id').onDelete('cascade'))
    .addColumn('backtest_config_id', 'text', (c) =>
      c.notNull().references('backtest_configs.id').onDelete('cascade'),
    )
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('data_window_start', 'text', (c) => c.notNull())
    .addColumn('data_window_end', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('error_message', 'text')
    .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('stats', 'text')
    .addColumn('equity_curve', 'text')
    .addColumn('trades', 'text')
    .addColumn('timings', 'text')
    .addColumn('warnings', 'text')
    .execute();
  await db.schema
    .createIndex('backtest_runs_version')
    .on('backtest_runs')
    .columns(['bot_version_id', 'created_at'])
    .execute();
  await db.schema.createIndex('backtest_runs_status').on('backtest_runs').column('status').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['backtest_runs', 'backtest_configs', 'bot_versions', 'bots'])
    await db.schema.dropTable(t).execute();
}
