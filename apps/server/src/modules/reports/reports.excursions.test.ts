import { afterAll, beforeAll, expect, it } from 'vitest';
import { seriesFromBars } from '@tradedesk/domain';
import type { ReportExcursions } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { newTrader, type Trader } from '../../test/traders';
import { newId, nowIso } from '../../lib/ids';
import { brokerRegistry } from '../../brokers/registry';
import { encodeChunk } from '../../market/candle-codec';
import { candleRepo } from '../../market/candle-repo';
import { candleStore } from '../../market/candle-store';
import { simCandleSource } from '../../market/candle-sources';
import { seedTrades, type SeedTrade } from '../history/history.seed';

/**
 * MFE/MAE from a synthetic candle set, worked by hand:
 * - P  EURUSD BUY 1.1000, stop 1.0950 (0.005 = 1 R = 100), +100. Bars 10:00–10:03 reach 1.1120 and
 *      1.0980 (the low first, at 10:00): MFE 0.012 = 2.4 R = 240, MAE 0.002 = 0.4 R = 40, negative first.
 * - Q  EURUSD SELL 1.2000, stop 1.2100 (0.01 = 1 R = 50), +25. Bar 11:00 low 1.1950: MFE 0.005 =
 *      0.5 R = 25, MAE 0.
 * - U  EURUSD BUY 1.1000 without a stop, +30, 10:01–10:02:30: MFE 0.012, MAE 0.001, no R or money;
 *      for and against in the same minute is not "negative first".
 * - R  GBPUSD BUY 1.3000, stop 1.2900 (0.01 = 1 R = 200), −200, from the user's imported M1 (the
 *      simulator's store holds no GBPUSD): MFE 0.005 = 0.5 R = 100, MAE 0.01 = 1 R = 200.
 * - V  EURUSD BUY 1.1000, stop 1.0900 (0.01 = 1 R = 100), −50, across February's end into the
 *      simulator's March chunk: MFE 0.008 = 0.8 R = 80, MAE 0.005 = 0.5 R = 50.
 * - S  a symbol the simulator does not know (XYZABC): no candles at all; T  EURUSD on 2 March: no bar
 *      of its time.
 * Winners measured: P, Q, U; negative first: P (1 of 3). Left on the table at 2 R: P reached 2.4 R
 * and closed at 1 R: (2 − 1) × 100 = 100; at 1 R P closed at the target (nothing left).
 */
const trade = (
  id: string,
  symbol: string,
  direction: 'BUY' | 'SELL',
  entry: number,
  stop: number | null,
  opened: string,
  closedAt: string,
  pl: number,
  risk: number | null,
): SeedTrade => ({
  id,
  symbol,
  direction,
  status: 'closed',
  volume: 0.1,
  entry_price: entry,
  stop_loss: stop,
  created_at: opened,
  closed_at: closedAt,
  pl_minor: pl,
  initial_risk_minor: risk,
});

const bar = (iso: string, high: number, low: number) => ({
  time: Date.parse(iso),
  open: low,
  high,
  low,
  close: high,
  volume: 1,
});

