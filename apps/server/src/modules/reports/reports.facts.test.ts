import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  computeBreakdowns,
  computeCalendar,
  downsample,
  equityWithDrawdown,
  groupFigures,
  journalDiscipline,
  rHistogram,
  streaks,
} from '@tradedesk/domain';
import { EQUITY_CURVE_MAX_POINTS, type ReportBreakdowns, type ReportSummary } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { accountRow, createAccount } from '../../test/accounts';
import { postForm } from '../../test/form-data';
import { liveKit } from '../../test/live-runs';
import { MINUTE, WEDNESDAY } from '../../test/sim-clock';
import { clientLots, newTrader, type Trader } from '../../test/traders';
import { newId, nowIso } from '../../lib/ids';
import { brokerRegistry } from '../../brokers/registry';
import { historySync } from '../history/history.sync';
import { seedTrades } from '../history/history.seed';
import { liveRunsRepo } from '../live-runs/live-runs.repo';
import { tradesRepo } from '../trades/trades.repo';
import { toReportTrades } from './reports.model';
import { reportsRepo } from './reports.repo';

/**
 * The reports read a copy of the closed trades (report_facts, kept current by triggers): after
 * every way a trade, its journal, its attachments or its bot link is written, each report must be
 * what the trade rows give at that moment, computed without the copy.
 */
let clock = WEDNESDAY + 3 * 3_600_000;

const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x20, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(32),
]);
const statement = readFileSync(
  path.join(import.meta.dirname, '../statement-import/fixtures/mt5-report.html'),
);

