import { afterAll, beforeAll, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('auth hardening', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  const login = (username: string, password: string, ip = '10.50.0.1') =>
    h.request('POST', '/api/token/', { body: { username, password }, ip });

  it('lets exactly one of 20 simultaneous first-user bootstraps through', async () => {
    const res = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.request('POST', '/api/users/bootstrap/', {
          body: { username: `founder${i}`, password: 'a-long-enough-secret' },
        }),
      ),
    );
    const codes = res.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c !== 201).every((c) => c === 409)).toBe(true);
    const staff = await h.ctx.db.selectFrom('users').select('id').where('is_staff', '=', 1).execute();
    expect(staff).toHaveLength(1);
  });

  it('lets at most the limit of 100 simultaneous wrong logins reach the password check', async () => {
    await h.user('target', { password: 'the-right-password' });
    const res = await Promise.all(
      Array.from({ length: 100 }, () => login('target', 'a-wrong-password', '10.50.0.2')),
    );
    const codes = res.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(h.config.loginAttemptsPerMinute);
    expect(codes.filter((c) => c === 429)).toHaveLength(100 - h.config.loginAttemptsPerMinute);
  });

  it('rotates refresh tokens, and a reused one revokes the whole sign-in', async () => {
    await h.user('rota', { password: 'rota-password-1' });
    const first = (await login('rota', 'rota-password-1')).json();
    const r1 = await h.request('POST', '/api/token/refresh/', { body: { refresh: first.refresh } });
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.refresh).not.toBe(first.refresh);
    expect((await h.request('GET', '/api/accounts/me/', { token: second.access })).statusCode).toBe(200);

    // The spent token comes back (a stolen copy): refused, and the family it belongs to dies with it.
    expect(
      (await h.request('POST', '/api/token/refresh/', { body: { refresh: first.refresh } })).statusCode,
    ).toBe(401);
    expect(
      (await h.request('POST', '/api/token/refresh/', { body: { refresh: second.refresh } })).statusCode,
    ).toBe(401);
    // Another sign-in of the same user is untouched.
    const other = (await login('rota', 'rota-password-1')).json();
    expect(
      (await h.request('POST', '/api/token/refresh/', { body: { refresh: other.refresh } })).statusCode,
    ).toBe(200);
  });

  it('stores refresh tokens hashed only', async () => {
    await h.user('hashy', { password: 'hashy-password' });
    const { refresh } = (await login('hashy', 'hashy-password')).json();
    const rows = await h.ctx.db.selectFrom('refresh_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(refresh);
  });

  it('logs out: the refresh token and its rotations stop working', async () => {
    await h.user('leaver', { password: 'leaver-password' });
    const { refresh } = (await login('leaver', 'leaver-password')).json();
    const rotated = (await h.request('POST', '/api/token/refresh/', { body: { refresh } })).json();
    const out = await h.request('POST', '/api/token/logout/', { body: { refresh: rotated.refresh } });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    expect(
      (await h.request('POST', '/api/token/refresh/', { body: { refresh: rotated.refresh } })).statusCode,
    ).toBe(401);
    // Logging out twice, or with a token never issued, is not an error.
    expect((await h.request('POST', '/api/token/logout/', { body: { refresh: 'nope' } })).statusCode).toBe(
      204,
    );
  });

  it('reads the staff flag from the user row on refresh, not from the old token', async () => {
    const { id } = await h.user('demoted', { staff: true, password: 'demoted-password' });
    const { refresh } = (await login('demoted', 'demoted-password')).json();
    await h.ctx.db.updateTable('users').set({ is_staff: 0 }).where('id', '=', id).execute();
    const { access } = (await h.request('POST', '/api/token/refresh/', { body: { refresh } })).json();
    const created = await h.request('POST', '/api/users/', {
      token: access,
      body: { username: 'sneaky', password: 'sneaky-password' },
    });
    expect(created.statusCode).toBe(403);
  });

  it('refuses short, common and username-equal passwords with a message saying why', async () => {
    const admin = await h.user('pwadmin', { staff: true });
    const cases: Array<[string, string, string]> = [
      ['shorty', '12345678', 'at least 10 characters'],
      ['spaces', ' '.repeat(12), 'blank'],
      ['common', 'qwertyuiop', AUTH_MESSAGES.passwordCommon],
      ['common2', 'Password123', AUTH_MESSAGES.passwordCommon],
      ['SameAsName1', 'sameasname1', AUTH_MESSAGES.passwordIsUsername],
    ];
    for (const [username, password, why] of cases) {
      const res = await h.request('POST', '/api/users/', {
        token: admin.token,
        body: { username, password },
      });
      expect(res.statusCode, username).toBe(400);
      expect(res.json().detail.password.join(' '), username).toContain(why);
    }
  });

  it('treats usernames case-insensitively: one user, signing in with any case', async () => {
    const admin = await h.user('caseadmin', { staff: true });
    const body = { username: 'Alice', password: 'alice-wonderland' };
    expect((await h.request('POST', '/api/users/', { token: admin.token, body })).statusCode).toBe(201);
    const clash = await h.request('POST', '/api/users/', {
      token: admin.token,
      body: { username: 'alice', password: 'another-password' },
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().detail).toEqual({ username: [AUTH_MESSAGES.usernameTaken] });
    expect((await login('ALICE', 'alice-wonderland', '10.50.0.9')).statusCode).toBe(200);
  });

  it('lets only one of simultaneous sign-ups for one name in different cases through', async () => {
    const admin = await h.user('raceadmin', { staff: true });
    const res = await Promise.all(
      ['Zed', 'zed', 'ZED', 'zEd'].map((username) =>
        h.request('POST', '/api/users/', {
          token: admin.token,
          body: { username, password: 'zed-password-x' },
        }),
      ),
    );
    expect(res.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });
});
