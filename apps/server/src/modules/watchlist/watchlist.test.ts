import { afterAll, beforeAll, expect, it } from 'vitest';
import { WATCHLIST_MESSAGES } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

describeEachDb('watchlist', (target) => {
  let h: Harness;
  let alice: string;
  let bob: string;
  let staff: string;
  beforeAll(async () => {
    h = await createHarness(target);
    alice = (await h.user('alice')).token;
    bob = (await h.user('bob')).token;
    staff = (await h.user('admin', { staff: true })).token;
  });
  afterAll(() => h.close());

  const add = (token: string, body: unknown) => h.request('POST', '/api/trades/watchlists/', { token, body });
  const list = async (token: string) => (await h.request('GET', '/api/trades/watchlists/', { token })).json();

  it('requires both instrument and exchange', async () => {
    for (const body of [
      {},
      { instrument: 'EURUSD' },
      { exchange: 'FX' },
      { instrument: '  ', exchange: 'FX' },
    ]) {
      const res = await add(alice, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: WATCHLIST_MESSAGES.required });
    }
  });

  it('trims and upper-cases what it stores', async () => {
    const res = await add(alice, { instrument: '  eurusd ', exchange: ' fx' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(String),
      instrument: 'EURUSD',
      exchange: 'FX',
      is_global: false,
    });
    expect(await list(alice)).toEqual([res.json()]);
  });

  it('refuses a duplicate pair for the same user with 409, but another user may add it', async () => {
    const dup = await add(alice, { instrument: 'EurUsd', exchange: 'fx' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({ detail: WATCHLIST_MESSAGES.duplicate });
    expect((await add(bob, { instrument: 'EURUSD', exchange: 'FX' })).statusCode).toBe(201);
  });

  it('shows global items to everyone, and only staff may create or delete them', async () => {
    const refused = await add(alice, { instrument: 'XAUUSD', exchange: 'OANDA', is_global: true });
    expect(refused.statusCode).toBe(403);
    const created = await add(staff, { instrument: 'xauusd', exchange: 'oanda', is_global: true });
    expect(created.statusCode).toBe(201);
    expect(created.json().is_global).toBe(true);
    const id = created.json().id;
    for (const token of [alice, bob, staff]) {
      expect(await list(token)).toEqual(
        expect.arrayContaining([{ id, instrument: 'XAUUSD', exchange: 'OANDA', is_global: true }]),
      );
    }
    // A user cannot add a private copy of a pair they already see as global.
    expect((await add(bob, { instrument: 'XAUUSD', exchange: 'OANDA' })).statusCode).toBe(409);
    expect((await h.request('DELETE', `/api/trades/watchlists/${id}/`, { token: alice })).statusCode).toBe(
      403,
    );
    expect((await h.request('DELETE', `/api/trades/watchlists/${id}/`, { token: staff })).statusCode).toBe(
      204,
    );
    expect((await list(alice)).some((i: { id: string }) => i.id === id)).toBe(false);
  });

  it("never shows or deletes another user's private item (404)", async () => {
    const mine = (await add(alice, { instrument: 'GBPUSD', exchange: 'FX' })).json();
    expect((await list(bob)).some((i: { id: string }) => i.id === mine.id)).toBe(false);
    const res = await h.request('DELETE', `/api/trades/watchlists/${mine.id}/`, { token: bob });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    expect((await list(alice)).some((i: { id: string }) => i.id === mine.id)).toBe(true);
    expect(
      (await h.request('DELETE', `/api/trades/watchlists/${mine.id}/`, { token: alice })).statusCode,
    ).toBe(204);
    expect(
      (await h.request('DELETE', `/api/trades/watchlists/${mine.id}/`, { token: alice })).statusCode,
    ).toBe(404);
  });

  it('answers 400, not 500, for a body of the wrong type', async () => {
    const res = await add(alice, { instrument: 42, exchange: ['x'] });
    expect(res.statusCode).toBe(400);
    const raw = await h.app.inject({
      method: 'POST',
      url: '/api/trades/watchlists/',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(raw.statusCode).toBe(400);
    expect(typeof raw.json().detail).toBe('string');
  });
});
