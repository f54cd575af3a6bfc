import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per account, created on its first change; an account without a row has the defaults.
  await db.schema
    .createTable('risk_settings')
    .addColumn('account_id', 'text', (c) =>
      c.primaryKey().references('trading_accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // Percentages; null switches the rule off.
    .addColumn('max_daily_loss', 'double precision')
    .addColumn('risk_percent', 'double precision', (c) => c.notNull())
    .addColumn('max_trade_risk', 'double precision')
    .addColumn('max_open_positions', 'integer')
    .addColumn('enforce_cooldowns', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('consecutive_loss_limit', 'integer')
    // 'HH:MM:SS'
    .addColumn('cooldown_period', 'text', (c) => c.notNull())
    .addColumn('max_lot_size', 'double precision')
    .addColumn('max_open_trades_same_symbol', 'integer')
    .addColumn('default_tp_profile_id', 'text', (c) =>
      c.references('profit_profiles.id').onDelete('set null'),
    )
    // Last change of the rule fields (null when only the TP profile was ever set): starts the 7-day lock.
    .addColumn('last_updated', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('risk_settings_user').on('risk_settings').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('risk_settings').execute();
}
