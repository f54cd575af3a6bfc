import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, dbTargets, type Harness } from '../test/harness';

describe('request log', () => {
  const opened: Harness[] = [];
  const lines: string[] = [];
  const harness = async (slowRequestMs: number) => {
    const h = await createHarness(dbTargets[0]!, {
      logLevel: 'info',
      slowRequestMs,
      logStream: { write: (line: string) => void lines.push(line) },
    });
    opened.push(h);
    return h;
  };
  beforeAll(() => void (lines.length = 0));
  afterAll(async () => {
    for (const h of opened) await h.close();
  });

  it('writes nothing for ordinary requests at the default level', async () => {
    const h = await harness(1000);
    const { token } = await h.user('quiet');
    lines.length = 0;
    for (let i = 0; i < 5; i++)
      expect((await h.request('GET', '/api/accounts/me/', { token })).statusCode).toBe(200);
    expect((await h.request('GET', '/api/accounts/me/')).statusCode).toBe(401);
    expect(lines).toEqual([]);
  });

  it('writes one warn line for a slow request, with its path but never its query string', async () => {
    const h = await harness(0);
    const { token } = await h.user('slowpoke');
    lines.length = 0;
    await h.request('GET', '/api/accounts/me/?token=secret-value', { token });
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({ level: 40, path: '/api/accounts/me/', status: 200, msg: 'slow request' });
    expect(lines[0]).not.toContain('secret-value');
  });
});
