import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('auth', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  it('bootstrap creates the first user as staff and is refused with 409 afterwards', async () => {
    const status = await h.request('GET', '/api/users/bootstrap/');
    expect(status.json()).toEqual({ needs_bootstrap: true });

    const first = await h.request('POST', '/api/users/bootstrap/', {
      body: { username: 'founder', password: 'long-enough-pw' },
    });
    expect(first.statusCode).toBe(201);
    const { access } = first.json();
    const me = await h.request('GET', '/api/accounts/me/', { token: access });
    expect(me.json()).toMatchObject({ username: 'founder', is_staff: true });

    const again = await h.request('POST', '/api/users/bootstrap/', {
      body: { username: 'other', password: 'long-enough-pw' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(AUTH_MESSAGES.bootstrapDone);
    expect((await h.request('GET', '/api/users/bootstrap/')).json()).toEqual({ needs_bootstrap: false });
  });

  it('issues access and refresh tokens and refreshes the access token', async () => {
    await h.user('alice', { password: 'alice-password' });
    const res = await h.request('POST', '/api/token/', {
      body: { username: 'alice', password: 'alice-password' },
    });
    expect(res.statusCode).toBe(200);
    const { access, refresh } = res.json();
    expect(typeof access).toBe('string');
    expect(typeof refresh).toBe('string');

    const me = await h.request('GET', '/api/accounts/me/', { token: access });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ id: expect.any(String), username: 'alice', is_staff: false });

    const refreshed = await h.request('POST', '/api/token/refresh/', { body: { refresh } });
    expect(refreshed.statusCode).toBe(200);
    const me2 = await h.request('GET', '/api/accounts/me/', { token: refreshed.json().access });
    expect(me2.json().username).toBe('alice');

    // A refresh token is not an access token, and vice versa.
    expect((await h.request('GET', '/api/accounts/me/', { token: refresh })).statusCode).toBe(401);
    expect((await h.request('POST', '/api/token/refresh/', { body: { refresh: access } })).statusCode).toBe(
      401,
    );
  });

  it('answers 401 with the exact detail for a wrong password or unknown user', async () => {
    await h.user('bob', { password: 'bob-password' });
    for (const body of [
      { username: 'bob', password: 'wrong-password' },
      { username: 'nobody', password: 'bob-password' },
    ]) {
      const res = await h.request('POST', '/api/token/', { body, ip: '10.0.0.2' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'No active account found with the given credentials' });
    }
  });

  it('rejects a malformed login body with per-field messages', async () => {
    const res = await h.request('POST', '/api/token/', { body: { username: '' } });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().detail)).toEqual(expect.arrayContaining(['username', 'password']));
  });

  it('rate limits failed logins per address and username with 429', async () => {
    await h.user('carol', { password: 'carol-password' });
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await h.request('POST', '/api/token/', {
        body: { username: 'carol', password: 'nope-nope' },
        ip: '10.1.0.1',
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().detail).toMatch(/^Too many login attempts/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
    // Even the right password waits out the window from that address...
    const right = await h.request('POST', '/api/token/', {
      body: { username: 'carol', password: 'carol-password' },
      ip: '10.1.0.1',
    });
    expect(right.statusCode).toBe(429);
    // ...while the owner elsewhere is not locked out.
    const elsewhere = await h.request('POST', '/api/token/', {
      body: { username: 'carol', password: 'carol-password' },
      ip: '10.1.0.2',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('does not count successful logins against the limit', async () => {
    await h.user('erin', { password: 'erin-password' });
    for (let i = 0; i < 15; i++) {
      const res = await h.request('POST', '/api/token/', {
        body: { username: 'erin', password: 'erin-password' },
        ip: '10.3.0.1',
      });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers 401 on every protected route without a valid token', async () => {
    const protectedRoutes = h.routes.filter((r) => r.url.startsWith('/api/') && !r.public);
    expect(protectedRoutes.length).toBeGreaterThan(3);
    for (const route of protectedRoutes) {
      const url = route.url.replace(/:(\w+)/g, '00000000-0000-0000-0000-000000000000').replace(/\*$/, 'x');
      const none = await h.request(route.method as 'GET', url);
      expect(none.statusCode, `${route.method} ${url}`).toBe(401);
      const bad = await h.request(route.method as 'GET', url, { token: 'not-a-jwt' });
      expect(bad.statusCode, `${route.method} ${url} with a bad token`).toBe(401);
    }
  });

  it('serves the OpenAPI document without a token', async () => {
    const res = await h.request('GET', '/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/token/', '/api/trades/watchlists/']),
    );
    expect((await h.request('GET', '/api/docs/')).statusCode).toBe(200);
  });

  it('reports health with the database status', async () => {
    const res = await h.request('GET', '/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', db: 'ok', dialect: target.name });
  });

  it('answers 404 in the {detail} shape for an unknown API path', async () => {
    const { token } = await h.user('dave');
    const res = await h.request('GET', '/api/nothing-here/', { token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('lets staff create users, and refuses everyone else', async () => {
    const admin = await h.user('boss', { staff: true });
    const plain = await h.user('worker');
    const body = { username: 'newcomer', password: 'newcomer-pw' };
    expect((await h.request('POST', '/api/users/', { token: plain.token, body })).statusCode).toBe(403);
    const created = await h.request('POST', '/api/users/', { token: admin.token, body });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ username: 'newcomer', is_staff: false });
    expect((await h.request('POST', '/api/users/', { token: admin.token, body })).statusCode).toBe(409);
    const login = await h.request('POST', '/api/token/', { body, ip: '10.9.9.9' });
    expect(login.statusCode).toBe(200);
  });
});