describeEachDb('reports: the copy of the closed trades stays exact', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => clock });
  });
  afterAll(() => h.close());

  const trader = () => newTrader(h, `facts${++n}`);

  const get = async <T>(url: string, token: string): Promise<T> => {
    const res = await h.request('GET', url, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };

  /** The reports as the trade rows give them now (the way they were computed before the copy). */
  async function fromRows(t: Trader, accountIds: string[], tz: string) {
    const repo = reportsRepo(h.ctx.db);
    const f = { userId: t.userId, accountIds };
    const trades = toReportTrades(await repo.closedTrades(f), await repo.journals(f));
    const equity = equityWithDrawdown(trades);
    return JSON.parse(
      JSON.stringify({
        figures: groupFigures(trades),
        calendar: computeCalendar(trades, tz),
        r_histogram: rHistogram(trades),
        equity_curve: downsample(equity.points, EQUITY_CURVE_MAX_POINTS - 1),
        max_drawdown_minor: equity.max_drawdown_minor,
        streaks: streaks(trades),
        discipline: journalDiscipline(trades),
        breakdowns: computeBreakdowns(trades, undefined, { timeZone: tz }),
      }),
    ) as unknown;
  }

  /** Summary and breakdowns through the API equal the reports computed from the rows. */
  async function expectExact(t: Trader, accountIds = [t.accountId], tz = 'Europe/London') {
    const q = accountIds.length === 1 ? `account=${accountIds[0]}&tz=${tz}` : `tz=${tz}`;
    const s = await get<ReportSummary>(`/api/reports/summary/?${q}`, t.token);
    const b = await get<ReportBreakdowns>(`/api/reports/breakdowns/?${q}`, t.token);
    const { figures, calendar, r_histogram, equity_curve, max_drawdown_minor, streaks: st, discipline } = s;
    expect({
      figures,
      calendar,
      r_histogram,
      equity_curve,
      max_drawdown_minor,
      streaks: st,
      discipline,
      breakdowns: b.breakdowns,
    }).toEqual(await fromRows(t, accountIds, tz));
    return s;
  }

  /** A market BUY of EURUSD sized as the trade ticket sizes it, through the API; its id. */
  async function openTrade(t: Trader): Promise<string> {
    const res = await h.request('POST', '/api/trades/execute/', {
      token: t.token,
      body: {
        account_id: t.accountId,
        symbol: 'EURUSD',
        direction: 'BUY',
        order_type: 'MARKET',
        risk_percent: 0.5,
        stop_loss_distance: 0.002,
        rr_ratio: 2,
        lot_size: await clientLots(h, clock, t, 'EURUSD', 0.5, 0.002),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().trade_id as string;
  }

  const closeTrade = async (t: Trader, id: string) => {
    const res = await h.request('DELETE', `/api/trades/close/${id}/`, { token: t.token });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('counts a trade closed through the API at once, and a partly closed one with every deal', async () => {
    const t = await trader();
    expect((await expectExact(t)).figures.trades).toBe(0);
    const first = await openTrade(t);
    clock += 20 * MINUTE;
    // An open trade is in no report.
    expect((await expectExact(t)).figures.trades).toBe(0);
    await closeTrade(t, first);
    expect((await expectExact(t)).figures.trades).toBe(1);

    const second = await openTrade(t);
    clock += 10 * MINUTE;
    const part = await h.request('POST', `/api/trades/${second}/partial-close/`, {
      token: t.token,
      body: { volume_to_close: 0.01 },
    });
    expect(part.statusCode, part.body).toBe(200);
    expect((await expectExact(t)).figures.trades).toBe(1);
    clock += 10 * MINUTE;
    await closeTrade(t, second);
    const s = await expectExact(t);
    const rows = await h.ctx.db
      .selectFrom('trades')
      .select('actual_pl_minor')
      .where('account_id', '=', t.accountId)
      .execute();
    expect(s.figures.trades).toBe(2);
    expect(s.figures.net_minor).toBe(rows.reduce((a, r) => a + Number(r.actual_pl_minor), 0));
  });

  it('follows journal entries, attachments and the bot link of closed trades', async () => {
    const t = await trader();
    const id = await openTrade(t);
    clock += 5 * MINUTE;
    await closeTrade(t, id);
    await expectExact(t);
    const journal = await h.request('POST', '/api/trade_journal/journals/', {
      token: t.token,
      body: { trade: id, action: '', trade_timeframe: '', reason: 'Retest', strategy_tag: 'breakout' },
    });
    expect(journal.statusCode, journal.body).toBe(201);
    let s = await expectExact(t);
    expect([s.discipline.journaled, s.discipline.with_snapshot]).toEqual([1, 0]);
    const upload = await postForm(
      h,
      '/api/trade_journal/attachments/',
      t.token,
      { journal: journal.json().id },
      { field: 'file', name: 'chart.webp', data: WEBP },
    );
    expect(upload.statusCode, upload.body).toBe(201);
    s = await expectExact(t);
    expect(s.discipline.with_snapshot).toBe(1);

    // A live run links each trade it places to the run (the live-runs module's own write).
    const { botId, versionId } = await liveKit(() => h).version(t, 'def on_bar(ctx, bar):\n    pass\n');
    const runId = newId();
    await h.ctx.db
      .insertInto('live_runs')
      .values({
        id: runId,
        user_id: t.userId,
        bot_id: botId,
        bot_version_id: versionId,
        account_id: t.accountId,
        symbols: '["EURUSD"]',
        timeframe: 'M1',
        status: 'STOPPED',
        active_key: null,
        created_at: nowIso(),
        close_on_stop: 0,
        cursor: '{}',
        orders_count: 0,
        refused_count: 0,
      })
      .execute();
    await liveRunsRepo(h.ctx.db).linkTrade({
      trade_id: id,
      run_id: runId,
      user_id: t.userId,
      symbol: 'EURUSD',
      bar_time: nowIso(),
      created_at: nowIso(),
    });
    const b = await get<ReportBreakdowns>(`/api/reports/breakdowns/?account=${t.accountId}&by=bot`, t.token);
    expect(b.breakdowns.bot!.map((r) => [r.key, r.trades])).toEqual([['Bot', 1]]);
    await expectExact(t);
  });

  it('follows the broker sync: positions closed in the terminal, then one closed later', async () => {
    const t = await trader();
    const sim = await brokerRegistry(h.ctx).connected(await accountRow(h, t.accountId));
    await historySync(h.ctx).idle(t.accountId);
    const sync = async () => {
      // Deals younger than a few seconds may still be recorded by an execute call: the sync waits.
      clock += 5 * MINUTE;
      const res = await h.request('POST', `/api/history/accounts/${t.accountId}/sync/`, { token: t.token });
      expect(res.statusCode, res.body).toBe(200);
    };
    const a = await sim.placeOrder({
      client_order_id: 'terminal-a',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.3,
    });
    const b = await sim.placeOrder({
      client_order_id: 'terminal-b',
      symbol: 'GBPUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.2,
    });
    clock += 15 * MINUTE;
    await sim.closePosition(a.position_id!, 0.1);
    clock += 15 * MINUTE;
    await sim.closePosition(a.position_id!);
    await sync();
    expect((await expectExact(t)).figures.trades).toBe(1);
    clock += 10 * MINUTE;
    await sim.closePosition(b.position_id!);
    await sync();
    expect((await expectExact(t)).figures.trades).toBe(2);
  });

  it('follows a statement import, and a second import of it changes nothing', async () => {
    const t = await trader();
    await expectExact(t);
    const send = () =>
      postForm(
        h,
        `/api/history/accounts/${t.accountId}/import/?time_zone=FX`,
        t.token,
        {},
        {
          field: 'file',
          name: 'statement',
          data: statement,
        },
      );
    expect((await send()).statusCode).toBe(200);
    const once = await expectExact(t);
    expect(once.figures.trades).toBe(4);
    expect((await send()).statusCode).toBe(200);
    expect(await expectExact(t)).toEqual(once);
  });

  it('follows edits, a move to another month and deletes made to the rows directly', async () => {
    const t = await trader();
    const ids = [newId(), newId(), newId()];
    await seedTrades(
      h.ctx.db,
      { userId: t.userId, accountId: t.accountId, currency: 'USD' },
      ids.map((id, i) => ({
        id,
        symbol: 'EURUSD',
        direction: 'BUY',
        status: 'closed',
        volume: 0.1,
        entry_price: 1.1,
        created_at: `2026-02-0${i + 1}T10:00:00.000Z`,
        closed_at: `2026-02-0${i + 1}T11:00:00.000Z`,
        pl_minor: 100 * (i + 1),
        initial_risk_minor: 100,
      })),
    );
    await expectExact(t);
    const trades = tradesRepo(h.ctx.db);
    await trades.update(ids[0]!, { actual_pl_minor: -250, trader: 'Bea', reason: 'Gap fill' });
    expect((await expectExact(t)).figures.net_minor).toBe(-250 + 200 + 300);
    await trades.update(ids[1]!, { closed_at: '2026-03-01T09:00:00.000Z' });
    const moved = await expectExact(t);
    expect(moved.calendar.months.map((m) => [m.key, m.trades])).toEqual([
      ['2026-02', 2],
      ['2026-03', 1],
    ]);
    await trades.delete(ids[2]!);
    expect((await expectExact(t)).figures.trades).toBe(2);
    // Reopened (a sync correcting the broker's state): no longer closed, in no report.
    await trades.update(ids[0]!, { status: 'open', closed_at: null });
    expect((await expectExact(t)).figures.trades).toBe(1);
  });

  it('orders the trades of several accounts closed at the same instant by id, and forgets a deleted account', async () => {
    const t = await trader();
    const second = (await createAccount(h, t.token, { name: 'Second', platform: 'SIM' })).id;
    const at = '2026-04-06T12:00:00.000Z';
    const seed = (accountId: string, id: string, pl: number) =>
      seedTrades(h.ctx.db, { userId: t.userId, accountId, currency: 'USD' }, [
        {
          id,
          symbol: 'GBPUSD',
          direction: 'SELL',
          status: 'closed',
          volume: 0.1,
          entry_price: 1.3,
          created_at: '2026-04-06T09:00:00.000Z',
          closed_at: at,
          pl_minor: pl,
          initial_risk_minor: 50,
        },
      ]);
    // Ids chosen so the order by id alternates between the accounts.
    await seed(t.accountId, '00000000-0000-4000-8000-000000000003', 300);
    await seed(second, '00000000-0000-4000-8000-000000000002', -200);
    await seed(t.accountId, '00000000-0000-4000-8000-000000000001', 100);
    const both = await expectExact(t, [t.accountId, second]);
    expect(both.equity_curve.map((p) => p.equity_minor)).toEqual([100, -100, 200]);
    const gone = await h.request('DELETE', `/api/accounts/delete/${second}/`, { token: t.token });
    expect(gone.statusCode).toBe(204);
    expect((await expectExact(t)).figures.trades).toBe(2);
    const left = await h.ctx.db
      .selectFrom('report_facts')
      .select('account_id')
      .where('account_id', '=', second)
      .execute();
    expect(left).toEqual([]);
  });
});
