import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createSecretBox } from '../../lib/secrets';

/** Where broker passwords and tokens get their AES-256-GCM key (issue 3: SECRETS_KEY or a 0600 file). */
describe('the key that seals broker secrets', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tradedesk-key-'));
    dirs.push(d);
    return d;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is generated once into DATA_DIR with 0600 permissions and reused after a restart', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'secrets.key');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.secretsKey).toHaveLength(32);
    const sealed = createSecretBox(first.secretsKey).seal('broker-password');
    // The next start reads the same key, so what was sealed before still opens.
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.secretsKey.equals(first.secretsKey)).toBe(true);
    expect(createSecretBox(second.secretsKey).open(sealed)).toBe('broker-password');
    expect(readFileSync(file, 'utf8')).not.toContain('broker-password');
  });

  it('comes from SECRETS_KEY when it is set, and then no key file is written', () => {
    const dir = dataDir();
    const key = randomBytes(32);
    const config = loadConfig({ DATA_DIR: dir, SECRETS_KEY: key.toString('base64') });
    expect(config.secretsKey.equals(key)).toBe(true);
    expect(existsSync(path.join(dir, 'secrets.key'))).toBe(false);
  });

  it('refuses a SECRETS_KEY that is not 32 bytes', () => {
    expect(() =>
      loadConfig({ DATA_DIR: dataDir(), SECRETS_KEY: randomBytes(16).toString('base64') }),
    ).toThrow(/SECRETS_KEY/);
  });
});
