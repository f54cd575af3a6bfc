import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('user settings API', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  const url = '/api/users/me/settings/';
  const get = (token: string) => h.request('GET', url, { token });
  const patch = (token: string, body: unknown) => h.request('PATCH', url, { token, body });

  it('starts with no time zone, saves one, keeps it, and clears it with null', async () => {
    const { token } = await h.user('zoned');
    const first = await get(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ time_zone: null });

    const saved = await patch(token, { time_zone: 'Asia/Tokyo' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ time_zone: 'Asia/Tokyo' });
    expect((await get(token)).json()).toEqual({ time_zone: 'Asia/Tokyo' });

    // A second save updates the row; a body without the field changes nothing.
    expect((await patch(token, { time_zone: 'UTC' })).json()).toEqual({ time_zone: 'UTC' });
    expect((await patch(token, {})).json()).toEqual({ time_zone: 'UTC' });
    expect((await get(token)).json()).toEqual({ time_zone: 'UTC' });

    expect((await patch(token, { time_zone: null })).json()).toEqual({ time_zone: null });
    expect((await get(token)).json()).toEqual({ time_zone: null });
  });

  it('refuses an unknown zone with 400 naming the field, and keeps what was saved', async () => {
    const { token } = await h.user('mars');
    await patch(token, { time_zone: 'Europe/Berlin' });
    for (const [zone, shown] of [
      ['Mars/Olympus', 'Mars/Olympus'],
      ['europe/berlin', 'europe/berlin'],
      ['', ''],
      ['x'.repeat(300), `${'x'.repeat(64)}…`],
    ]) {
      const res = await patch(token, { time_zone: zone });
      expect(res.statusCode, zone).toBe(400);
      expect(res.json()).toEqual({ detail: { time_zone: [`"${shown}" is not a known time zone.`] } });
    }
    const wrongType = await patch(token, { time_zone: 5 });
    expect(wrongType.statusCode).toBe(400);
    expect(Object.keys(wrongType.json().detail)).toEqual(['time_zone']);
    expect((await get(token)).json()).toEqual({ time_zone: 'Europe/Berlin' });
  });

  it('answers 401 without a token', async () => {
    expect((await h.request('GET', url)).statusCode).toBe(401);
    expect((await h.request('PATCH', url, { body: { time_zone: 'UTC' } })).statusCode).toBe(401);
  });

  it("keeps each user's zone to themselves", async () => {
    const ann = await h.user('ann');
    const bob = await h.user('bob');
    await patch(ann.token, { time_zone: 'America/New_York' });
    expect((await get(bob.token)).json()).toEqual({ time_zone: null });
    await patch(bob.token, { time_zone: 'Australia/Sydney' });
    expect((await get(ann.token)).json()).toEqual({ time_zone: 'America/New_York' });
    expect((await get(bob.token)).json()).toEqual({ time_zone: 'Australia/Sydney' });
  });
});
