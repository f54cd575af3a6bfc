import path from 'node:path';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { nodeSqliteDialect } from './sqlite-driver';
import type { Database } from './schema';
import { migrateToLatest } from './migrate';
import { SchemaScopedPostgresDialect } from './pg-dialect';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  ping(): Promise<boolean>;
}

// int8 and numeric come back from pg as strings; every value we keep in them fits a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<DbHandle> {
  const dialect: Dialect = opts.databaseUrl ? 'postgres' : 'sqlite';
  const db =
    dialect === 'postgres'
      ? new Kysely<Database>({
          dialect: new SchemaScopedPostgresDialect({
            pool: new pg.Pool({ connectionString: opts.databaseUrl, max: 10 }),
          }),
        })
      : new Kysely<Database>({ dialect: nodeSqliteDialect(path.join(opts.dataDir, 'app.db')) });
  await migrateToLatest(db, dialect);
  return {
    db,
    dialect,
    close: () => db.destroy(),
    async ping() {
      try {
        await sql`select 1`.execute(db);
        return true;
      } catch {
        return false;
      }
    },
  };
}
