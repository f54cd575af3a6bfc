import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authorizedFetch, setUnauthorizedHandler } from './api';
import { session } from './session';

/** localStorage and fetch as the browser has them, in memory. */
function browser(responses: (url: string, init: RequestInit) => Response) {
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  });
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push(`${url} ${(init.headers as Record<string, string>)?.authorization ?? ''}`.trim());
      return responses(url, init);
    }),
  );
  return calls;
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

describe('session refresh', () => {
  let left = 0;
  beforeEach(() => {
    left = 0;
    setUnauthorizedHandler(() => void left++);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('refreshes an expired access token once and retries the call with the new one', async () => {
    const calls = browser((url, init) => {
      if (url === '/api/token/refresh/') return json(200, { access: 'a2', refresh: 'r2' });
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === 'Bearer a2' ? json(200, { ok: true }) : json(401, { detail: 'expired' });
    });
    session.store('a1', 'r1');
    const [one, two] = await Promise.all([authorizedFetch('GET', '/x/'), authorizedFetch('GET', '/y/')]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(calls.filter((c) => c.startsWith('/api/token/refresh/'))).toHaveLength(1);
    expect(session.token()).toBe('a2');
    expect(session.refreshToken()).toBe('r2');
    expect(left).toBe(0);
  });

  it('clears the session and goes to /login when the refresh token is refused', async () => {
    browser((url) => (url === '/api/token/refresh/' ? json(401, {}) : json(401, { detail: 'expired' })));
    session.store('a1', 'r1');
    expect((await authorizedFetch('GET', '/x/')).status).toBe(401);
    expect(session.token()).toBeNull();
    expect(left).toBe(1);
  });
});
