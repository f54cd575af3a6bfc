import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ReportBreakdowns, ReportSummary } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { newTrader, type Trader } from '../../test/traders';
import { seedTrades } from '../history/history.seed';

/**
 * One trade opened Tuesday 2026-01-06 23:30 UTC and closed 23:45 UTC. Worked by hand: in Europe/Berlin
 * (UTC+1 in winter) it opens Wednesday 00:30 and closes on 2026-01-07; in Asia/Tokyo (UTC+9) it opens
 * Wednesday 08:30; in UTC it stays on Tuesday, hour 23.
 */
describeEachDb('reports in the trader’s saved time zone', (target) => {
  let h: Harness;
  let t: Trader;
  beforeAll(async () => {
    h = await createHarness(target);
    t = await newTrader(h, 'zoned-reporter');
    await seedTrades(h.ctx.db, { userId: t.userId, accountId: t.accountId, currency: 'USD' }, [
      {
        symbol: 'EURUSD',
        direction: 'BUY',
        status: 'closed',
        volume: 0.1,
        entry_price: 1.1,
        created_at: '2026-01-06T23:30:00.000Z',
        closed_at: '2026-01-06T23:45:00.000Z',
        pl_minor: 120,
        initial_risk_minor: 100,
      },
    ]);
  });
  afterAll(() => h.close());

  const get = async <T>(path: string): Promise<T> => {
    const res = await h.request('GET', path, { token: t.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const breakdowns = (q = '') =>
    get<ReportBreakdowns>(`/api/reports/breakdowns/?account=${t.accountId}&by=weekday,hour${q}`);
  const keys = (b: ReportBreakdowns) => [
    b.time_zone,
    b.breakdowns.weekday![0]!.key,
    b.breakdowns.hour![0]!.key,
  ];
  const saveZone = async (time_zone: string | null) => {
    const res = await h.request('PATCH', '/api/users/me/settings/', { token: t.token, body: { time_zone } });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('reads weekday, hour and calendar day in the saved zone when no tz is sent; tz= still wins', async () => {
    expect(keys(await breakdowns())).toEqual(['UTC', 'Tuesday', '23:00']);

    await saveZone('Europe/Berlin');
    expect(keys(await breakdowns())).toEqual(['Europe/Berlin', 'Wednesday', '00:00']);
    const summary = await get<ReportSummary>(`/api/reports/summary/?account=${t.accountId}`);
    expect(summary.time_zone).toBe('Europe/Berlin');
    expect(summary.calendar.days.map((d) => d.key)).toEqual(['2026-01-07']);

    expect(keys(await breakdowns('&tz=Asia/Tokyo'))).toEqual(['Asia/Tokyo', 'Wednesday', '08:00']);
    expect(keys(await breakdowns('&tz=UTC'))).toEqual(['UTC', 'Tuesday', '23:00']);

    await saveZone(null);
    expect(keys(await breakdowns())).toEqual(['UTC', 'Tuesday', '23:00']);
  });
});