describeEachDb('reports: MFE and MAE', (target) => {
  let h: Harness;
  let t: Trader;
  let other: Trader;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createHarness(target);
    t = await newTrader(h, 'excursions');
    other = await newTrader(h, 'outsider');
    // key, symbol, side, entry, stop, opened and closed (UTC, to the second), P/L, risk
    const table: [
      string,
      string,
      'BUY' | 'SELL',
      number,
      number | null,
      string,
      string,
      number,
      number | null,
    ][] = [
      ['P', 'EURUSD', 'BUY', 1.1, 1.095, '2026-02-02T10:00:30', '2026-02-02T10:03:10', 100, 100],
      ['Q', 'EURUSD', 'SELL', 1.2, 1.21, '2026-02-02T11:00:00', '2026-02-02T11:00:40', 25, 50],
      ['U', 'EURUSD', 'BUY', 1.1, null, '2026-02-02T10:01:00', '2026-02-02T10:02:30', 30, null],
      ['R', 'GBPUSD', 'BUY', 1.3, 1.29, '2026-02-03T09:00:00', '2026-02-03T09:02:00', -200, 200],
      ['S', 'XYZABC', 'BUY', 150, 149, '2026-02-04T09:00:00', '2026-02-04T10:00:00', 500, 100],
      ['T', 'EURUSD', 'BUY', 1.1, 1.09, '2026-03-02T09:00:00', '2026-03-02T10:00:00', -50, 100],
      ['V', 'EURUSD', 'BUY', 1.1, 1.09, '2026-02-28T23:59:00', '2026-03-01T00:01:00', -50, 100],
    ];
    for (const [k] of table) ids[k] = newId();
    await seedTrades(
      h.ctx.db,
      { userId: t.userId, accountId: t.accountId, currency: 'USD' },
      table.map(([k, symbol, side, entry, stop, opened, closedAt, pl, risk]) =>
        trade(ids[k]!, symbol, side, entry, stop, `${opened}.000Z`, `${closedAt}.000Z`, pl, risk),
      ),
    );
    // The simulated account's prices: the simulator's chunk of February in the store.
    const eurusd = seriesFromBars([
      bar('2026-02-02T09:59:00Z', 1.3, 1.0), // before entry
      bar('2026-02-02T10:00:00Z', 1.1, 1.098),
      bar('2026-02-02T10:01:00Z', 1.112, 1.099),
      bar('2026-02-02T10:02:00Z', 1.106, 1.104),
      bar('2026-02-02T10:03:00Z', 1.1055, 1.1045),
      bar('2026-02-02T10:04:00Z', 1.2, 1.0), // after exit
      bar('2026-02-02T11:00:00Z', 1.2, 1.195),
      bar('2026-02-28T23:59:00Z', 1.103, 1.099),
    ]);
    const march = seriesFromBars([
      bar('2026-03-01T00:00:00Z', 1.108, 1.1005),
      bar('2026-03-01T00:01:00Z', 1.101, 1.095),
      bar('2026-03-01T00:02:00Z', 1.2, 1.0), // after exit
    ]);
    const sim = simCandleSource(brokerRegistry(h.ctx).sim);
    for (const [month, bars] of [
      ['2026-02', eurusd],
      ['2026-03', march],
    ] as const)
      await candleRepo(h.ctx.db).put({
        source: sim.key,
        symbol: 'EURUSD',
        timeframe: 'M1',
        month,
        user_id: null,
        account_id: null,
        bar_count: bars.time.length,
        covered_from: bars.time[0]!,
        covered_to: bars.time[bars.time.length - 1]! + 60_000,
        data: encodeChunk(bars),
        updated_at: nowIso(),
      });
    // GBPUSD only in the user's own import.
    await candleStore(h.ctx).importM1(
      t.userId,
      'GBPUSD',
      seriesFromBars([
        bar('2026-02-03T09:00:00Z', 1.305, 1.299),
        bar('2026-02-03T09:01:00Z', 1.301, 1.295),
        bar('2026-02-03T09:02:00Z', 1.296, 1.29),
      ]),
    );
    for (const [k, tag] of [
      ['R', 'breakout'],
      ['Q', 'r_1%'],
    ] as const) {
      const res = await h.request('POST', '/api/trade_journal/journals/', {
        token: t.token,
        body: { trade: ids[k], action: '', trade_timeframe: '', reason: 'x', strategy_tag: tag },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => h.close());

  const get = async (q: string, token = t.token) => {
    const res = await h.request('GET', `/api/reports/excursions/?account=${t.accountId}${q}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportExcursions;
  };

  it('measures every closed trade in price, R and money from the stored M1 candles', async () => {
    const r = await get('');
    expect([r.trades_total, r.measured, r.currency, r.offset, r.limit]).toEqual([7, 5, 'USD', 0, 1000]);
    // Most recently closed first.
    expect(r.trades.map((x) => x.id)).toEqual([ids.V, ids.R, ids.Q, ids.P, ids.U]);
    const by = Object.fromEntries(r.trades.map((x) => [x.id, x]));
    const p = by[ids.P!]!;
    expect(p.mfe_price).toBeCloseTo(0.012, 9);
    expect(p.mae_price).toBeCloseTo(0.002, 9);
    expect(p.mfe_r).toBeCloseTo(2.4, 9);
    expect(p.mae_r).toBeCloseTo(0.4, 9);
    expect([p.mfe_minor, p.mae_minor, p.final_r, p.negative_first]).toEqual([240, 40, 1, true]);
    expect([p.symbol, p.direction, p.pnl_minor, p.closed_at]).toEqual([
      'EURUSD',
      'BUY',
      100,
      '2026-02-02T10:03:10.000Z',
    ]);
    const q = by[ids.Q!]!;
    expect(q.mfe_r).toBeCloseTo(0.5, 9);
    expect([q.mae_price, q.mae_r, q.mfe_minor, q.mae_minor, q.final_r, q.negative_first]).toEqual([
      0,
      0,
      25,
      0,
      0.5,
      false,
    ]);
    const u = by[ids.U!]!;
    expect(u.mfe_price).toBeCloseTo(0.012, 9);
    expect(u.mae_price).toBeCloseTo(0.001, 9);
    expect([u.mfe_r, u.mae_r, u.mfe_minor, u.mae_minor, u.final_r, u.negative_first]).toEqual([
      null,
      null,
      null,
      null,
      null,
      false,
    ]);
    const g = by[ids.R!]!;
    expect(g.mfe_r).toBeCloseTo(0.5, 9);
    expect(g.mae_r).toBeCloseTo(1, 9);
    expect([g.mfe_minor, g.mae_minor, g.final_r, g.negative_first]).toEqual([100, 200, -1, false]);
    const v = by[ids.V!]!;
    expect(v.mfe_r).toBeCloseTo(0.8, 9);
    expect(v.mae_r).toBeCloseTo(0.5, 9);
    expect([v.mfe_minor, v.mae_minor, v.final_r, v.negative_first]).toEqual([80, 50, -0.5, false]);
  });

  it('reports the trades without candles, winners that went negative first, and money left per target', async () => {
    const r = await get('');
    expect(r.without_candles.count).toBe(2);
    expect(r.without_candles.trades.map((x) => [x.id, x.symbol])).toEqual([
      [ids.T, 'EURUSD'],
      [ids.S, 'XYZABC'],
    ]);
    expect([r.winners, r.winners_negative_first]).toEqual([3, 1]);
    expect(r.winners_negative_first_share).toBeCloseTo(1 / 3);
    expect(r.left_on_table).toEqual([
      { target_r: 1, reached: 1, closed_below: 0, left_minor: 0 },
      { target_r: 2, reached: 1, closed_below: 1, left_minor: 100 },
      { target_r: 3, reached: 0, closed_below: 0, left_minor: 0 },
    ]);
    // R levels of one's own: at 0.5 R, P, Q, R and V reached it; R (−1 R) and V (−0.5 R) closed below:
    // 1.5 × 200 + 1 × 100.
    const own = await get('&targets=2,0.5');
    expect(own.left_on_table).toEqual([
      { target_r: 0.5, reached: 4, closed_below: 2, left_minor: 400 },
      { target_r: 2, reached: 1, closed_below: 1, left_minor: 100 },
    ]);
  });

  it("measures a simulated account's trades in months nothing is stored for, from the simulator", async () => {
    const sim = await newTrader(h, 'simfill');
    const id = newId();
    await seedTrades(h.ctx.db, { userId: sim.userId, accountId: sim.accountId, currency: 'USD' }, [
      trade(id, 'EURUSD', 'BUY', 1.1, 1.09, '2025-11-05T10:00:00.000Z', '2025-11-05T11:00:00.000Z', 10, 100),
    ]);
    const source = simCandleSource(brokerRegistry(h.ctx).sim).key;
    const stored = async () =>
      (
        await h.ctx.db
          .selectFrom('candle_chunks')
          .select('month')
          .where('source', '=', source)
          .where('symbol', '=', 'EURUSD')
          .execute()
      ).map((r) => r.month);
    expect(await stored()).not.toContain('2025-11');
    const res = await h.request('GET', `/api/reports/excursions/?account=${sim.accountId}`, {
      token: sim.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ReportExcursions;
    expect(body.without_candles.count).toBe(0);
    expect(body.trades.map((x) => x.id)).toEqual([id]);
    // The simulator's own minutes of that hour: a move of some pips for and against.
    expect(body.trades[0]!.mfe_price).toBeGreaterThan(0);
    expect(await stored()).toContain('2025-11');
  });

  it('pages the per-trade list and takes the summary filters', async () => {
    const page = await get('&limit=2&offset=1');
    expect(page.trades.map((x) => x.id)).toEqual([ids.R, ids.Q]);
    expect([page.measured, page.limit, page.offset]).toEqual([5, 2, 1]);
    const eur = await get('&instrument=eurusd');
    expect([eur.trades_total, eur.measured, eur.without_candles.count]).toEqual([5, 4, 1]);
    const tag = await get('&tag=breakout');
    expect([tag.trades_total, tag.measured, tag.trades[0]!.id]).toEqual([1, 1, ids.R]);
    // A tag with the characters SQL patterns treat specially is matched as written.
    const odd = await get('&tag=R_1%25');
    expect([odd.trades_total, odd.trades[0]!.id]).toEqual([1, ids.Q]);
    expect((await get('&tag=r%25')).trades_total).toBe(0);
    const feb2 = await get('&from=2026-02-02&to=2026-02-02');
    expect([feb2.trades_total, feb2.measured, feb2.winners]).toEqual([3, 3, 3]);
    const all = await h.request('GET', '/api/reports/excursions/', { token: t.token });
    expect((all.json() as ReportExcursions).trades_total).toBe(7);
  });

  it("answers 404 for another user's account and 400 for bad filters, never 500", async () => {
    const res = await h.request('GET', `/api/reports/excursions/?account=${t.accountId}`, {
      token: other.token,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Account not found.');
    // The other user sees none of this user's trades or candles.
    const theirs = await h.request('GET', '/api/reports/excursions/', { token: other.token });
    expect(theirs.json()).toMatchObject({ trades_total: 0, measured: 0, trades: [] });
    for (const q of [
      '?targets=abc',
      '?targets=0',
      '?targets=1,2,3,4,5,6',
      '?limit=0',
      '?limit=5001',
      '?offset=-1',
      '?limit=1.5',
      '?tz=Mars/Olympus',
      '?from=2026-13-01',
      '?from=2026-02-09&to=2026-02-07',
      '?account=not-a-uuid',
      '?instrument=EUR%20USD',
    ]) {
      const bad = await h.request('GET', `/api/reports/excursions/${q}`, { token: t.token });
      expect(bad.statusCode, q).toBe(400);
    }
    expect((await h.request('GET', '/api/reports/excursions/')).statusCode).toBe(401);
  });

  it('is in the OpenAPI document with its query', async () => {
    const doc = (await h.request('GET', '/api/openapi.json')).json();
    const params = doc.paths['/api/reports/excursions/'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['account', 'tag', 'targets', 'limit', 'offset']));
  });
});
