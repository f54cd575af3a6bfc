import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';

const mode = (p: string) => statSync(p).mode & 0o777;

describe('DATA_DIR permissions (SQLite)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tradedesk-modes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the folder 0700 and the database, its WAL and SHM, and the keys 0600', async () => {
    chmodSync(dir, 0o755); // as a plain `mkdir` would leave it
    const { app } = await buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
    await app.ready();
    await app.inject({ method: 'GET', url: '/api/users/bootstrap/' });
    const db = path.join(dir, 'app.db');
    expect(existsSync(`${db}-wal`)).toBe(true);
    expect(mode(dir)).toBe(0o700);
    for (const f of [
      db,
      `${db}-wal`,
      `${db}-shm`,
      path.join(dir, 'jwt-secret'),
      path.join(dir, 'secrets.key'),
    ])
      expect(mode(f), path.basename(f)).toBe(0o600);
    await app.close();
  });

  it('tightens files an older version left readable to others', async () => {
    const db = path.join(dir, 'app.db');
    chmodSync(db, 0o644);
    const { app } = await buildApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent' }));
    await app.ready();
    expect(mode(db)).toBe(0o600);
    await app.close();
  });
});
