import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { accountRow, demoAccountRow } from '../../test/accounts';
import { HOUR, WEDNESDAY } from '../../test/sim-clock';
import { waitFor } from '../../test/wait-for';
import { knownErrorToHttp } from '../../lib/error-status';
import { brokerRegistry, createBrokerRegistry } from '../registry';
import type { BrokerAdapter, Quote } from '../types';

let clock = WEDNESDAY;

describeEachDb('sim broker', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    clock = WEDNESDAY;
    h = await createHarness(target, { simNow: () => clock });
  });
  afterAll(() => h.close());

  const market = () => brokerRegistry(h.ctx).sim.market;
  const quote = (symbol: string, t = clock): Quote => market().quoteAt(symbol, t);

  /** A fresh user and its Demo account (10,000 USD, 1:100), connected. */
  async function demo(): Promise<{ adapter: BrokerAdapter; accountId: string; userId: string }> {
    const { id: userId } = await h.user(`trader${++n}`);
    const row = await demoAccountRow(h, userId);
    return { adapter: await brokerRegistry(h.ctx).connected(row), accountId: row.id, userId };
  }

  /** The first instant after `from` (on the 250 ms price grid) where `pred` holds. */
  function firstTime(symbol: string, from: number, pred: (q: Quote) => boolean, span = 12 * HOUR): number {
    for (let t = from + 250; t < from + span; t += 250) if (pred(quote(symbol, t))) return t;
    throw new Error(`no such price of ${symbol} within the span`);
  }

  /** The lowest and highest bid of the next hours, to place levels the path is sure to reach. */
  function range(symbol: string, from: number, span = 6 * HOUR) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let t = from; t < from + span; t += 10_000) {
      const q = quote(symbol, t);
      lo = Math.min(lo, q.bid);
      hi = Math.max(hi, q.ask);
    }
    return { lo, hi };
  }

  const round = (v: number, d: number) => Number(v.toFixed(d));

  it('fills market orders at the ask (buy) and the bid (sell), charging commission per lot', async () => {
    clock = WEDNESDAY + 5 * 60_000;
    const { adapter } = await demo();
    const q = quote('EURUSD');
    const buy = await adapter.placeOrder({
      client_order_id: 'b1',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 1,
    });
    expect(buy).toMatchObject({ status: 'FILLED', fill_price: q.ask });
    const sell = await adapter.placeOrder({
      client_order_id: 's1',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.5,
    });
    expect(sell.fill_price).toBe(q.bid);
    const { positions } = await adapter.reconcile();
    expect(positions.map((p) => [p.side, p.volume, p.entry_price])).toEqual([
      ['BUY', 1, q.ask],
      ['SELL', 0.5, q.bid],
    ]);
    const info = await adapter.accountInfo();
    // USD 3.50 per lot per side: 1.5 lots opened.
    expect(info.balance).toBeCloseTo(10_000 - 5.25, 2);
    expect(info.margin).toBeCloseTo((1 * 100_000 * q.ask + 0.5 * 100_000 * q.bid) / 100, 0);
  });

  it('places an order once per client order id, however often it is retried', async () => {
    const { adapter } = await demo();
    const req = {
      client_order_id: 'same-id',
      symbol: 'GBPUSD',
      side: 'BUY' as const,
      kind: 'MARKET' as const,
      volume: 0.1,
    };
    const first = await adapter.placeOrder(req);
    const [second, third] = await Promise.all([
      adapter.placeOrder(req),
      adapter.placeOrder({ ...req, volume: 5 }),
    ]);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect((await adapter.reconcile()).positions).toHaveLength(1);
  });

  it('refuses an order without enough free margin (422) and opens nothing', async () => {
    const { adapter, accountId } = await demo();
    const row = await accountRow(h, accountId);
    const err = await brokerRegistry(h.ctx)
      .use(row, (a) =>
        a.placeOrder({ client_order_id: 'big', symbol: 'EURUSD', side: 'BUY', kind: 'MARKET', volume: 100 }),
      )
      .catch((e: unknown) => e);
    // A broker error, mapped once by the HTTP error handler: 422 for a refusal.
    const http = knownErrorToHttp(err);
    expect(http?.statusCode).toBe(422);
    expect(String(http?.detail)).toMatch(/Not enough free margin/);
    // 5 lots need about 5,800 USD: the first fits, a second does not.
    await adapter.placeOrder({
      client_order_id: 'five',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 5,
    });
    await expect(
      adapter.placeOrder({
        client_order_id: 'five-more',
        symbol: 'EURUSD',
        side: 'BUY',
        kind: 'MARKET',
        volume: 5,
      }),
    ).rejects.toMatchObject({ kind: 'rejected' });
    expect((await adapter.reconcile()).positions).toHaveLength(1);
  });

  it('fills a buy limit when the ask comes down to it, at that price or better', async () => {
    clock = WEDNESDAY + HOUR;
    const { adapter } = await demo();
    const q = quote('EURUSD');
    const { lo } = range('EURUSD', clock);
    const limit = round(q.ask - (q.ask - lo) / 2, 5);
    const placed = await adapter.placeOrder({
      client_order_id: 'lim',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'LIMIT',
      volume: 0.2,
      limit_price: limit,
      stop_loss: { distance: 0.002 },
    });
    expect(placed.status).toBe('PENDING');
    expect((await adapter.reconcile()).orders).toEqual([
      expect.objectContaining({ limit_price: limit, volume: 0.2 }),
    ]);
    clock = firstTime('EURUSD', clock, (x) => x.ask <= limit);
    const pos = await waitFor(async () => (await adapter.reconcile()).positions[0], 'the limit fill');
    expect(pos.entry_price).toBeLessThanOrEqual(limit);
    expect(pos.entry_price).toBe(quote('EURUSD').ask);
    expect(pos.stop_loss).toBe(round(pos.entry_price - 0.002, 5));
    expect((await adapter.reconcile()).orders).toEqual([]);
    const again = await adapter.placeOrder({
      client_order_id: 'lim',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'LIMIT',
      volume: 0.2,
      limit_price: limit,
    });
    expect(again).toMatchObject({ status: 'FILLED', position_id: pos.position_id });
  });

  it('closes a buy at the bid when the bid reaches its stop loss', async () => {
    clock = WEDNESDAY + 2 * HOUR;
    const { adapter } = await demo();
    const q = quote('EURUSD');
    const { lo } = range('EURUSD', clock);
    const sl = round(q.bid - (q.bid - lo) / 2, 5);
    const placed = await adapter.placeOrder({
      client_order_id: 'sl',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 1,
      stop_loss: { price: sl },
    });
    const opened = clock;
    // The ask touching the level must not close a buy: only its bid counts.
    clock = firstTime('EURUSD', opened, (x) => x.bid <= sl);
    const hit = quote('EURUSD');
    const deals = await waitFor(async () => {
      const d = await adapter.deals(new Date(opened).toISOString(), new Date(clock + 1).toISOString());
      return d.length === 2 && d;
    }, 'the stop loss');
    expect(deals[1]).toMatchObject({
      position_id: placed.position_id,
      entry: 'OUT',
      side: 'SELL',
      reason: 'STOP_LOSS',
      price: hit.bid,
      volume: 1,
    });
    expect(deals[1]!.price).toBeLessThanOrEqual(sl);
    expect(deals[1]!.profit).toBeCloseTo((hit.bid - placed.fill_price!) * 100_000, 2);
    expect((await adapter.reconcile()).positions).toEqual([]);
  });

  it('closes a sell at the ask when the ask reaches its take profit', async () => {
    clock = WEDNESDAY + 3 * HOUR;
    const { adapter } = await demo();
    const q = quote('GBPUSD');
    const { lo } = range('GBPUSD', clock);
    const tp = round(q.ask - (q.ask - lo) / 2, 5);
    const placed = await adapter.placeOrder({
      client_order_id: 'tp',
      symbol: 'GBPUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.3,
      take_profit: { price: tp },
    });
    expect(placed.fill_price).toBe(q.bid);
    clock = firstTime('GBPUSD', clock, (x) => x.ask <= tp);
    const hit = quote('GBPUSD');
    const out = await waitFor(async () => {
      const d = await adapter.deals('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z');
      return d.find((x) => x.entry === 'OUT');
    }, 'the take profit');
    expect(out).toMatchObject({ reason: 'TAKE_PROFIT', side: 'BUY', price: hit.ask });
    expect(out.profit).toBeCloseTo((placed.fill_price! - hit.ask) * 0.3 * 100_000, 2);
    expect(out.profit).toBeGreaterThan(0);
  });

  it('closes part of a position, then the rest', async () => {
    clock = WEDNESDAY + 4 * HOUR;
    const { adapter } = await demo();
    const placed = await adapter.placeOrder({
      client_order_id: 'pc',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 1,
    });
    const before = await adapter.accountInfo();
    clock += 20 * 60_000;
    const q = quote('EURUSD');
    const part = await adapter.closePosition(placed.position_id!, 0.4);
    expect(part).toMatchObject({ entry: 'OUT', volume: 0.4, reason: 'PARTIAL_CLOSE', price: q.bid });
    expect(part.profit).toBeCloseTo((q.bid - placed.fill_price!) * 40_000, 2);
    expect(part.commission).toBeCloseTo(-1.4, 2);
    const after = await adapter.accountInfo();
    expect(after.balance).toBeCloseTo(before.balance + part.profit + part.commission, 2);
    expect((await adapter.reconcile()).positions).toEqual([expect.objectContaining({ volume: 0.6 })]);
    await expect(adapter.closePosition(placed.position_id!, 2)).rejects.toMatchObject({ kind: 'rejected' });
    const rest = await adapter.closePosition(placed.position_id!);
    expect(rest).toMatchObject({ volume: 0.6, reason: 'CLOSE' });
    expect((await adapter.reconcile()).positions).toEqual([]);
    await expect(adapter.closePosition(placed.position_id!)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('converts the P/L of a JPY-quoted symbol into the USD account currency', async () => {
    clock = WEDNESDAY + 5 * HOUR;
    const { adapter } = await demo();
    const placed = await adapter.placeOrder({
      client_order_id: 'jpy',
      symbol: 'USDJPY',
      side: 'BUY',
      kind: 'MARKET',
      volume: 1,
    });
    clock += 2 * HOUR;
    const q = quote('USDJPY');
    const deal = await adapter.closePosition(placed.position_id!);
    const inJpy = (q.bid - placed.fill_price!) * 100_000;
    const expectedUsd = inJpy / q.bid;
    expect(Math.abs(deal.profit - expectedUsd)).toBeLessThan(Math.abs(expectedUsd) * 0.002 + 0.02);
    expect(Math.abs(deal.profit)).toBeLessThan(Math.abs(inJpy) / 100);
    const info = await adapter.accountInfo();
    expect(info.balance).toBeCloseTo(10_000 - 3.5 + deal.profit - 3.5, 2);
    expect(info.currency).toBe('USD');
  });

  it('amends stops, cancels orders, streams events and lists deals by time range', async () => {
    clock = WEDNESDAY + 6 * HOUR;
    const { adapter } = await demo();
    const events: string[] = [];
    const stop = adapter.onEvent((e) => {
      if (e.type === 'execution') events.push(`execution:${e.deal.entry}`);
      else if (e.type === 'position' || e.type === 'order') events.push(`${e.type}:${e.status}`);
      else if (e.type === 'account') events.push('account');
    });
    const q = quote('EURUSD');
    const placed = await adapter.placeOrder({
      client_order_id: 'ev',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.1,
    });
    expect(events).toEqual(['execution:IN', 'position:OPENED', 'account']);

    const amended = await adapter.amendPosition(placed.position_id!, {
      stop_loss: round(q.bid - 0.003, 5),
      take_profit: round(q.bid + 0.004, 5),
    });
    expect(amended).toMatchObject({
      stop_loss: round(q.bid - 0.003, 5),
      take_profit: round(q.bid + 0.004, 5),
    });
    await expect(
      adapter.amendPosition(placed.position_id!, { stop_loss: round(q.bid + 0.001, 5) }),
    ).rejects.toMatchObject({ kind: 'rejected' });
    expect((await adapter.amendPosition(placed.position_id!, { take_profit: null })).take_profit).toBeNull();

    const limit = await adapter.placeOrder({
      client_order_id: 'ev-lim',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'LIMIT',
      volume: 0.1,
      limit_price: round(q.bid + 0.05, 5),
    });
    await adapter.cancelOrder(limit.order_id);
    expect((await adapter.reconcile()).orders).toEqual([]);
    await expect(adapter.cancelOrder(limit.order_id)).rejects.toMatchObject({ kind: 'not_found' });
    expect(events).toContain('order:PLACED');
    expect(events).toContain('order:CANCELLED');

    clock += HOUR;
    await adapter.closePosition(placed.position_id!);
    stop();
    const iso = (t: number) => new Date(t).toISOString();
    expect((await adapter.deals(iso(WEDNESDAY + 6 * HOUR), iso(clock + 1))).map((d) => d.entry)).toEqual([
      'IN',
      'OUT',
    ]);
    expect((await adapter.deals(iso(WEDNESDAY + 6 * HOUR + 1), iso(clock + 1))).map((d) => d.entry)).toEqual([
      'OUT',
    ]);
    expect(await adapter.deals(iso(WEDNESDAY), iso(WEDNESDAY + HOUR))).toEqual([]);
  });

  it('closes a position once when two server processes watch the same account', async () => {
    clock = WEDNESDAY + 7 * HOUR;
    const { adapter, accountId } = await demo();
    const q = quote('EURUSD');
    const { lo } = range('EURUSD', clock);
    const sl = round(q.bid - (q.bid - lo) / 2, 5);
    const placed = await adapter.placeOrder({
      client_order_id: 'twice',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 1,
      stop_loss: { price: sl },
    });
    // A second process on the same database: its own registry, adapter and checker.
    const other = createBrokerRegistry(h.ctx);
    const row = await accountRow(h, accountId);
    const twin = await other.connected(row);
    expect((await twin.reconcile()).positions.map((p) => p.position_id)).toEqual([placed.position_id]);

    clock = firstTime('EURUSD', clock, (x) => x.bid <= sl);
    await waitFor(
      async () =>
        (
          await h.ctx.db
            .selectFrom('sim_positions')
            .select('id')
            .where('account_id', '=', accountId)
            .execute()
        ).length === 0,
      'the stop',
    );
    await new Promise((r) => setTimeout(r, 600));
    const outs = await h.ctx.db
      .selectFrom('sim_deals')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('entry', '=', 'OUT')
      .execute();
    expect(outs).toHaveLength(1);
    const ledger = await h.ctx.db
      .selectFrom('sim_accounts')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    expect(Number(ledger.balance_minor)).toBe(1_000_000 - 350 - 350 + Number(outs[0]!.profit_minor));
    await expect(twin.closePosition(placed.position_id!)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await twin.accountInfo()).balance).toBeCloseTo(Number(ledger.balance_minor) / 100, 2);
    await other.closeAll();
  });

  it('keeps open positions and pending orders across a restart, and keeps checking them', async () => {
    clock = WEDNESDAY + 8 * HOUR;
    const { adapter, accountId } = await demo();
    const q = quote('EURUSD');
    const { lo, hi } = range('EURUSD', clock);
    const sl = round(q.bid - (q.bid - lo) / 2, 5);
    const placed = await adapter.placeOrder({
      client_order_id: 'keep',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.5,
      stop_loss: { price: sl },
      take_profit: { price: round(hi + 0.05, 5) },
    });
    await adapter.placeOrder({
      client_order_id: 'keep-limit',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'LIMIT',
      volume: 0.1,
      limit_price: round(lo - 0.05, 5),
    });
    const opened = clock;

    h = await h.restart();
    const positions = await h.ctx.db
      .selectFrom('sim_positions')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    expect(positions).toEqual([
      expect.objectContaining({ id: placed.position_id, volume: 0.5, stop_loss: sl }),
    ]);
    const pending = await h.ctx.db
      .selectFrom('sim_orders')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('status', '=', 'PENDING')
      .execute();
    expect(pending).toHaveLength(1);

    // Nobody touches the account: the checker started at boot closes the position at its stop.
    clock = firstTime('EURUSD', opened, (x) => x.bid <= sl);
    await waitFor(
      async () =>
        (
          await h.ctx.db
            .selectFrom('sim_positions')
            .select('id')
            .where('account_id', '=', accountId)
            .execute()
        ).length === 0,
      'the stop after restart',
    );
    const deal = await h.ctx.db
      .selectFrom('sim_deals')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('entry', '=', 'OUT')
      .executeTakeFirstOrThrow();
    expect(deal).toMatchObject({ reason: 'STOP_LOSS', price: quote('EURUSD').bid });
    const row = await accountRow(h, accountId);
    const after = await brokerRegistry(h.ctx).connected(row);
    expect((await after.reconcile()).orders).toHaveLength(1);
    expect((await after.accountInfo()).balance).toBeCloseTo(
      10_000 - 1.75 - 1.75 + Number(deal.profit_minor) / 100,
      2,
    );
  });
});
