import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('win-rate scenarios', (target) => {
  let h: Harness;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    h = await createHarness(target);
    alice = (await h.user('alice')).token;
    bob = (await h.user('bob')).token;
  });
  afterAll(() => h.close());

  const url = '/api/user/scenarios/';
  const save = (token: string, body: unknown) => h.request('POST', url, { token, body });
  const list = async (token: string) => (await h.request('GET', url, { token })).json();
  const inputs = {
    growthGoal: 10,
    riskPerTrade: 0.5,
    numTrades: 30,
    profile: 'Intraday',
    splits: { w1: 40, w2: 30, w3: 30, R1: 1, R2: 2, R3: 3, q1: 100, q2: 0, q3: 0 },
  };

  it('saves a scenario and gives every input back exactly', async () => {
    expect(await list(alice)).toEqual([]);
    const body = {
      name: 'Conservative',
      inputs: { ...inputs, growthGoal: 12.5, riskPerTrade: 1.2, numTrades: 80 },
    };
    const res = await save(alice, body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      name: 'Conservative',
      inputs: body.inputs,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await list(alice)).toEqual([res.json()]);
  });

  it('saving again under the same name (any case) updates that scenario instead of adding a second', async () => {
    const first = (await list(alice))[0];
    const changed = { ...inputs, splits: { ...inputs.splits, q1: 50, q2: 30, q3: 20 }, profile: 'Swing' };
    const res = await save(alice, { name: ' conservative ', inputs: changed });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: first.id,
      name: 'conservative',
      inputs: changed,
      created_at: first.created_at,
    });
    expect(await list(alice)).toHaveLength(1);
  });

  it.each([
    [
      'sizes adding up to 90',
      { splits: { ...inputs.splits, w3: 20 } },
      'Sizes must add up to 100% (now 90%).',
    ],
    [
      'quantities adding up to 80',
      { splits: { ...inputs.splits, q1: 80 } },
      'Quantities must add up to 100% (now 80%).',
    ],
  ])('refuses %s with the calculator message', async (_label, over, message) => {
    const res = await save(alice, { name: 'Broken', inputs: { ...inputs, ...over } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: { inputs: [message] } });
  });

  it.each([
    ['no name', { name: '  ', inputs }],
    ['a risk above the slider maximum of 5', { name: 'x', inputs: { ...inputs, riskPerTrade: 6 } }],
    ['a growth goal above 100', { name: 'x', inputs: { ...inputs, growthGoal: 150 } }],
    ['a fractional number of trades', { name: 'x', inputs: { ...inputs, numTrades: 2.5 } }],
    ['a missing split', { name: 'x', inputs: { ...inputs, splits: { w1: 100 } } }],
    ['a string where a number belongs', { name: 'x', inputs: { ...inputs, growthGoal: '10' } }],
    ['no inputs', { name: 'x' }],
  ])('refuses %s with 400', async (_label, body) => {
    const res = await save(alice, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBeDefined();
  });

  it("keeps scenarios per user: Bob neither sees nor overwrites Alice's scenario of the same name", async () => {
    expect(await list(bob)).toEqual([]);
    const res = await save(bob, { name: 'Conservative', inputs });
    expect(res.statusCode).toBe(201);
    const alices = await list(alice);
    expect(alices).toHaveLength(1);
    expect(alices[0].id).not.toBe(res.json().id);
    expect(alices[0].inputs.profile).toBe('Swing');
    expect((await list(bob)).map((s: { id: string }) => s.id)).toEqual([res.json().id]);
  });

  it('lists scenarios by name', async () => {
    await save(alice, { name: 'aggressive', inputs: { ...inputs, riskPerTrade: 3 } });
    await save(alice, { name: 'Balanced', inputs });
    expect((await list(alice)).map((s: { name: string }) => s.name)).toEqual([
      'aggressive',
      'Balanced',
      'conservative',
    ]);
  });

  it('needs a token', async () => {
    expect((await h.request('GET', url)).statusCode).toBe(401);
  });
});
