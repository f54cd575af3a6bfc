import type { Kysely } from 'kysely';

/**
 * The trader's own settings (one row per user, written on the first change; a user without a row
 * has the defaults): for now the time zone reports and the account strip read days and hours in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // An IANA name (Intl.supportedValuesOf('timeZone')) or 'UTC'; null: none chosen.
    .addColumn('time_zone', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_settings').execute();
}
