import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { usersService } from '../apps/server/src/modules/users/users.service';
import { schemaUrl, withPgSchema } from '../apps/server/src/test/pg-schema';

/**
 * A throw-away app for an in-process benchmark: a fresh SQLite folder, or a fresh schema of the
 * PostgreSQL database at `baseUrl`, with one user signed in and their Demo account. `close` drops it all.
 */
export async function openBenchApp(target: 'sqlite' | 'postgres', baseUrl: string | undefined, name: string) {
  const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_DIR ?? tmpdir(), `tradedesk-${name}-bench-`));
  let databaseUrl: string | undefined;
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const pg = target === 'postgres' && baseUrl ? baseUrl : undefined;
  if (pg) {
    await withPgSchema(pg, schema, 'create');
    databaseUrl = schemaUrl(pg, schema);
  }
  const { app, ctx } = await buildApp(
    loadConfig({}, { dataDir, databaseUrl, logLevel: 'silent', webDist: undefined }),
  );
  const close = async () => {
    await app.close();
    if (pg) await withPgSchema(pg, schema, 'drop');
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await app.ready();
    const user = await usersService(ctx).create(`${name}-user`, 'bench-password-123', false);
    const { access } = await ctx.tokens.issue(user);
    const account = await ctx.db
      .selectFrom('trading_accounts')
      .select(['id', 'currency'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    return { app, ctx, user, account, headers: { authorization: `Bearer ${access}` }, close };
  } catch (e) {
    await close();
    throw e;
  }
}
