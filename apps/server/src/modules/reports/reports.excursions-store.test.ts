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
import { seedTrades } from '../history/history.seed';
import { tradesRepo } from '../trades/trades.repo';

/**
 * MFE/MAE are measured once and kept per account and month; what is kept is used only while the
 * trades and the candle months they were measured on are unchanged:
 * - P  EURUSD BUY at 1.1000, stop 1.0950 (1 R = 100), 10:00–10:02 on 2 Feb 2026, on the simulator's
 *      February chunk: high 1.1030, low 1.0990 → MFE 0.003 = 0.6 R, MAE 0.001 = 0.2 R.
 * - S  XYZABC (unknown to the simulator) BUY at 150, stop 149 (1 R = 100): no candles until the
 *      user imports some: high 152, low 149.5 → MFE 2 R, MAE 0.5 R.
 */
const bar = (iso: string, high: number, low: number) => ({
  time: Date.parse(iso),
  open: low,
  high,
  low,
  close: high,
  volume: 1,
});

describeEachDb('reports: MFE and MAE kept per month', (target) => {
  let h: Harness;
  let t: Trader;
  const P = newId();
  const S = newId();

  const putFebruary = (bars: ReturnType<typeof bar>[]) => {
    const s = seriesFromBars(bars);
    return candleRepo(h.ctx.db).put({
      source: simCandleSource(brokerRegistry(h.ctx).sim).key,
      symbol: 'EURUSD',
      timeframe: 'M1',
      month: '2026-02',
      user_id: null,
      account_id: null,
      bar_count: s.time.length,
      covered_from: Date.parse('2026-02-01T00:00:00Z'),
      covered_to: Date.parse('2026-03-01T00:00:00Z'),
      data: encodeChunk(s),
      updated_at: nowIso(),
    });
  };

  beforeAll(async () => {
    h = await createHarness(target);
    t = await newTrader(h, 'kept');
    await seedTrades(
      h.ctx.db,
      { userId: t.userId, accountId: t.accountId, currency: 'USD' },
      [
        [P, 'EURUSD', 1.1, 1.095],
        [S, 'XYZABC', 150, 149],
      ].map(([id, symbol, entry, stop]) => ({
        id: id as string,
        symbol: symbol as string,
        direction: 'BUY',
        status: 'closed',
        volume: 0.1,
        entry_price: entry as number,
        stop_loss: stop as number,
        created_at: '2026-02-02T10:00:00.000Z',
        closed_at: '2026-02-02T10:02:00.000Z',
        pl_minor: 50,
        initial_risk_minor: 100,
      })),
    );
    await putFebruary([
      bar('2026-02-02T10:00:00Z', 1.101, 1.099),
      bar('2026-02-02T10:01:00Z', 1.103, 1.1),
      bar('2026-02-02T10:02:00Z', 1.102, 1.1005),
    ]);
  });
  afterAll(() => h.close());

  const report = async () => {
    const res = await h.request('GET', `/api/reports/excursions/?account=${t.accountId}`, { token: t.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ReportExcursions;
    const by = Object.fromEntries(body.trades.map((x) => [x.id, x]));
    return { body, p: by[P], s: by[S] };
  };

  it('measures once and answers the same from what it kept', async () => {
    const first = await report();
    expect(first.p!.mfe_r).toBeCloseTo(0.6, 9);
    expect(first.p!.mae_r).toBeCloseTo(0.2, 9);
    expect(first.body.without_candles.trades.map((x) => x.id)).toEqual([S]);
    const kept = await h.ctx.db
      .selectFrom('report_excursions')
      .select('month')
      .where('account_id', '=', t.accountId)
      .execute();
    expect(kept).toEqual([{ month: '2026-02' }]);
    expect((await report()).body).toEqual(first.body);
  });

  it('measures a trade whose candles arrive later', async () => {
    await candleStore(h.ctx).importM1(
      t.userId,
      'XYZABC',
      seriesFromBars([bar('2026-02-02T10:00:00Z', 151, 149.5), bar('2026-02-02T10:01:00Z', 152, 150)]),
    );
    const { body, s } = await report();
    expect(body.without_candles.count).toBe(0);
    expect(s!.mfe_r).toBeCloseTo(2, 9);
    expect(s!.mae_r).toBeCloseTo(0.5, 9);
  });

  it('measures again when the candle month is written again, or the trade changes', async () => {
    await putFebruary([bar('2026-02-02T10:00:00Z', 1.105, 1.097)]);
    const rewritten = (await report()).p!;
    expect(rewritten.mfe_r).toBeCloseTo(1, 9);
    expect(rewritten.mae_r).toBeCloseTo(0.6, 9);
    // The fill corrected to 1.1010 (the stop distance stays 0.005): MFE 0.004 = 0.8 R, MAE 0.004.
    await tradesRepo(h.ctx.db).update(P, { entry_price: 1.101, sl_distance: 0.005 });
    const refilled = (await report()).p!;
    expect(refilled.mfe_r).toBeCloseTo(0.8, 9);
    expect(refilled.mae_r).toBeCloseTo(0.8, 9);
  });
});
