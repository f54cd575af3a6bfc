import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountFigures } from '@tradedesk/domain';
import type { AccountSummary } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { clientLots, newTrader, type Trader } from '../../test/traders';
import { HOUR, MINUTE, WEDNESDAY } from '../../test/sim-clock';

let clock = WEDNESDAY;

describeEachDb('account summary', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    clock = WEDNESDAY;
    h = await createHarness(target, { simNow: () => clock });
  });
  afterAll(() => h.close());

  const trader = () => newTrader(h, `strip${++n}`);
  const summary = (t: Trader, query = '') =>
    h.request('GET', `/api/accounts/${t.accountId}/summary/${query}`, { token: t.token });

  async function open(t: Trader, direction: 'BUY' | 'SELL' = 'BUY'): Promise<string> {
    const lot_size = await clientLots(h, clock, t, 'EURUSD', 0.5, 0.002);
    const res = await h.request('POST', '/api/trades/execute/', {
      token: t.token,
      body: {
        account_id: t.accountId,
        symbol: 'EURUSD',
        direction,
        order_type: 'MARKET',
        risk_percent: 0.5,
        stop_loss_distance: 0.002,
        rr_ratio: 2,
        reason: 'Strip test',
        trader: 'Me',
        timeframe: '15M',
        lot_size,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().trade_id;
  }

  it('shows a fresh account: all balance, no margin, no level, nothing realised', async () => {
    const t = await trader();
    const res = await summary(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: t.accountId,
      currency: 'USD',
      balance: 10_000,
      equity: 10_000,
      margin: 0,
      free_margin: 10_000,
      margin_level: null,
      open_pl: 0,
      realised_pl_today: 0,
      open_positions: 0,
      day_start: '2026-01-07T00:00:00.000Z',
      as_of: new Date(WEDNESDAY).toISOString(),
      connection_state: 'connected',
    });
  });

  it('derives free margin, margin level and open P/L from the broker figures with the domain function', async () => {
    const t = await trader();
    await open(t);
    clock += 5 * MINUTE;
    const s: AccountSummary = (await summary(t)).json();
    const details = (
      await h.request('GET', `/api/accounts/details/${t.accountId}`, { token: t.token })
    ).json();
    expect(s.open_positions).toBe(1);
    expect(s.margin).toBeGreaterThan(0);
    expect(s).toMatchObject(
      accountFigures({
        balance: details.balance,
        equity: details.equity,
        margin: details.margin,
        currency: 'USD',
      }),
    );
    expect(s.margin_level).toBeCloseTo((s.equity / s.margin) * 100, 1);
    // The opening commission is realised at the fill.
    expect(s.realised_pl_today).toBeLessThanOrEqual(0);
    expect(s.realised_pl_today).toBeCloseTo(s.balance - 10_000, 2);
  });

  it("counts today's closed trades in the trader's zone and leaves yesterday's out", async () => {
    const t = await trader();
    const first = await open(t);
    clock += 10 * MINUTE;
    expect((await h.request('DELETE', `/api/trades/close/${first}/`, { token: t.token })).statusCode).toBe(
      200,
    );
    const afterClose: AccountSummary = (await summary(t)).json();
    expect(afterClose.open_positions).toBe(0);
    expect(afterClose.open_pl).toBe(0);
    expect(afterClose.margin_level).toBeNull();
    expect(afterClose.realised_pl_today).toBeCloseTo(afterClose.balance - 10_000, 2);

    // 10:10 UTC on Wednesday is 05:10 in New York, the same day; 23:10 in Auckland, also the same day.
    const ny: AccountSummary = (await summary(t, '?tz=America/New_York')).json();
    expect(ny.day_start).toBe('2026-01-07T05:00:00.000Z');
    expect(ny.realised_pl_today).toBe(afterClose.realised_pl_today);

    // The next day the trade belongs to yesterday.
    clock += 24 * HOUR;
    const tomorrow: AccountSummary = (await summary(t)).json();
    expect(tomorrow.day_start).toBe('2026-01-08T00:00:00.000Z');
    expect(tomorrow.realised_pl_today).toBe(0);
    expect(tomorrow.balance).toBe(afterClose.balance);
    clock -= 24 * HOUR;
  });

  it("reads today in the trader's saved zone when no tz is sent, and tz= still wins", async () => {
    const t = await trader();
    const save = (time_zone: string | null) =>
      h.request('PATCH', '/api/users/me/settings/', { token: t.token, body: { time_zone } });
    expect((await save('America/New_York')).statusCode).toBe(200);
    // Wednesday 10:10 UTC is 05:10 in New York (UTC-5 in winter): the day began at 05:00 UTC.
    expect((await summary(t)).json().day_start).toBe('2026-01-07T05:00:00.000Z');
    expect((await summary(t, '?tz=UTC')).json().day_start).toBe('2026-01-07T00:00:00.000Z');
    expect((await summary(t, '?tz=Asia/Tokyo')).json().day_start).toBe('2026-01-06T15:00:00.000Z');
    expect((await save(null)).statusCode).toBe(200);
    expect((await summary(t)).json().day_start).toBe('2026-01-07T00:00:00.000Z');
  });

  it('refuses an unknown time zone with 400 and another user\u2019s account with 404', async () => {
    const t = await trader();
    const other = await trader();
    const bad = await summary(t, '?tz=Mars%2FOlympus');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('Time zone must be an IANA name');
    const long = await summary(t, `?tz=${'x'.repeat(200)}`);
    expect(long.statusCode).toBe(400);
    const theirs = await h.request('GET', `/api/accounts/${t.accountId}/summary/`, { token: other.token });
    expect(theirs.statusCode).toBe(404);
    const none = await h.request('GET', '/api/accounts/summary/', { token: t.token });
    expect(none.statusCode).toBe(404);
    expect((await h.request('GET', `/api/accounts/${t.accountId}/summary/`)).statusCode).toBe(401);
  });
});
