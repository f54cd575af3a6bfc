import type { Kysely } from 'kysely';

/**
 * State of the simulated broker, so that a restart loses nothing: balance and its history,
 * orders (with the client order id that makes placing idempotent), open positions and deals.
 * Money is integer minor units of the account currency; prices and volumes are doubles.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sim_accounts')
    .addColumn('account_id', 'text', (c) =>
      c.primaryKey().references('trading_accounts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('balance_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sim_balance_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('delta_minor', 'bigint', (c) => c.notNull())
    .addColumn('balance_minor', 'bigint', (c) => c.notNull())
    // 'DEPOSIT' | 'DEAL'
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('deal_id', 'text')
    .execute();
  await db.schema
    .createIndex('sim_balance_history_account')
    .on('sim_balance_history')
    .columns(['account_id', 'time'])
    .execute();

  await db.schema
    .createTable('sim_orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_order_id', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('volume', 'double precision', (c) => c.notNull())
    .addColumn('limit_price', 'double precision')
    .addColumn('stop_loss', 'double precision')
    .addColumn('take_profit', 'double precision')
    // Distances are kept until the fill, when they become prices relative to the fill price.
    .addColumn('stop_loss_distance', 'double precision')
    .addColumn('take_profit_distance', 'double precision')
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    // 'PENDING' | 'FILLED' | 'CANCELLED'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('position_id', 'text')
    .addColumn('fill_price', 'double precision')
    .addColumn('filled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_orders_client_id')
    .on('sim_orders')
    .columns(['account_id', 'client_order_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('sim_orders_status')
    .on('sim_orders')
    .columns(['status', 'account_id'])
    .execute();

  await db.schema
    .createTable('sim_positions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('client_order_id', 'text')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('volume', 'double precision', (c) => c.notNull())
    .addColumn('entry_price', 'double precision', (c) => c.notNull())
    .addColumn('stop_loss', 'double precision')
    .addColumn('take_profit', 'double precision')
    .addColumn('commission_minor', 'bigint', (c) => c.notNull())
    .addColumn('swap_minor', 'bigint', (c) => c.notNull())
    .addColumn('opened_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sim_positions_account').on('sim_positions').column('account_id').execute();

  await db.schema
    .createTable('sim_deals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('position_id', 'text', (c) => c.notNull())
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('side', 'text', (c) => c.notNull())
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('volume', 'double precision', (c) => c.notNull())
    .addColumn('price', 'double precision', (c) => c.notNull())
    .addColumn('profit_minor', 'bigint', (c) => c.notNull())
    .addColumn('commission_minor', 'bigint', (c) => c.notNull())
    .addColumn('swap_minor', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_deals_account_time')
    .on('sim_deals')
    .columns(['account_id', 'time'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['sim_deals', 'sim_positions', 'sim_orders', 'sim_balance_history', 'sim_accounts']) {
    await db.schema.dropTable(t).execute();
  }
}
