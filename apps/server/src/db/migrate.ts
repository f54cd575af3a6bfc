import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import { migrations } from './migrations';

class InlineProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator is schema-agnostic
export async function migrateToLatest(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  // On PostgreSQL the migrator looks its tables up by name; without the schema it can find another
  // schema's (several apps share one database, e.g. one schema per test file) and skip creating its own.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined;
  // Features land in parallel with numbers reserved per feature, so a database may already hold a
  // higher-numbered migration when a lower one arrives; each migration only touches its own tables.
  const migrator = new Migrator({
    allowUnorderedMigrations: true,
    db,
    provider: new InlineProvider(),
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
