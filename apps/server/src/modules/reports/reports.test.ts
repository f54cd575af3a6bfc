import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPORT_DIMENSIONS, type ReportBreakdowns, type ReportSummary } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { newTrader, type Trader } from '../../test/traders';
import { newId } from '../../lib/ids';
import { seedTrades, type SeedTrade } from '../history/history.seed';

/**
 * The five trades of the domain's worked case (2026-01-05 is a Monday), filed as closed trades of
 * the account, plus an open trade that no report counts. Figures below are worked by hand.
 */
const closed = (
  id: string,
  symbol: string,
  direction: 'BUY' | 'SELL',
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
  entry_price: 1.1,
  created_at: opened,
  closed_at: closedAt,
  pl_minor: pl,
  initial_risk_minor: risk,
});

describeEachDb('reports API', (target) => {
  let h: Harness;
  let t: Trader;
  let other: Trader;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await createHarness(target);
    t = await newTrader(h, 'reporter');
    other = await newTrader(h, 'stranger');
    for (const k of ['A', 'B', 'C', 'D', 'E', 'open']) ids[k] = newId();
    const ctx = { userId: t.userId, accountId: t.accountId, currency: 'USD' };
    await seedTrades(h.ctx.db, ctx, [
      closed(ids.A!, 'EURUSD', 'BUY', '2026-01-05T08:30:00.000Z', '2026-01-05T08:40:00.000Z', 200, 100),
      closed(ids.B!, 'EURUSD', 'SELL', '2026-01-05T14:00:00.000Z', '2026-01-05T17:00:00.000Z', -100, 100),
      closed(ids.C!, 'GBPUSD', 'BUY', '2026-01-06T23:30:00.000Z', '2026-01-07T01:00:00.000Z', 50, null),
      closed(ids.D!, 'GBPUSD', 'SELL', '2026-01-07T13:00:00.000Z', '2026-01-09T13:00:00.000Z', -300, 200),
      closed(ids.E!, 'EURUSD', 'BUY', '2026-01-12T09:00:00.000Z', '2026-01-12T09:03:00.000Z', 0, 100),
      {
        id: ids.open!,
        symbol: 'EURUSD',
        direction: 'BUY',
        status: 'open',
        volume: 0.1,
        entry_price: 1.1,
        created_at: '2026-01-06T10:00:00.000Z',
      },
    ]);
    await h.ctx.db.updateTable('trades').set({ trader: 'ann' }).where('id', '=', ids.A!).execute();
    // Another user's closed trade in the same days: never in this user's reports.
    await seedTrades(h.ctx.db, { userId: other.userId, accountId: other.accountId, currency: 'USD' }, [
      closed(newId(), 'EURUSD', 'BUY', '2026-01-05T09:00:00.000Z', '2026-01-05T10:00:00.000Z', 9999, 100),
    ]);
    const journal = async (trade: string, fields: Record<string, string>) => {
      const res = await h.request('POST', '/api/trade_journal/journals/', {
        token: t.token,
        body: {
          trade,
          action: '',
          trade_timeframe: '',
          reason: 'Planned setup',
          details: '',
          strategy_tag: '',
          emotional_state: '',
          market_condition: '',
          ...fields,
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: string }).id;
    };
    const a = await journal(ids.A!, {
      reason: 'Breakout of the Asian range',
      strategy_tag: 'breakout',
      emotional_state: 'calm',
      market_condition: 'trending',
    });
    await h.ctx.db
      .insertInto('journal_attachments')
      .values({
        id: newId(),
        user_id: t.userId,
        journal_id: a,
        stored_name: 'snap.png',
        original_name: 'snap.png',
        content_type: 'image/png',
        size: 10,
        created_at: '2026-01-05T08:41:00.000Z',
      })
      .execute();
    // The latest non-empty value of each field counts.
    await journal(ids.B!, { reason: 'Fade', strategy_tag: 'reversal', emotional_state: 'fearful' });
    await journal(ids.B!, { strategy_tag: 'breakout', emotional_state: ' ' });
    await journal(ids.D!, { strategy_tag: 'reversal' });
    await journal(ids.E!, { strategy_tag: 'Breakout' });
  });
  afterAll(() => h.close());

  const get = async <T>(path: string, token = t.token): Promise<T> => {
    const res = await h.request('GET', path, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as T;
  };
  const summary = (q = '') => get<ReportSummary>(`/api/reports/summary/?account=${t.accountId}${q}`);

  it('summarises the closed trades: figures, calendar, R histogram, equity, streaks, discipline', async () => {
    const s = await summary();
    expect(s).toMatchObject({
      accounts: [t.accountId],
      currency: 'USD',
      currency_decimals: 2,
      time_zone: 'UTC',
    });
    expect(s.figures).toMatchObject({
      trades: 5,
      wins: 2,
      losses: 2,
      net_minor: -150,
      gross_profit_minor: 250,
      gross_loss_minor: 400,
      expectancy_minor: -30,
      r_trades: 4,
    });
    expect(s.figures.profit_factor).toBeCloseTo(0.625);
    expect(s.figures.expectancy_r).toBeCloseTo((2 - 1 - 1.5 + 0) / 4);
    expect(s.calendar.days.map((d) => [d.key, d.net_minor, d.trades])).toEqual([
      ['2026-01-05', 100, 2],
      ['2026-01-07', 50, 1],
      ['2026-01-09', -300, 1],
      ['2026-01-12', 0, 1],
    ]);
    expect(s.calendar.weeks.map((d) => [d.key, d.net_minor])).toEqual([
      ['2026-01-05', -150],
      ['2026-01-12', 0],
    ]);
    expect(s.calendar.months.map((d) => [d.key, d.net_minor])).toEqual([['2026-01', -150]]);
    expect(s.calendar.years.map((d) => [d.key, d.net_minor])).toEqual([['2026', -150]]);
    expect(s.r_histogram.without_risk).toBe(1);
    expect(s.r_histogram.bins.filter((b) => b.count).map((b) => [b.from_r, b.count])).toEqual([
      [-1.5, 1],
      [-1, 1],
      [0, 1],
      [2, 1],
    ]);
    expect(s.equity_curve.map((p) => [p.equity_minor, p.drawdown_minor])).toEqual([
      [200, 0],
      [100, 100],
      [150, 50],
      [-150, 350],
      [-150, 350],
    ]);
    expect(s.max_drawdown_minor).toBe(350);
    expect(s.streaks).toEqual({ longest_win: 1, longest_loss: 1, current: 0 });
    expect(s.discipline).toMatchObject({ trades: 5, journaled: 4, with_snapshot: 1, with_reason: 4 });
    expect(s.discipline.journaled_figures).toMatchObject({ trades: 4, net_minor: -200 });
    expect(s.discipline.not_journaled_figures).toMatchObject({ trades: 1, net_minor: 50 });
  });

  it('reads days in the chosen time zone and filters by range, instrument and tag', async () => {
    const ny = await summary('&tz=America/New_York');
    expect(ny.time_zone).toBe('America/New_York');
    expect(ny.calendar.days.map((d) => d.key)).toEqual([
      '2026-01-05',
      '2026-01-06',
      '2026-01-09',
      '2026-01-12',
    ]);
    const range = await summary('&from=2026-01-07&to=2026-01-09');
    expect([range.figures.trades, range.figures.net_minor]).toEqual([2, -250]);
    const gbp = await summary('&instrument=gbpusd');
    expect([gbp.figures.trades, gbp.figures.net_minor]).toEqual([2, -250]);
    const tag = await summary('&tag=breakout');
    expect([tag.figures.trades, tag.figures.net_minor]).toEqual([3, 100]);
    // Tags are matched whole, in any case, even with the characters SQL patterns treat specially.
    expect((await summary('&tag=%20BREAKOUT%20')).figures.trades).toBe(3);
    expect((await summary('&tag=break')).figures.trades).toBe(0);
    expect((await summary('&tag=r%25')).figures.trades).toBe(0);
    const all = await get<ReportSummary>('/api/reports/summary/');
    expect([all.accounts, all.figures.trades]).toEqual([[t.accountId], 5]);
  });

  it('breaks the figures down by instrument, weekday and hour in the zone, session, and journal', async () => {
    const b = await get<ReportBreakdowns>(
      `/api/reports/breakdowns/?account=${t.accountId}&by=instrument,weekday,hour,session,strategy_tag,trader&tz=Europe/Athens`,
    );
    expect(Object.keys(b.breakdowns).sort()).toEqual(
      ['hour', 'instrument', 'session', 'strategy_tag', 'trader', 'weekday'].sort(),
    );
    const rows = (k: keyof ReportBreakdowns['breakdowns']) =>
      b.breakdowns[k]!.map((r) => [r.key, r.trades, r.net_minor]);
    expect(rows('instrument')).toEqual([
      ['EURUSD', 3, 100],
      ['GBPUSD', 2, -250],
    ]);
    expect(rows('weekday')).toEqual([
      ['Monday', 3, 100],
      ['Wednesday', 2, -250],
    ]);
    expect(b.breakdowns.hour!.map((r) => r.key)).toEqual(['01:00', '10:00', '11:00', '15:00', '16:00']);
    expect(rows('session')).toEqual([
      ['Sydney', 1, 50],
      ['Tokyo', 1, 200],
      ['London', 4, -200],
      ['New York', 2, -400],
    ]);
    expect(rows('strategy_tag')).toEqual([
      ['Breakout', 1, 0],
      ['breakout', 2, 100],
      ['reversal', 1, -300],
      ['(none)', 1, 50],
    ]);
    expect(rows('trader')).toEqual([
      ['ann', 1, 200],
      ['(none)', 4, -350],
    ]);
    const all = await get<ReportBreakdowns>(`/api/reports/breakdowns/?account=${t.accountId}`);
    expect(Object.keys(all.breakdowns)).toEqual([...REPORT_DIMENSIONS]);
    expect(Object.keys(all.breakdowns)).toHaveLength(11);
  });

  it('tells trades a bot live run placed from manual ones', async () => {
    const manual = await get<ReportBreakdowns>(`/api/reports/breakdowns/?account=${t.accountId}&by=bot`);
    expect(manual.breakdowns.bot!.map((r) => [r.key, r.trades, r.net_minor])).toEqual([['Manual', 5, -150]]);
    // A live run of a bot placed D: the run's link to the trade (migration 0095) makes it a bot's.
    const now = '2026-01-07T12:00:00.000Z';
    const bot = newId();
    const version = newId();
    const run = newId();
    await h.ctx.db
      .insertInto('bots')
      .values({
        id: bot,
        user_id: t.userId,
        name: 'Breakout bot',
        account_id: t.accountId,
        strategy_template: '',
        is_active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await h.ctx.db
      .insertInto('bot_versions')
      .values({
        id: version,
        user_id: t.userId,
        bot_id: bot,
        strategy_file_content: '',
        params: '{}',
        notes: '',
        code_hash: 'x',
        created_at: now,
      })
      .execute();
    await h.ctx.db
      .insertInto('live_runs')
      .values({
        id: run,
        user_id: t.userId,
        bot_id: bot,
        bot_version_id: version,
        account_id: t.accountId,
        symbols: '["GBPUSD"]',
        timeframe: 'H1',
        status: 'STOPPED',
        active_key: null,
        created_at: now,
        started_at: now,
        stopped_at: now,
        last_heartbeat: null,
        error_message: null,
        stop_reason: null,
        close_on_stop: 0,
        cursor: '{}',
        orders_count: 1,
        refused_count: 0,
        lease_owner: null,
        lease_until: null,
      })
      .execute();
    await h.ctx.db
      .insertInto('live_run_trades')
      .values({
        trade_id: ids.D!,
        run_id: run,
        user_id: t.userId,
        symbol: 'GBPUSD',
        bar_time: now,
        created_at: now,
      })
      .execute();
    const b = await get<ReportBreakdowns>(
      `/api/reports/breakdowns/?account=${t.accountId}&by=bot,instrument`,
    );
    const bots = b.breakdowns.bot!;
    expect(bots.map((r) => [r.key, r.trades, r.net_minor, r.wins, r.losses])).toEqual([
      ['Manual', 4, 150, 2, 1],
      ['Bot', 1, -300, 0, 1],
    ]);
    expect(bots[1]!.expectancy_r).toBeCloseTo(-1.5);
    // Nothing else moves: the summary still counts the same five trades.
    expect((await summary()).figures).toMatchObject({ trades: 5, net_minor: -150 });
  });

  it("answers 404 for another user's account and 400 for bad filters, never 500", async () => {
    const res = await h.request('GET', `/api/reports/summary/?account=${t.accountId}`, {
      token: other.token,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Account not found.');
    for (const q of [
      '?tz=Mars/Olympus',
      '?from=2026-13-01',
      '?from=2026-01-09&to=2026-01-07',
      '?account=not-a-uuid',
      '?instrument=EUR%20USD',
    ]) {
      const bad = await h.request('GET', `/api/reports/summary/${q}`, { token: t.token });
      expect(bad.statusCode, q).toBe(400);
    }
    const badBy = await h.request('GET', '/api/reports/breakdowns/?by=instrument,colour', { token: t.token });
    expect(badBy.statusCode).toBe(400);
    expect(badBy.body).toContain('Breakdowns must be one or more of');
    expect((await h.request('GET', '/api/reports/summary/')).statusCode).toBe(401);
  });

  it('refuses to add up accounts in different currencies, and reports each one on its own', async () => {
    const u = await newTrader(h, 'twocurrencies');
    const demo = await h.ctx.db
      .selectFrom('trading_accounts')
      .selectAll()
      .where('id', '=', u.accountId)
      .executeTakeFirstOrThrow();
    const eurId = newId();
    await h.ctx.db
      .insertInto('trading_accounts')
      .values({ ...demo, id: eurId, name: 'Euro', currency: 'EUR' })
      .execute();
    const mixed = await h.request('GET', '/api/reports/summary/', { token: u.token });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).toContain('different currencies');
    const eur = await h.request('GET', `/api/reports/summary/?account=${eurId}`, { token: u.token });
    expect(eur.statusCode).toBe(200);
    expect(eur.json()).toMatchObject({ currency: 'EUR', accounts: [eurId], figures: { trades: 0 } });
  });
});
