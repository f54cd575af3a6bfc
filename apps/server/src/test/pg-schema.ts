import pg from 'pg';

/**
 * A throw-away PostgreSQL schema per test app or benchmark run, so runs side by side never see each
 * other's rows; dropped afterwards. No vitest here: the benchmarks use it too.
 */
export async function withPgSchema(url: string, schema: string, action: 'create' | 'drop'): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      action === 'create' ? `create schema "${schema}"` : `drop schema if exists "${schema}" cascade`,
    );
    // The job queue's own schema beside it (apps/server/src/jobs/boss-runner.ts).
    if (action === 'drop') await client.query(`drop schema if exists "${schema}_pgboss" cascade`);
  } finally {
    await client.end();
  }
}

/** The database URL whose connections use `schema` (search_path), for DATABASE_URL. */
export function schemaUrl(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
