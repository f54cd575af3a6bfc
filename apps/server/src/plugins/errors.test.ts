import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createHarness, describeEachDb, type Harness } from '../test/harness';

describeEachDb('error handler', (target) => {
  let h: Harness;
  let token: string;
  const lines: string[] = [];
  beforeAll(async () => {
    h = await createHarness(target, { logLevel: 'error', logStream: { write: (l) => void lines.push(l) } });
    token = (await h.user('erin')).token;
  });
  afterAll(() => h.close());

  it('hides a 5xx cause from the client and logs it under the request id the client is given', async () => {
    // A real server fault: the table behind a route is gone.
    await sql`drop table watchlist_items`.execute(h.ctx.db);
    const res = await h.request('GET', '/api/trades/watchlists/', { token });
    expect(res.statusCode).toBe(500);
    const detail: string = res.json().detail;
    const id = /^Internal server error \(reference ([0-9a-f-]{36})\)\.$/.exec(detail)?.[1];
    expect(id, detail).toBeDefined();
    expect(detail).not.toMatch(/watchlist_items|no such table|does not exist/i);
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.reqId === id && l.level === 50);
    expect(logged?.msg).toBe('request failed');
    expect(JSON.stringify(logged?.err)).toMatch(/watchlist_items/);
  });

  it('answers a schema failure with 400 and one message list per field', async () => {
    const res = await h.request('POST', '/api/token/', { body: { username: 42 } });
    expect(res.statusCode).toBe(400);
    const detail = res.json().detail;
    expect(Object.keys(detail).sort()).toEqual(['password', 'username']);
    expect(detail.username).toEqual([expect.any(String)]);
    expect(detail.password).toEqual(['This field is required.']);
  });

  it('names a missing field as required instead of echoing the validator', async () => {
    const res = await h.request('POST', '/api/user/scenarios/', { token, body: { name: 'Plan' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: { inputs: ['This field is required.'] } });
    // A message a schema chose itself is kept.
    const blank = await h.request('POST', '/api/token/', { body: { username: '', password: 'x' } });
    expect(blank.json().detail.username).not.toEqual(['This field is required.']);
  });
});
