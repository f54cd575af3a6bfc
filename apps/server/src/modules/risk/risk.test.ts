import { afterAll, beforeAll, expect, it } from 'vitest';
import { RISK_SETTINGS_DEFAULTS, RISK_SETTINGS_MESSAGES } from '@tradedesk/contract';
import { newId, nowIso } from '../../lib/ids';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('risk settings', (target) => {
  let h: Harness;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let aliceAccount: string;
  let aliceOther: string;
  let bobAccount: string;

  async function account(userId: string, name: string): Promise<string> {
    const id = newId();
    const now = nowIso();
    await h.ctx.db
      .insertInto('trading_accounts')
      .values({
        id,
        user_id: userId,
        name,
        broker: 'Simulated',
        platform: 'SIM',
        username: '',
        password_enc: null,
        account_number: null,
        broker_server: null,
        currency: 'USD',
        leverage: 100,
        meta: '{}',
        created_at: now,
        updated_at: now,
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    h = await createHarness(target);
    alice = await h.user('alice');
    bob = await h.user('bob');
    aliceAccount = await account(alice.id, 'Alice main');
    aliceOther = await account(alice.id, 'Alice second');
    bobAccount = await account(bob.id, 'Bob main');
  });
  afterAll(() => h.close());

  const url = (acc: string) => `/api/risk/settings/${acc}/`;
  const get = (token: string, acc: string) => h.request('GET', url(acc), { token });
  const settings = {
    max_daily_loss: 3,
    risk_percent: 1,
    max_trade_risk: 2,
    max_open_positions: 5,
    enforce_cooldowns: true,
    consecutive_loss_limit: 2,
    cooldown_period: '02:30:00',
    max_lot_size: 10,
    max_open_trades_same_symbol: 2,
  };
  const profile = async (token: string, name: string, isDefault = false) =>
    (
      await h.request('POST', '/api/accounts/profit-profiles/', {
        token,
        body: {
          name,
          partial_targets: [
            { r_multiple: 1.5, size_pct: 50 },
            { r_multiple: 3, size_pct: 50 },
          ],
          is_default: isDefault,
        },
      })
    ).json();

  it('gives every field with the defaults (risk_percent 0.5) before anything is saved', async () => {
    const res = await get(alice.token, aliceAccount);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      account: aliceAccount,
      ...RISK_SETTINGS_DEFAULTS,
      last_updated: null,
      locked_until: null,
      default_tp_profile_id: null,
      default_tp_profile: null,
    });
    expect(res.json().risk_percent).toBe(0.5);
  });

  it('PUT saves every field, stamps last_updated and locks the settings for 7 days', async () => {
    const before = Date.now();
    const res = await h.request('PUT', url(aliceAccount), { token: alice.token, body: settings });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ ...settings, account: aliceAccount });
    const stamped = Date.parse(body.last_updated);
    expect(stamped).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.locked_until) - stamped).toBe(7 * 24 * 3600 * 1000);
    expect((await get(alice.token, aliceAccount)).json()).toEqual(body);
  });

  it('refuses a second PUT within 7 days with 409 naming when it unlocks, and keeps the saved values', async () => {
    const saved = (await get(alice.token, aliceAccount)).json();
    const res = await h.request('PUT', url(aliceAccount), {
      token: alice.token,
      body: { ...settings, risk_percent: 2 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ detail: RISK_SETTINGS_MESSAGES.locked(saved.locked_until) });
    expect((await get(alice.token, aliceAccount)).json().risk_percent).toBe(1);
  });

  it('allows PUT again once the last change is more than 7 days old', async () => {
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000).toISOString();
    await h.ctx.db
      .updateTable('risk_settings')
      .set({ last_updated: eightDaysAgo })
      .where('account_id', '=', aliceAccount)
      .execute();
    const unlocked = (await get(alice.token, aliceAccount)).json();
    expect(unlocked.locked_until).toBeNull();
    const res = await h.request('PUT', url(aliceAccount), {
      token: alice.token,
      body: { ...settings, risk_percent: 0.75, max_daily_loss: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ risk_percent: 0.75, max_daily_loss: null });
    expect(res.json().locked_until).not.toBeNull();
  });

  it('the lock is per account: another account of the same user is still editable', async () => {
    expect((await h.request('PUT', url(aliceOther), { token: alice.token, body: settings })).statusCode).toBe(
      200,
    );
  });

  it.each(['2:30:00', '02:60:00', '02:30', 'ab:cd:ef', '02:30:00 ', ''])(
    'refuses cooldown_period %j (not HH:MM:SS)',
    async (cooldown) => {
      const res = await h.request('PUT', url(bobAccount), {
        token: bob.token,
        body: { ...settings, cooldown_period: cooldown },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: { cooldown_period: [RISK_SETTINGS_MESSAGES.cooldownFormat] } });
    },
  );

  it.each([
    ['a zero risk_percent', { risk_percent: 0 }],
    ['a risk_percent above 100', { risk_percent: 101 }],
    ['a fractional max_open_positions', { max_open_positions: 1.5 }],
    ['a missing field', { enforce_cooldowns: undefined }],
    ['a string number', { max_lot_size: '5' }],
  ])('refuses %s with 400 and leaves the settings unchanged', async (_label, over) => {
    const res = await h.request('PUT', url(bobAccount), { token: bob.token, body: { ...settings, ...over } });
    expect(res.statusCode).toBe(400);
    expect((await get(bob.token, bobAccount)).json().last_updated).toBeNull();
  });

  it('PATCH sets the default TP profile and returns it with its partial targets, without touching the lock', async () => {
    const p = await profile(bob.token, 'Halves');
    const res = await h.request('PATCH', url(bobAccount), {
      token: bob.token,
      body: { default_tp_profile_id: p.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      default_tp_profile_id: p.id,
      default_tp_profile: { id: p.id, name: 'Halves', partial_targets: p.partial_targets, is_default: false },
      last_updated: null,
      risk_percent: 0.5,
    });
    expect((await get(bob.token, bobAccount)).json().default_tp_profile.partial_targets).toEqual([
      { r_multiple: 1.5, size_pct: 50 },
      { r_multiple: 3, size_pct: 50 },
    ]);
    // Rules are still editable: the profile is not a rule change.
    expect((await h.request('PUT', url(bobAccount), { token: bob.token, body: settings })).statusCode).toBe(
      200,
    );
    // And a locked account can still change its profile.
    const q = await profile(bob.token, 'Runner');
    const again = await h.request('PATCH', url(bobAccount), {
      token: bob.token,
      body: { default_tp_profile_id: q.id },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().default_tp_profile.name).toBe('Runner');
    expect(again.json()).toMatchObject(settings);
    const cleared = await h.request('PATCH', url(bobAccount), {
      token: bob.token,
      body: { default_tp_profile_id: null },
    });
    expect(cleared.json()).toMatchObject({ default_tp_profile_id: null, default_tp_profile: null });
  });

  it("refuses another user's profile as a default TP profile with 404", async () => {
    const bobs = await profile(bob.token, 'Bob only');
    const res = await h.request('PATCH', url(aliceAccount), {
      token: alice.token,
      body: { default_tp_profile_id: bobs.id },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: RISK_SETTINGS_MESSAGES.profileNotFound });
    expect((await get(alice.token, aliceAccount)).json().default_tp_profile).toBeNull();
  });

  it("answers 404 for another user's account on GET, PUT and PATCH, and changes nothing", async () => {
    const p = await profile(alice.token, 'Alice halves');
    for (const res of [
      await get(alice.token, bobAccount),
      await h.request('PUT', url(bobAccount), { token: alice.token, body: { ...settings, risk_percent: 4 } }),
      await h.request('PATCH', url(bobAccount), {
        token: alice.token,
        body: { default_tp_profile_id: p.id },
      }),
      await get(alice.token, 'no-such-account'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Account not found.' });
    }
    const bobs = (await get(bob.token, bobAccount)).json();
    expect(bobs.risk_percent).toBe(settings.risk_percent);
    expect(bobs.default_tp_profile).toBeNull();
  });

  it('needs a token', async () => {
    expect((await h.request('GET', url(aliceAccount))).statusCode).toBe(401);
  });
});
