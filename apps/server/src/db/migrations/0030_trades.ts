import type { Kysely } from 'kysely';

/**
 * Trades placed through the app (or adopted from the broker), the deals seen on them, and the
 * Idempotency-Key ledger of POST /api/trades/execute/.
 * Money is integer minor units of the account currency; prices and volumes are doubles.
 * The history issue extends these: closed trades are rows with status 'closed', broker-synced
 * orders and deals land in trade_deals, external positions are trades with source 'external'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trades')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('trading_accounts.id').onDelete('cascade'))
    // 'app' (placed here) | 'external' (found at the broker by a reconcile)
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('client_order_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('position_id', 'text')
    .addColumn('symbol', 'text', (c) => c.notNull())
    // 'BUY' | 'SELL'
    .addColumn('direction', 'text', (c) => c.notNull())
    // 'MARKET' | 'LIMIT'
    .addColumn('order_type', 'text', (c) => c.notNull())
    // 'pending' | 'open' | 'closed' | 'cancelled'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('volume', 'double precision', (c) => c.notNull())
    .addColumn('remaining_volume', 'double precision', (c) => c.notNull())
    .addColumn('limit_price', 'double precision')
    .addColumn('entry_price', 'double precision')
    .addColumn('stop_loss', 'double precision')
    .addColumn('take_profit', 'double precision')
    // One R: the stop distance in price units at the open, and the money it risked.
    .addColumn('sl_distance', 'double precision')
    .addColumn('initial_risk_minor', 'bigint')
    .addColumn('risk_percent', 'double precision')
    .addColumn('rr_ratio', 'double precision')
    .addColumn('projected_profit_minor', 'bigint')
    .addColumn('projected_loss_minor', 'bigint')
    .addColumn('atr_multiplier', 'double precision')
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('trader', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('timeframe', 'text', (c) => c.notNull().defaultTo(''))
    // JSON array of managed targets with their state, null for single-TP trades.
    .addColumn('targets', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('opened_at', 'text')
    .addColumn('closed_at', 'text')
    .addColumn('actual_pl_minor', 'bigint')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trades_user_account_status')
    .on('trades')
    .columns(['user_id', 'account_id', 'status'])
    .execute();
  await db.schema
    .createIndex('trades_account_client_order')
    .on('trades')
    .columns(['account_id', 'client_order_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('trades_account_position')
    .on('trades')
    .columns(['account_id', 'position_id'])
    .execute();
  await db.schema.createIndex('trades_status').on('trades').column('status').execute();

  await db.schema
    .createTable('trade_deals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('trade_id', 'text', (c) => c.notNull().references('trades.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('broker_deal_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('position_id', 'text')
    .addColumn('filled_at', 'text', (c) => c.notNull())
    // 'MARKET' | 'LIMIT' for the opening fill, 'CLOSE' for closing deals
    .addColumn('order_type', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    // 'IN' | 'OUT'
    .addColumn('entry', 'text', (c) => c.notNull())
    .addColumn('filled_price', 'double precision', (c) => c.notNull())
    .addColumn('filled_volume', 'double precision', (c) => c.notNull())
    .addColumn('profit_minor', 'bigint', (c) => c.notNull())
    .addColumn('commission_minor', 'bigint', (c) => c.notNull())
    .addColumn('swap_minor', 'bigint', (c) => c.notNull())
    // MARKET | LIMIT | STOP_LOSS | TAKE_PROFIT | CLOSE | PARTIAL_CLOSE | TARGET | STOP_OUT | EXTERNAL
    .addColumn('deal_reason', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trade_deals_account_deal')
    .on('trade_deals')
    .columns(['account_id', 'broker_deal_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('trade_deals_trade')
    .on('trade_deals')
    .columns(['trade_id', 'filled_at'])
    .execute();

  await db.schema
    .createTable('trade_requests')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    // 'pending' while the first request runs, 'done' once its answer is stored
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('trade_requests_pk', ['user_id', 'idempotency_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trade_requests').execute();
  await db.schema.dropTable('trade_deals').execute();
  await db.schema.dropTable('trades').execute();
}
