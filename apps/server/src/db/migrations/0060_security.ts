import { sql, type Kysely } from 'kysely';

/**
 * Security hardening (docs/security.md):
 * - `users.username_key`: the lower-cased username, unique, so that "Alice" and "alice" are one user.
 *   Installations that already hold names differing only in case keep every account: the oldest gets
 *   the plain key, the others a key suffixed with their id (they still sign in with their exact
 *   spelling), and the migration prints each clash so that the operator can rename them.
 * - `login_attempts`: fixed one-minute windows of login attempts per key, reserved atomically before the
 *   password is checked, so the limit holds under concurrency and across processes.
 * - `refresh_tokens`: refresh tokens stored as SHA-256 hashes, in families that a reused token revokes.
 * - `bootstrap_marker`: one row whose primary key lets exactly one first-user bootstrap succeed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
  const users = await sql<{ id: string; username: string }>`
    select id, username from users order by created_at, id`.execute(db);
  const seen = new Map<string, string>();
  for (const u of users.rows) {
    const lower = u.username.toLowerCase();
    const first = seen.get(lower);
    const key = first === undefined ? lower : `${lower}#${u.id}`;
    if (first === undefined) seen.set(lower, u.username);
    else
      console.warn(
        `Usernames differing only in case: "${u.username}" (id ${u.id}) clashes with "${first}". ` +
          `It still signs in with its exact spelling; rename it to make it reachable case-insensitively.`,
      );
    await sql`update users set username_key = ${key} where id = ${u.id}`.execute(db);
  }
  await db.schema.createIndex('users_username_ci').on('users').column('username_key').unique().execute();

  await db.schema
    .createTable('login_attempts')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('family_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();

  await db.schema
    .createTable('bootstrap_marker')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // An installation that already has users is past its bootstrap.
  const first = users.rows[0];
  if (first)
    await sql`insert into bootstrap_marker (id, user_id, created_at) values ('first_user', ${first.id}, ${new Date().toISOString()})`.execute(
      db,
    );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bootstrap_marker').execute();
  await db.schema.dropTable('refresh_tokens').execute();
  await db.schema.dropTable('login_attempts').execute();
  await db.schema.dropIndex('users_username_ci').execute();
  await db.schema.alterTable('users').dropColumn('username_key').execute();
}
