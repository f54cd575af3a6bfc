import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROFIT_PROFILE_MESSAGES } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('profit profiles', (target) => {
  let h: Harness;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    h = await createHarness(target);
    alice = (await h.user('alice')).token;
    bob = (await h.user('bob')).token;
  });
  afterAll(() => h.close());

  const url = '/api/accounts/profit-profiles/';
  const add = (token: string, body: unknown) => h.request('POST', url, { token, body });
  const list = async (token: string) => (await h.request('GET', url, { token })).json();
  const targets = [
    { r_multiple: 1, size_pct: 40 },
    { r_multiple: 2, size_pct: 30 },
    { r_multiple: 3, size_pct: 30 },
  ];

  it('starts empty, then lists what the user saved with its targets in order', async () => {
    expect(await list(alice)).toEqual([]);
    const res = await add(alice, { name: '  Scalper ', partial_targets: targets });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      name: 'Scalper',
      partial_targets: targets,
      is_default: false,
      created_at: expect.any(String),
    });
    expect(await list(alice)).toEqual([res.json()]);
  });

  it.each([
    [
      'sizes adding up to 90',
      [
        { r_multiple: 1, size_pct: 50 },
        { r_multiple: 2, size_pct: 40 },
      ],
      PROFIT_PROFILE_MESSAGES.sizesSum(90),
    ],
    [
      'sizes adding up to 110',
      [
        { r_multiple: 1, size_pct: 60 },
        { r_multiple: 2, size_pct: 50 },
      ],
      PROFIT_PROFILE_MESSAGES.sizesSum(110),
    ],
    [
      'a zero size',
      [
        { r_multiple: 1, size_pct: 100 },
        { r_multiple: 2, size_pct: 0 },
      ],
      PROFIT_PROFILE_MESSAGES.sizePositive,
    ],
    [
      'a negative size',
      [
        { r_multiple: 1, size_pct: 120 },
        { r_multiple: 2, size_pct: -20 },
      ],
      PROFIT_PROFILE_MESSAGES.sizePositive,
    ],
    ['a zero R multiple', [{ r_multiple: 0, size_pct: 100 }], PROFIT_PROFILE_MESSAGES.rPositive],
    ['a negative R multiple', [{ r_multiple: -1.5, size_pct: 100 }], PROFIT_PROFILE_MESSAGES.rPositive],
    ['no targets', [], PROFIT_PROFILE_MESSAGES.targetsRequired],
  ])('refuses %s with 400 and a clear detail', async (_label, partial_targets, detail) => {
    const res = await add(alice, { name: 'Bad', partial_targets });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail });
  });

  it('accepts 33.3 + 33.3 + 33.4 as adding up to 100', async () => {
    const res = await add(alice, {
      name: 'Thirds',
      partial_targets: [
        { r_multiple: 1.25, size_pct: 33.3 },
        { r_multiple: 2.5, size_pct: 33.3 },
        { r_multiple: 4, size_pct: 33.4 },
      ],
    });
    expect(res.statusCode).toBe(201);
  });

  it('requires a name and refuses a second profile of the same name (any case) with 409', async () => {
    expect((await add(alice, { name: '   ', partial_targets: targets })).json()).toEqual({
      detail: PROFIT_PROFILE_MESSAGES.nameRequired,
    });
    const dup = await add(alice, { name: 'SCALPER', partial_targets: targets });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ detail: PROFIT_PROFILE_MESSAGES.duplicateName });
  });

  it('answers 400, not 500, for wrongly typed fields', async () => {
    const res = await add(alice, { name: 'X', partial_targets: [{ r_multiple: 'two', size_pct: 100 }] });
    expect(res.statusCode).toBe(400);
    expect((await add(alice, { name: 'X', partial_targets: 'all' })).statusCode).toBe(400);
  });

  it('keeps one default per user: making one default clears the previous default', async () => {
    const first = (await add(alice, { name: 'Swing', partial_targets: targets, is_default: true })).json();
    expect(first.is_default).toBe(true);
    const second = (
      await add(alice, {
        name: 'Runner',
        partial_targets: [{ r_multiple: 5, size_pct: 100 }],
        is_default: true,
      })
    ).json();
    const mine = await list(alice);
    expect(
      mine.filter((p: { is_default: boolean }) => p.is_default).map((p: { id: string }) => p.id),
    ).toEqual([second.id]);
    // The default is listed first.
    expect(mine[0].id).toBe(second.id);
    // A non-default save leaves the default alone.
    await add(alice, { name: 'Plain', partial_targets: targets, is_default: false });
    expect((await list(alice)).filter((p: { is_default: boolean }) => p.is_default)).toHaveLength(1);
  });

  it("never shows one user's profiles to another, and defaults are per user", async () => {
    expect(await list(bob)).toEqual([]);
    // Bob may use a name Alice has, and his default does not clear hers.
    const bobs = await add(bob, { name: 'Scalper', partial_targets: targets, is_default: true });
    expect(bobs.statusCode).toBe(201);
    expect((await list(bob)).map((p: { id: string }) => p.id)).toEqual([bobs.json().id]);
    expect((await list(alice)).filter((p: { is_default: boolean }) => p.is_default)).toHaveLength(1);
    expect((await list(alice)).some((p: { id: string }) => p.id === bobs.json().id)).toBe(false);
  });

  it('needs a token', async () => {
    expect((await h.request('GET', url)).statusCode).toBe(401);
    expect((await h.request('POST', url, { body: { name: 'x', partial_targets: targets } })).statusCode).toBe(
      401,
    );
  });
});
