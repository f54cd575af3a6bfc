import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '.';
import { schemaUrl, withPgSchema } from '../test/pg-schema';

const url = process.env.TEST_DATABASE_URL;

/**
 * Several apps (or test runs) share one PostgreSQL database, each in its own schema. Kysely finds its
 * migration table by reading the catalog of every schema, and PostgreSQL fails that read with
 * "schema … does not exist" when another client drops a schema meanwhile; a server starting at that
 * moment must still start.
 */
describe.runIf(url)('migrations while other schemas come and go [postgres]', () => {
  it('every start migrates its own schema although others are dropped during the catalog read', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'tradedesk-migrate-race-'));
    const churn = new pg.Client({ connectionString: url });
    await churn.connect();
    let churning = true;
    const churner = (async () => {
      while (churning) {
        const name = `churn_${randomBytes(5).toString('hex')}`;
        // A few tables make the dropped schema's rows part of the catalog read.
        await churn.query(
          `create schema "${name}"; create table "${name}".a (x int); create table "${name}".b (y int)`,
        );
        await churn.query(`drop schema "${name}" cascade`);
      }
    })();
    const schemas: string[] = [];
    try {
      for (let i = 0; i < 12; i++) {
        const schema = `t_race_${randomBytes(5).toString('hex')}`;
        schemas.push(schema);
        await withPgSchema(url!, schema, 'create');
        const handle = await openDatabase({ databaseUrl: schemaUrl(url!, schema), dataDir });
        const users = await handle.db.selectFrom('users').select('id').execute();
        expect(users).toEqual([]);
        await handle.close();
      }
    } finally {
      churning = false;
      await churner;
      await churn.end();
      for (const s of schemas) await withPgSchema(url!, s, 'drop');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
