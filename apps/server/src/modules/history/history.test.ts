import { afterAll, beforeAll, expect, it } from 'vitest';
import type { HistoryStats, HistoryTrade, HistoryTradesPage } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { clientLots, newTrader, type Trader } from '../../test/traders';
import { accountRow } from '../../test/accounts';
import { MINUTE, WEDNESDAY } from '../../test/sim-clock';
import { waitFor } from '../../test/wait-for';
import { brokerRegistry } from '../../brokers/registry';
import type { BrokerAdapter, Deal } from '../../brokers/types';
import { seedTrades, type SeedTrade } from './history.seed';
import { historySync } from './history.sync';

let clock = WEDNESDAY;

const cents = (deals: Deal[]) =>
  deals.reduce(
    (s, d) => s + Math.round(d.profit * 100) + Math.round(d.commission * 100) + Math.round(d.swap * 100),
    0,
  );

describeEachDb('trade history API', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    clock = WEDNESDAY;
    h = await createHarness(target, { simNow: () => clock });
  });
  afterAll(() => h.close());

  const trader = () => newTrader(h, `historian${++n}`);
  const modalLots = (t: Trader, symbol: string, riskPercent: number, slDistance: number) =>
    clientLots(h, clock, t, symbol, riskPercent, slDistance);

  /** The SIM account's adapter itself: orders placed here bypass the trades API, like a broker's own terminal. */
  async function terminal(t: Trader): Promise<BrokerAdapter> {
    const account = await accountRow(h, t.accountId);
    const adapter = await brokerRegistry(h.ctx).connected(account);
    // The run every connect starts is done before the test acts on the broker.
    await historySync(h.ctx).idle(t.accountId);
    return adapter;
  }

  const sync = async (t: Trader) => {
    const res = await h.request('POST', `/api/history/accounts/${t.accountId}/sync/`, { token: t.token });
    expect(res.statusCode).toBe(200);
    return res.json() as { new_deals: number; new_trades: number; updated_trades: number };
  };

  async function list(t: Trader, query = ''): Promise<HistoryTradesPage> {
    const res = await h.request('GET', `/api/history/accounts/${t.accountId}/trades/${query}`, {
      token: t.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  async function all(t: Trader, params: Record<string, string> = {}, limit = 500): Promise<HistoryTrade[]> {
    const out: HistoryTrade[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 1000; pages++) {
      const q = new URLSearchParams({ ...params, limit: String(limit), ...(cursor ? { cursor } : {}) });
      const page = await list(t, `?${q}`);
      out.push(...page.results);
      cursor = page.next_cursor;
      if (!cursor) return out;
    }
    throw new Error('too many pages');
  }

  const counts = async (accountId: string) => ({
    trades: (await h.ctx.db.selectFrom('trades').select('id').where('account_id', '=', accountId).execute())
      .length,
    deals: (
      await h.ctx.db.selectFrom('trade_deals').select('id').where('account_id', '=', accountId).execute()
    ).length,
  });

  it('files positions opened in the broker terminal as external trades, once however often it runs', async () => {
    const t = await trader();
    const sim = await terminal(t);
    const opened = await sim.placeOrder({
      client_order_id: 'terminal-1',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.3,
    });
    clock += 20 * MINUTE;
    await sim.closePosition(opened.position_id!, 0.1);
    clock += 20 * MINUTE;
    await sim.closePosition(opened.position_id!);
    const still = await sim.placeOrder({
      client_order_id: 'terminal-2',
      symbol: 'GBPUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.2,
    });
    clock += 5 * MINUTE;

    const first = await sync(t);
    expect(first.new_trades).toBe(2);
    // Three deals of the closed position, the opening deal of the open one.
    expect(first.new_deals).toBe(4);
    const trades = await all(t);
    expect(trades).toHaveLength(2);
    const closed = trades.find((x) => x.instrument === 'EURUSD')!;
    const deals = (
      await sim.deals(new Date(WEDNESDAY - MINUTE).toISOString(), new Date(clock).toISOString())
    ).filter((d) => d.position_id === opened.position_id);
    expect(closed).toMatchObject({
      direction: 'BUY',
      lot_size: 0.3,
      trade_status: 'closed',
      source: 'external',
      is_external: true,
      entry_price: opened.fill_price,
      closed_at: deals.at(-1)!.time,
      created_at: opened.filled_at,
    });
    expect(Math.round(closed.actual_profit_loss! * 100)).toBe(cents(deals));
    expect(closed.order_history.map((o) => [o.entry, o.filled_volume, o.deal_reason])).toEqual([
      ['IN', 0.3, 'MARKET'],
      ['OUT', 0.1, 'PARTIAL_CLOSE'],
      ['OUT', 0.2, 'CLOSE'],
    ]);
    const open = trades.find((x) => x.instrument === 'GBPUSD')!;
    expect(open).toMatchObject({
      direction: 'SELL',
      lot_size: 0.2,
      trade_status: 'open',
      is_external: true,
      actual_profit_loss: null,
      closed_at: null,
      created_at: still.filled_at,
    });
    expect(open.order_history.map((o) => o.entry)).toEqual(['IN']);

    // Running again adds nothing and changes nothing.
    const before = await counts(t.accountId);
    const again = await sync(t);
    expect(again).toMatchObject({ new_deals: 0, new_trades: 0, updated_trades: 0 });
    expect(await counts(t.accountId)).toEqual(before);
    expect(await all(t)).toEqual(trades);

    // Closed in the terminal later: the next run closes it; nothing is ever deleted.
    clock += 10 * MINUTE;
    await sim.closePosition(still.position_id!);
    clock += MINUTE;
    await sync(t);
    const after = (await all(t)).find((x) => x.id === open.id)!;
    expect(after.trade_status).toBe('closed');
    expect(after.order_history).toHaveLength(2);
    expect(after.closed_at).toBe(after.order_history[1]!.filled_at);
    expect((await counts(t.accountId)).trades).toBe(2);
  });

  it('syncs by itself when an account connects', async () => {
    const t = await trader();
    const sim = await terminal(t);
    const p = await sim.placeOrder({
      client_order_id: 'terminal-offline',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.1,
    });
    clock += 10 * MINUTE;
    await sim.closePosition(p.position_id!);
    clock += MINUTE;
    // The server loses the broker connection; on the next connect the history is pulled unasked.
    await brokerRegistry(h.ctx).evict(t.accountId);
    expect((await all(t)).length).toBe(0);
    await terminal(t);
    const trades = await all(t);
    expect(trades.map((x) => [x.instrument, x.trade_status, x.is_external, x.order_history.length])).toEqual([
      ['EURUSD', 'closed', true, 2],
    ]);
    const state = await h.ctx.db
      .selectFrom('history_sync_state')
      .selectAll()
      .where('account_id', '=', t.accountId)
      .executeTakeFirstOrThrow();
    expect(state).toMatchObject({ synced_to: new Date(clock).toISOString(), last_error: null });
  });

  it("sums a trade's deals with their commission and swap, for app and external trades alike", async () => {
    const t = await trader();
    const sim = await terminal(t);
    const ext = await sim.placeOrder({
      client_order_id: 'terminal-swap',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.5,
    });
    clock += 30 * MINUTE;
    await sim.closePosition(ext.position_id!);
    // The broker charged overnight swap on the position: it reports it on the closing deal.
    await h.ctx.db
      .updateTable('sim_deals')
      .set({ swap_minor: -37 })
      .where('position_id', '=', ext.position_id!)
      .where('entry', '=', 'OUT')
      .execute();
    clock += MINUTE;
    await sync(t);
    const extTrade = (await all(t)).find((x) => x.is_external)!;
    const detail = await h.request('GET', `/api/history/trades/${extTrade.id}/`, { token: t.token });
    expect(detail.statusCode).toBe(200);
    const d = detail.json() as HistoryTrade;
    const rows = await h.ctx.db
      .selectFrom('sim_deals')
      .selectAll()
      .where('position_id', '=', ext.position_id!)
      .execute();
    const expected = rows.reduce((sum, r) => sum + r.profit_minor + r.commission_minor + r.swap_minor, 0);
    expect(rows.every((r) => r.commission_minor < 0)).toBe(true);
    expect(Math.round(d.actual_profit_loss! * 100)).toBe(expected);
    expect(d.order_history.find((o) => o.entry === 'OUT')!.swap).toBe(-0.37);
    expect(d.order_history.map((o) => Object.keys(o).sort())[0]).toEqual(
      [
        'broker_deal_id',
        'commission',
        'deal_reason',
        'direction',
        'entry',
        'filled_at',
        'filled_price',
        'filled_volume',
        'id',
        'order_type',
        'profit',
        'swap',
      ].sort(),
    );

    // A trade placed and closed through the app: the same rule, and it is not external.
    const lots = await modalLots(t, 'EURUSD', 0.5, 0.002);
    const exec = await h.request('POST', '/api/trades/execute/', {
      token: t.token,
      body: {
        account_id: t.accountId,
        symbol: 'EURUSD',
        direction: 'BUY',
        order_type: 'MARKET',
        risk_percent: 0.5,
        stop_loss_distance: 0.002,
        rr_ratio: 2,
        reason: 'Range break',
        lot_size: lots,
      },
    });
    expect(exec.statusCode, exec.body).toBe(200);
    const tradeId = exec.json().trade_id as string;
    clock += 15 * MINUTE;
    // Meanwhile a position is opened and closed in the terminal; nobody asks for a sync.
    const quiet = await sim.placeOrder({
      client_order_id: 'terminal-quiet',
      symbol: 'USDJPY',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.1,
    });
    clock += 5 * MINUTE;
    await sim.closePosition(quiet.position_id!);
    clock += MINUTE;
    expect((await h.request('DELETE', `/api/trades/close/${tradeId}/`, { token: t.token })).statusCode).toBe(
      200,
    );
    const app = await waitFor(async () => {
      const r = await h.request('GET', `/api/history/trades/${tradeId}/`, { token: t.token });
      const body = r.json() as HistoryTrade;
      return body.trade_status === 'closed' && body;
    }, 'the closed app trade');
    const appDeals = await h.ctx.db
      .selectFrom('trade_deals')
      .selectAll()
      .where('trade_id', '=', tradeId)
      .execute();
    expect(appDeals.map((x) => x.entry).sort()).toEqual(['IN', 'OUT']);
    expect(Math.round(app.actual_profit_loss! * 100)).toBe(
      appDeals.reduce((sum, x) => sum + x.profit_minor + x.commission_minor + x.swap_minor, 0),
    );
    expect(app).toMatchObject({ is_external: false, source: 'app', reason: 'Range break', lot_size: lots });
    expect(app.r_multiple).not.toBeNull();
    // Closes set off history runs of their own: the terminal's USDJPY trade is filed unasked.
    const usdjpy = await waitFor(
      async () => (await all(t)).find((x) => x.instrument === 'USDJPY' && x.trade_status === 'closed'),
      'the terminal trade filed after the close',
    );
    expect(usdjpy.is_external).toBe(true);
  });

  const DAY = 86_400_000;
  const BASE = Date.parse('2026-02-01T00:00:00Z');
  const SYMBOLS = ['EURUSD', 'GBPUSD', 'XAUUSD', 'USDJPY'];
  const STATUSES = ['closed', 'closed', 'open', 'closed', 'pending', 'closed', 'cancelled'] as const;

  /** 60 trades over three days with repeated instruments, equal P/L values, equal created times and open trades. */
  function fixture(): SeedTrade[] {
    const out: SeedTrade[] = [];
    for (let i = 0; i < 60; i++) {
      const status = STATUSES[i % STATUSES.length]!;
      // Pairs of trades share a created_at, so the id decides between them.
      const created = BASE + Math.floor(i / 2) * 2.4 * 3_600_000;
      out.push({
        symbol: SYMBOLS[(i * 7) % 4]!,
        direction: i % 3 ? 'BUY' : 'SELL',
        status,
        volume: 0.1 + (i % 5) / 10,
        entry_price: 1.1 + i / 1000,
        created_at: new Date(created).toISOString(),
        closed_at: status === 'closed' ? new Date(created + 3_600_000).toISOString() : null,
        pl_minor: status === 'closed' ? ((i * 37) % 11) * 500 - 2500 : null,
        deals:
          status === 'closed'
            ? [
                { entry: 'IN', filled_at: new Date(created).toISOString(), price: 1.1, volume: 0.1 },
                {
                  entry: 'OUT',
                  filled_at: new Date(created + 3_600_000).toISOString(),
                  price: 1.2,
                  volume: 0.1,
                },
              ]
            : [],
      });
    }
    return out;
  }

  type Row = { id: string; symbol: string; created_at: string; actual_pl_minor: number | null };
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  const newestFirst = (a: Row, b: Row) => -cmp(a.created_at, b.created_at) || -cmp(a.id, b.id);
  const plOrder = (dir: 1 | -1) => (a: Row, b: Row) => {
    if (a.actual_pl_minor === null || b.actual_pl_minor === null)
      return (a.actual_pl_minor === null ? 1 : 0) - (b.actual_pl_minor === null ? 1 : 0) || newestFirst(a, b);
    return dir * cmp(a.actual_pl_minor, b.actual_pl_minor) || newestFirst(a, b);
  };
  const ORDERS: Record<string, (a: Row, b: Row) => number> = {
    newest: newestFirst,
    oldest: (a, b) => cmp(a.created_at, b.created_at) || cmp(a.id, b.id),
    instrument_asc: (a, b) => cmp(a.symbol, b.symbol) || newestFirst(a, b),
    instrument_desc: (a, b) => -cmp(a.symbol, b.symbol) || newestFirst(a, b),
    pl_desc: plOrder(-1),
    pl_asc: plOrder(1),
  };

  it('sorts six ways with stable ties and pages through every sort without duplicates or gaps', async () => {
    const t = await trader();
    const rows = await seedTrades(
      h.ctx.db,
      { userId: t.userId, accountId: t.accountId, currency: 'USD' },
      fixture(),
    );
    const first = await list(t);
    expect(first.results).toHaveLength(50);
    expect(first.next_cursor).not.toBeNull();
    expect(first.results[0]!.order_history.length + first.results[1]!.order_history.length).toBeGreaterThan(
      0,
    );
    for (const [sort, order] of Object.entries(ORDERS)) {
      const expected = [...rows].sort(order).map((r) => r.id);
      const whole = (await all(t, { sort }, 500)).map((r) => r.id);
      expect(whole, sort).toEqual(expected);
      const paged = (await all(t, { sort }, 7)).map((r) => r.id);
      expect(paged, `${sort} in pages of 7`).toEqual(expected);
      expect(new Set(paged).size).toBe(rows.length);
    }
    const pl = (await all(t, { sort: 'pl_desc' })).map((r) => r.actual_profit_loss);
    expect(pl[0]).toBe(25);
    expect(pl.at(-1)).toBeNull();
    // A cursor belongs to its sort.
    const bad = await list(t, `?limit=5`);
    const res = await h.request(
      'GET',
      `/api/history/accounts/${t.accountId}/trades/?sort=pl_asc&cursor=${bad.next_cursor}`,
      { token: t.token },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().detail.cursor).toHaveLength(1);
  });

  it('filters by dates (a date "to" includes the whole day), status and instrument', async () => {
    const t = await trader();
    const rows = await seedTrades(
      h.ctx.db,
      { userId: t.userId, accountId: t.accountId, currency: 'USD' },
      fixture(),
    );
    const ids = (pred: (r: (typeof rows)[number]) => boolean, sort = 'newest') =>
      rows
        .filter(pred)
        .sort(ORDERS[sort])
        .map((r) => r.id);
    const got = async (params: Record<string, string>, limit = 4) =>
      (await all(t, params, limit)).map((r) => r.id);

    const day2 = (r: Row) =>
      r.created_at >= '2026-02-02T00:00:00.000Z' && r.created_at < '2026-02-03T00:00:00.000Z';
    expect(ids(day2).length).toBeGreaterThan(5);
    expect(await got({ from: '2026-02-02', to: '2026-02-02' })).toEqual(ids(day2));
    expect(await got({ from: '2026-02-02T00:00:00Z', to: '2026-02-02T23:59:59.999Z' })).toEqual(ids(day2));
    // Instants with an offset: 2026-02-02 12:00 in UTC+2 is 10:00Z.
    expect(await got({ from: '2026-02-02T12:00:00+02:00' })).toEqual(
      ids((r) => r.created_at >= '2026-02-02T10:00:00.000Z'),
    );
    expect(await got({ to: '2026-02-01' })).toEqual(ids((r) => r.created_at < '2026-02-02T00:00:00.000Z'));
    expect(await got({ status: 'closed' })).toEqual(ids((r) => r.status === 'closed'));
    expect(await got({ status: 'open,pending' })).toEqual(
      ids((r) => r.status === 'open' || r.status === 'pending'),
    );
    expect(await got({ instrument: 'xauusd', sort: 'pl_desc' })).toEqual(
      ids((r) => r.symbol === 'XAUUSD', 'pl_desc'),
    );
    expect(
      await got({ instrument: 'EURUSD', status: 'closed', from: '2026-02-02', sort: 'oldest' }, 2),
    ).toEqual(
      ids((r) => r.symbol === 'EURUSD' && r.status === 'closed' && r.created_at >= '2026-02-02', 'oldest'),
    );
    expect((await list(t, '?instrument=NZDCHF')).results).toEqual([]);

    const bad = async (query: string) => {
      const res = await h.request('GET', `/api/history/accounts/${t.accountId}/trades/?${query}`, {
        token: t.token,
      });
      expect(res.statusCode, query).toBe(400);
      return res.json().detail as Record<string, string[]>;
    };
    expect(
      Object.keys(await bad('from=2026-13-01&to=yesterday&status=won&sort=best&limit=0')).sort(),
    ).toEqual(['from', 'limit', 'sort', 'status', 'to']);
    expect((await bad('from=2026-02-30')).from).toEqual([
      'Enter a date as YYYY-MM-DD or an ISO 8601 instant with a time zone.',
    ]);
    expect((await bad('from=2026-02-03T00:00:00')).from).toHaveLength(1);
    expect((await bad('limit=501')).limit).toEqual(['Limit must be a whole number from 1 to 500.']);
    expect((await bad('limit=2.5')).limit).toHaveLength(1);
    expect((await bad('from=2026-02-03&to=2026-02-02')).to).toEqual(['"to" must not be before "from".']);
    expect((await bad('cursor=not-a-cursor')).cursor).toHaveLength(1);
    expect(
      (await bad(`cursor=${Buffer.from('{"s":"newest","v":[1,2]}').toString('base64url')}`)).cursor,
    ).toHaveLength(1);
    expect((await bad('instrument=EUR%20USD;drop')).instrument).toHaveLength(1);
  });

  it('computes the stats of the trades closed in the range against a worked case', async () => {
    const t = await trader();
    const at = (d: number, hour: number) => new Date(BASE + d * DAY + hour * 3_600_000).toISOString();
    const closedTrade = (pl: number, risk: number | null, closedAt: string): SeedTrade => ({
      symbol: 'EURUSD',
      direction: 'BUY',
      status: 'closed',
      volume: 1,
      entry_price: 1.1,
      created_at: closedAt,
      closed_at: closedAt,
      pl_minor: pl,
      initial_risk_minor: risk,
    });
    await seedTrades(h.ctx.db, { userId: t.userId, accountId: t.accountId, currency: 'USD' }, [
      closedTrade(10_000, 5000, at(0, 10)), // +100.00, +2R
      closedTrade(-5000, 5000, at(0, 12)), // -50.00, -1R
      closedTrade(2500, 5000, at(1, 9)), // +25.00, +0.5R
      closedTrade(-2500, null, at(1, 15)), // -25.00, risk unknown
      closedTrade(0, 5000, at(2, 8)), // breakeven, 0R
      // Outside the range, or not closed: never counted.
      closedTrade(99_900, 5000, at(5, 8)),
      {
        symbol: 'GBPUSD',
        direction: 'SELL',
        status: 'open',
        volume: 1,
        entry_price: 1.3,
        created_at: at(1, 1),
      },
    ]);
    const res = await h.request(
      'GET',
      `/api/history/accounts/${t.accountId}/stats/?from=2026-02-01&to=2026-02-03`,
      { token: t.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json() as HistoryStats;
    expect(s).toMatchObject({
      currency: 'USD',
      from: '2026-02-01T00:00:00.000Z',
      to: '2026-02-04T00:00:00.000Z',
      trades: 5,
      wins: 2,
      losses: 2,
      breakeven: 1,
      win_rate: 0.4,
      profit_factor: 1.6667,
      gross_profit: 125,
      gross_loss: 75,
      net_profit_loss: 50,
      average_win: 62.5,
      average_loss: -37.5,
      expectancy: 10,
      expectancy_r: 0.375,
      r_trades: 4,
      best_trade: 100,
      worst_trade: -50,
      max_drawdown: 50, // peak 100 after the first trade, trough 50
    });
    expect(s.equity_curve).toEqual([
      { time: at(0, 10), equity: 100 },
      { time: at(0, 12), equity: 50 },
      { time: at(1, 9), equity: 75 },
      { time: at(1, 15), equity: 50 },
      { time: at(2, 8), equity: 50 },
    ]);
    const whole = (
      await h.request('GET', `/api/history/accounts/${t.accountId}/stats/`, { token: t.token })
    ).json();
    expect(whole).toMatchObject({ trades: 6, net_profit_loss: 1049, best_trade: 999 });
    const none = (
      await h.request('GET', `/api/history/accounts/${t.accountId}/stats/?from=2027-01-01`, {
        token: t.token,
      })
    ).json();
    expect(none).toMatchObject({
      trades: 0,
      win_rate: null,
      profit_factor: null,
      net_profit_loss: 0,
      equity_curve: [],
    });
    const bad = await h.request('GET', `/api/history/accounts/${t.accountId}/stats/?from=soon`, {
      token: t.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().detail)).toEqual(['from']);
  });

  it('exports the filtered trades as CSV with quoting and a formula guard', async () => {
    const t = await trader();
    const at = (hour: number) => new Date(BASE + hour * 3_600_000).toISOString();
    const [a, b] = await seedTrades(h.ctx.db, { userId: t.userId, accountId: t.accountId, currency: 'USD' }, [
      {
        symbol: 'EURUSD',
        direction: 'BUY',
        status: 'closed',
        volume: 0.25,
        entry_price: 1.08512,
        stop_loss: 1.083,
        created_at: at(1),
        closed_at: at(2),
        pl_minor: -1234,
        initial_risk_minor: 2468,
        rr_ratio: 2,
        reason: 'Retest, "clean" break\nsecond line',
      },
      {
        symbol: 'GBPUSD',
        direction: 'SELL',
        status: 'closed',
        volume: 1,
        entry_price: 1.265,
        created_at: at(3),
        closed_at: at(4),
        pl_minor: 5000,
        reason: '=HYPERLINK("http://evil.example","click")',
      },
      {
        symbol: 'XAUUSD',
        direction: 'BUY',
        status: 'open',
        volume: 0.1,
        entry_price: 2350,
        created_at: at(5),
        reason: '@SUM(A1:A2)',
      },
    ]);
    const res = await h.request(
      'GET',
      `/api/history/accounts/${t.accountId}/trades.csv?status=closed&sort=oldest&from=2026-02-01&to=2026-02-01`,
      { token: t.token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="trade-history-[a-z0-9-]+-2026-02-01-to-2026-02-01\.csv"$/,
    );
    expect(res.body).toBe(
      'id,created_at,closed_at,instrument,direction,lot_size,entry_price,stop_loss,take_profit,actual_profit_loss,currency,r_multiple,rr_ratio,trade_status,source,reason\r\n' +
        `${a!.id},${at(1)},${at(2)},EURUSD,BUY,0.25,1.08512,1.083,,-12.34,USD,-0.5,2,closed,app,"Retest, ""clean"" break\nsecond line"\r\n` +
        `${b!.id},${at(3)},${at(4)},GBPUSD,SELL,1,1.265,,,50.00,USD,,,closed,app,"'=HYPERLINK(""http://evil.example"",""click"")"\r\n`,
    );
    const every = await h.request('GET', `/api/history/accounts/${t.accountId}/trades.csv`, {
      token: t.token,
    });
    const lines = every.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/,XAUUSD,BUY,0.1,2350,,,,USD,,,open,app,'@SUM\(A1:A2\)$/);
    const bad = await h.request('GET', `/api/history/accounts/${t.accountId}/trades.csv?status=lost`, {
      token: t.token,
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().detail)).toEqual(['status']);
  });

  it("answers 404 for another user's account and trade everywhere", async () => {
    const owner = await trader();
    const [trade] = await seedTrades(
      h.ctx.db,
      { userId: owner.userId, accountId: owner.accountId, currency: 'USD' },
      fixture().slice(0, 3),
    );
    const other = await trader();
    const urls: Array<['GET' | 'POST', string]> = [
      ['GET', `/api/history/accounts/${owner.accountId}/trades/`],
      ['GET', `/api/history/accounts/${owner.accountId}/stats/`],
      ['GET', `/api/history/accounts/${owner.accountId}/trades.csv`],
      ['POST', `/api/history/accounts/${owner.accountId}/sync/`],
      ['GET', `/api/history/trades/${trade!.id}/`],
      ['GET', `/api/history/accounts/no-such-account/trades/`],
      ['GET', `/api/history/trades/no-such-trade/`],
    ];
    for (const [method, url] of urls) {
      const res = await h.request(method, url, { token: other.token });
      expect(res.statusCode, url).toBe(404);
      expect(typeof res.json().detail).toBe('string');
      expect(res.body).not.toContain(trade!.id);
    }
    for (const [method, url] of urls.slice(0, 5)) {
      expect((await h.request(method, url)).statusCode, url).toBe(401);
    }
    expect(
      (await h.request('GET', `/api/history/trades/${trade!.id}/`, { token: owner.token })).statusCode,
    ).toBe(200);
  });
});
