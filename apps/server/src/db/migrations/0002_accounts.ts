import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trading_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('broker', 'text', (c) => c.notNull().defaultTo(''))
    // 'SIM' | 'MT5' | 'cTrader'
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull().defaultTo(''))
    // AES-256-GCM ciphertext (base64), never returned by any endpoint.
    .addColumn('password_enc', 'text')
    .addColumn('account_number', 'text')
    .addColumn('broker_server', 'text')
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
    .addColumn('leverage', 'integer', (c) => c.notNull().defaultTo(100))
    // Platform-specific settings (e.g. the cTrader account id); secrets inside are encrypted.
    .addColumn('meta', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('trading_accounts_user').on('trading_accounts').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('trading_accounts').execute();
}
