import type { Kysely } from 'kysely';

/**
 * The stop entries a live run holds until the quote crosses them (JSON list, live-stops.ts in the
 * domain): kept with the run so that a server restart re-arms them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('live_runs')
    .addColumn('armed_stops', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('live_runs').dropColumn('armed_stops').execute();
}
