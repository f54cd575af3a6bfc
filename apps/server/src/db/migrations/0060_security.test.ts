import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { nodeSqliteDialect } from '../sqlite-driver';
import { migrations } from './index';

describe('migration 0060 (case-insensitive usernames)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradedesk-0060-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every account whose name differs only in case, and reports each clash', async () => {
    const db = new Kysely<unknown>({ dialect: nodeSqliteDialect(path.join(dir, 'app.db')) });
    const names = Object.keys(migrations).sort();
    for (const name of names.filter((n) => n < '0060')) await migrations[name]!.up(db);
    for (const [id, username, at] of [
      ['u1', 'Alice', '2025-01-01T00:00:00.000Z'],
      ['u2', 'alice', '2025-02-01T00:00:00.000Z'],
      ['u3', 'bob', '2025-03-01T00:00:00.000Z'],
    ])
      await sql`insert into users (id, username, password_hash, is_staff, created_at)
        values (${id}, ${username}, 'x', 0, ${at})`.execute(db);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await migrations['0060_security']!.up(db);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('"alice" (id u2) clashes with "Alice"');
    warn.mockRestore();
    const rows = await sql<{ id: string; username_key: string }>`
      select id, username_key from users order by id`.execute(db);
    expect(rows.rows).toEqual([
      { id: 'u1', username_key: 'alice' },
      { id: 'u2', username_key: 'alice#u2' },
      { id: 'u3', username_key: 'bob' },
    ]);
    // Past its bootstrap: the marker names the oldest user.
    const marker = await sql<{ user_id: string }>`select user_id from bootstrap_marker`.execute(db);
    expect(marker.rows).toEqual([{ user_id: 'u1' }]);
    await db.destroy();
  });
});
