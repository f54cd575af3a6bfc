import type { Kysely } from 'kysely';

/**
 * Chart snapshot templates. `indicator_settings` is the template's JSON, validated by the contract's
 * schema before it is written. A global template is visible to every user; only its owner changes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chart_snapshot_configs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_global', 'integer', (c) => c.notNull())
    .addColumn('indicator_settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('chart_snapshot_configs_user')
    .on('chart_snapshot_configs')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('chart_snapshot_configs_global')
    .on('chart_snapshot_configs')
    .columns(['is_global', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chart_snapshot_configs').execute();
}
