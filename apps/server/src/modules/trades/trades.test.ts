import { afterAll, beforeAll, expect, it } from 'vitest';
import { averageTrueRange } from '@tradedesk/domain';
import type { OpenPosition, TradeExecuteRequest } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { clientLots, newTrader, type Trader, setRiskRules } from '../../test/traders';
import { HOUR, WEDNESDAY } from '../../test/sim-clock';
import { waitFor } from '../../test/wait-for';
import { brokerRegistry } from '../../brokers/registry';
import type { Quote } from '../../brokers/types';

let clock = WEDNESDAY;

const round = (v: number, d: number) => Number(v.toFixed(d));

describeEachDb('trades API', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    clock = WEDNESDAY;
    h = await createHarness(target, { simNow: () => clock });
  });
  afterAll(() => h.close());

  const market = () => brokerRegistry(h.ctx).sim.market;
  const quote = (symbol: string, t = clock): Quote => market().quoteAt(symbol, t);

  const trader = () => newTrader(h, `trader${++n}`);
  const modalLots = (t: Trader, symbol: string, riskPercent: number, slDistance: number) =>
    clientLots(h, clock, t, symbol, riskPercent, slDistance);

  async function body(t: Trader, over: Partial<TradeExecuteRequest> = {}): Promise<TradeExecuteRequest> {
    const symbol = over.symbol ?? 'EURUSD';
    const risk = over.risk_percent ?? 0.5;
    const sl = over.stop_loss_distance ?? 0.002;
    return {
      account_id: t.accountId,
      symbol,
      direction: 'BUY',
      order_type: 'MARKET',
      risk_percent: risk,
      stop_loss_distance: sl,
      rr_ratio: 2,
      reason: 'Breakout retest',
      trader: 'Alice',
      timeframe: '15M',
      lot_size: await modalLots(t, symbol, risk, sl),
      ...over,
    };
  }

  const execute = (t: Trader, b: TradeExecuteRequest, headers?: Record<string, string>) =>
    h.request('POST', '/api/trades/execute/', { token: t.token, body: b, headers });

  async function positions(t: Trader): Promise<OpenPosition[]> {
    const res = await h.request('GET', `/api/trades/open-positions/${t.accountId}/`, { token: t.token });
    expect(res.statusCode).toBe(200);
    return res.json().open_positions;
  }

  const tradeRow = (id: string) =>
    h.ctx.db.selectFrom('trades').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** The first instant after `from` (on the 250 ms price grid) where `pred` holds. */
  function firstTime(symbol: string, from: number, pred: (q: Quote) => boolean, span = 24 * HOUR): number {
    for (let t = from + 250; t < from + span; t += 250) if (pred(quote(symbol, t))) return t;
    throw new Error(`no such price of ${symbol} within the span`);
  }

  /** The side whose profit reaches `away` first from `from`: the sim is deterministic, so tests can pick it. */
  function winningSide(symbol: string, from: number, away: number): 'BUY' | 'SELL' {
    const q0 = quote(symbol, from);
    for (let t = from + 250; t < from + 48 * HOUR; t += 250) {
      const q = quote(symbol, t);
      if (q.bid >= q0.ask + away) return 'BUY';
      if (q.ask <= q0.bid - away) return 'SELL';
    }
    throw new Error('the price does not move that far');
  }

  const setRules = (t: Trader, rules: Record<string, unknown>) => setRiskRules(h, t, rules);

  it('executes a market trade sized from risk and shows it in open positions with a live P/L', async () => {
    clock = WEDNESDAY + 5 * 60_000;
    const t = await trader();
    const b = await body(t);
    // 0.5 % of 10,000 USD over 20 pips of EURUSD (10 USD per pip per lot) = 50 / 200 = 0.25 lots.
    expect(b.lot_size).toBe(0.25);
    const q = quote('EURUSD');
    const res = await execute(t, b);
    expect(res.statusCode).toBe(200);
    const { trade_id } = res.json();
    expect(res.json()).toMatchObject({ status: 'open', message: 'Trade executed successfully!' });
    const [p] = await positions(t);
    expect(p).toMatchObject({
      id: trade_id,
      instrument: 'EURUSD',
      direction: 'BUY',
      lot_size: 0.25,
      entry_price: q.ask,
      stop_loss: round(q.ask - 0.002, 5),
      profit_target: round(q.ask + 0.004, 5),
      rr_ratio: 2,
    });
    expect(p!.position_id).toBeTruthy();
    // Opened at the ask, valued at the bid: the spread is the P/L right after the fill.
    expect(p!.current_pl).toBeCloseTo((q.bid - q.ask) * 25_000, 1);
    const row = await tradeRow(trade_id);
    expect(row).toMatchObject({
      status: 'open',
      reason: 'Breakout retest',
      trader: 'Alice',
      timeframe: '15M',
      source: 'app',
    });
    expect(Number(row.initial_risk_minor)).toBe(5000);
    const deals = await h.ctx.db
      .selectFrom('trade_deals')
      .selectAll()
      .where('trade_id', '=', trade_id)
      .execute();
    expect(deals).toEqual([
      expect.objectContaining({
        entry: 'IN',
        order_type: 'MARKET',
        filled_price: q.ask,
        filled_volume: 0.25,
      }),
    ]);

    // A minute later the P/L follows the market.
    clock += 60_000;
    await new Promise((r) => setTimeout(r, 300));
    const [later] = await positions(t);
    expect(later!.current_pl).toBeCloseTo((quote('EURUSD').bid - q.ask) * 25_000, 1);
  });

  it('places a limit trade that stays pending until the price comes to it, then opens', async () => {
    clock = WEDNESDAY + HOUR;
    const t = await trader();
    const q = quote('EURUSD');
    const limit = round(q.ask - 0.0008, 5);
    const res = await execute(t, await body(t, { order_type: 'LIMIT', limit_price: limit }));
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('pending');
    const id = res.json().trade_id;
    expect(await positions(t)).toEqual([]);
    clock = firstTime('EURUSD', clock, (x) => x.ask <= limit);
    const p = await waitFor(async () => (await positions(t))[0], 'the limit fill');
    expect(p.id).toBe(id);
    expect(p.entry_price).toBeLessThanOrEqual(limit);
    expect(p.stop_loss).toBe(round(p.entry_price! - 0.002, 5));
    expect((await tradeRow(id)).status).toBe('open');

    // A limit that is still pending is cancelled by the Close button.
    const far = round(quote('EURUSD').ask - 0.05, 5);
    const pending = (await execute(t, await body(t, { order_type: 'LIMIT', limit_price: far }))).json();
    expect(pending.status).toBe('pending');
    const cancelled = await h.request('DELETE', `/api/trades/close/${pending.trade_id}/`, { token: t.token });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', message: 'Order cancelled successfully.' });
    expect((await tradeRow(pending.trade_id)).status).toBe('cancelled');
    const orders = await h.ctx.db
      .selectFrom('sim_orders')
      .select('status')
      .where('client_order_id', '=', (await tradeRow(pending.trade_id)).client_order_id)
      .execute();
    expect(orders).toEqual([{ status: 'CANCELLED' }]);
    expect((await positions(t)).map((x) => x.id)).toEqual([id]);
  });

  it('returns the first result for a retried Idempotency-Key, never a second trade', async () => {
    clock = WEDNESDAY + 2 * HOUR;
    const t = await trader();
    const b = await body(t);
    const headers = { 'idempotency-key': 'retry-1' };
    const first = await execute(t, b, headers);
    const [second, third] = await Promise.all([execute(t, b, headers), execute(t, b, headers)]);
    expect(first.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(third.json()).toEqual(first.json());
    expect(await positions(t)).toHaveLength(1);
    // A refusal is an answer too: replayed for the same body.
    const bad = { ...b, lot_size: 3 };
    const refused = await execute(t, bad, { 'idempotency-key': 'retry-2' });
    expect(refused.statusCode).toBe(422);
    const again = await execute(t, bad, { 'idempotency-key': 'retry-2' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual(refused.json());
    // The key is bound to its body: another body under a used key is refused, never the first answer.
    const keyReuse =
      'This Idempotency-Key was already used with a different request body; send a new key for a new trade.';
    for (const [key, other] of [
      ['retry-2', b],
      ['retry-1', { ...b, direction: 'SELL' as const }],
    ] as const) {
      const reused = await execute(t, other, { 'idempotency-key': key });
      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toEqual({ detail: keyReuse });
    }
    expect(await positions(t)).toHaveLength(1);
    // The key belongs to its user: another trader's same key is a new request.
    const other = await trader();
    const theirs = await execute(other, await body(other), headers);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().trade_id).not.toBe(first.json().trade_id);
  });

  it('risk is a ceiling: refuses a lot above the plan, or more than a step below it; places its own lot', async () => {
    clock = WEDNESDAY + 2 * HOUR;
    const t = await trader();
    const b = await body(t);
    expect(b.lot_size).toBe(0.25);
    for (const lot of [0.5, 0.26, 0.23]) {
      const res = await execute(t, { ...b, lot_size: lot });
      expect(res.statusCode, String(lot)).toBe(422);
      expect(res.json().detail).toMatch(
        new RegExp(
          `^lot_size ${lot} is (above the plan|more than one volume step \\(0.01\\) below the plan): 0.5% of equity 10000.00 USD with the stop 0.002 away \\(20 pips\\) allows 0.25 lots on EURUSD`,
        ),
      );
    }
    expect(await positions(t)).toEqual([]);
    // One step below is accepted; the server places its own 0.25.
    expect((await execute(t, { ...b, lot_size: 0.24 })).statusCode).toBe(200);
    expect((await positions(t)).map((p) => p.lot_size)).toEqual([0.25]);
  });

  it('refuses a lot above max_lot_size naming the cap', async () => {
    const t = await trader();
    await setRules(t, { max_lot_size: 0.1 });
    const res = await execute(t, { ...(await body(t)), lot_size: 0.25 });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(
      /^lot_size 0.25 is above the plan: .* allows 0.10 lots on EURUSD \(Volume capped at the account's max_lot_size of 0.10 lots \(risk would allow 0.25\)\.\)/,
    );
  });

  it('refuses by max_trade_risk with the numbers', async () => {
    const t = await trader();
    await setRules(t, { max_trade_risk: 1 });
    const res = await execute(t, await body(t, { risk_percent: 2 }));
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe(
      'max_trade_risk: this trade risks 2.00% of equity (200.00 USD), above the 1.00% limit.',
    );
    expect((await execute(t, await body(t, { risk_percent: 1 }))).statusCode).toBe(200);
  });

  it('refuses by max_open_positions and max_open_trades_same_symbol', async () => {
    const t = await trader();
    await setRules(t, { max_open_positions: 2, max_open_trades_same_symbol: 1 });
    expect((await execute(t, await body(t))).statusCode).toBe(200);
    const same = await execute(t, await body(t));
    expect(same.statusCode).toBe(422);
    expect(same.json().detail).toBe(
      'max_open_trades_same_symbol: 1 EURUSD trade is already open, the limit is 1.',
    );
    expect((await execute(t, await body(t, { symbol: 'GBPUSD' }))).statusCode).toBe(200);
    const third = await execute(t, await body(t, { symbol: 'USDJPY', stop_loss_distance: 0.3 }));
    expect(third.statusCode).toBe(422);
    expect(third.json().detail).toBe('max_open_positions: 2 positions are already open, the limit is 2.');
  });

  it('refuses by max_daily_loss counting open risk', async () => {
    const t = await trader();
    await setRules(t, { max_daily_loss: 1 });
    expect((await execute(t, await body(t, { risk_percent: 0.6 }))).statusCode).toBe(200);
    const res = await execute(t, await body(t, { risk_percent: 0.6, symbol: 'GBPUSD' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(
      /^max_daily_loss: realised loss today \d.\d\d USD \+ open risk 6\d.\d\d USD \+ this trade 5\d.\d\d USD = 1\d\d.\d\d USD, above the 1.00% limit of 100.00 USD \(of 10000.00 USD balance at the start of the day\)\.$/,
    );
  });

  it('refuses during a cooldown after consecutive losses', async () => {
    clock = WEDNESDAY + 3 * HOUR;
    const t = await trader();
    await setRules(t, { enforce_cooldowns: true, consecutive_loss_limit: 2, cooldown_period: '01:00:00' });
    for (let i = 0; i < 2; i++) {
      const { trade_id } = (await execute(t, await body(t))).json();
      // Closed at once: the spread and commission make it a small loss.
      const closed = await h.request('DELETE', `/api/trades/close/${trade_id}/`, { token: t.token });
      expect(closed.statusCode).toBe(200);
      expect(closed.json().profit).toBeLessThan(0);
    }
    const res = await execute(t, await body(t));
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(
      /^cooldown: 2 consecutive losing trades \(limit 2\); no new trade until 2026-01-07T14:00:00Z, 01:00:00 from now/,
    );
    clock += HOUR;
    expect((await execute(t, await body(t))).statusCode).toBe(200);
  });

  it('closes a trade: it leaves open positions and keeps its realised P/L and deals', async () => {
    clock = WEDNESDAY + 4 * HOUR;
    const t = await trader();
    const { trade_id } = (await execute(t, await body(t))).json();
    clock += 30 * 60_000;
    const q = quote('EURUSD');
    const res = await h.request('DELETE', `/api/trades/close/${trade_id}/`, { token: t.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Trade closed successfully!',
      status: 'closed',
      lot_size: 0,
    });
    expect(await positions(t)).toEqual([]);
    const row = await tradeRow(trade_id);
    const deals = await h.ctx.db
      .selectFrom('trade_deals')
      .selectAll()
      .where('trade_id', '=', trade_id)
      .execute();
    expect(deals.map((d) => [d.entry, d.deal_reason])).toEqual([
      ['IN', 'MARKET'],
      ['OUT', 'CLOSE'],
    ]);
    expect(deals[1]!.filled_price).toBe(q.bid);
    const sum = deals.reduce(
      (s, d) => s + Number(d.profit_minor) + Number(d.commission_minor) + Number(d.swap_minor),
      0,
    );
    expect(row).toMatchObject({ status: 'closed', closed_at: new Date(clock).toISOString() });
    expect(Number(row.actual_pl_minor)).toBe(sum);
    const again = await h.request('DELETE', `/api/trades/close/${trade_id}/`, { token: t.token });
    expect(again.statusCode).toBe(422);
  });

  it('partially closes within the limits of the remaining lot size', async () => {
    clock = WEDNESDAY + 5 * HOUR;
    const t = await trader();
    const { trade_id } = (await execute(t, await body(t))).json();
    const pc = (v: unknown) =>
      h.request('POST', `/api/trades/${trade_id}/partial-close/`, {
        token: t.token,
        body: { volume_to_close: v },
      });
    for (const bad of [0, -0.1, 'abc', null]) {
      const res = await pc(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('Volume must be a positive number.');
    }
    for (const tooMuch of [0.25, 0.3]) {
      const res = await pc(tooMuch);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/less than the remaining lot size \(0.25\).*main Close button/);
    }
    const ok = await pc(0.1);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ lot_size: 0.15, status: 'open' });
    expect((await positions(t))[0]!.lot_size).toBe(0.15);
    const deals = await h.ctx.db
      .selectFrom('trade_deals')
      .selectAll()
      .where('trade_id', '=', trade_id)
      .execute();
    expect(deals.map((d) => [d.entry, d.filled_volume, d.deal_reason])).toContainEqual([
      'OUT',
      0.1,
      'PARTIAL_CLOSE',
    ]);
  });

  it('updates the stop loss by every type and refuses a stop on the wrong side of the price', async () => {
    clock = WEDNESDAY + 6 * HOUR;
    const t = await trader();
    const { trade_id } = (await execute(t, await body(t))).json();
    const entry = (await positions(t))[0]!.entry_price!;
    const sl = (b: Record<string, unknown>) =>
      h.request('POST', '/api/trades/update-sl/', { token: t.token, body: { trade_id, ...b } });

    let res = await sl({ sl_update_type: 'specific_price', specific_price: round(entry - 0.001, 5) });
    expect(res.statusCode).toBe(200);
    expect(res.json().stop_loss).toBe(round(entry - 0.001, 5));
    expect((await positions(t))[0]!.stop_loss).toBe(round(entry - 0.001, 5));

    res = await sl({ sl_update_type: 'distance_pips', value: 15 });
    expect(res.statusCode).toBe(200);
    expect(res.json().stop_loss).toBe(round(quote('EURUSD').bid - 0.0015, 5));

    res = await sl({ sl_update_type: 'distance_price', value: 0.0012 });
    expect(res.statusCode).toBe(200);
    expect(res.json().stop_loss).toBe(round(quote('EURUSD').bid - 0.0012, 5));

    for (const type of ['distance_pips', 'distance_price', 'specific_price']) {
      for (const value of [undefined, 'x', -3]) {
        const bad = await sl({ sl_update_type: type, value });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().detail).toBe('This field is required and must be a number.');
      }
    }

    // Right after the fill the bid is below the entry: breakeven would be above the price.
    res = await sl({ sl_update_type: 'breakeven' });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/^Stop loss must be below the current price for a BUY/);
    res = await sl({
      sl_update_type: 'specific_price',
      specific_price: round(quote('EURUSD').bid + 0.001, 5),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(
      /^Stop loss must be below the current price for a BUY \(stop loss [\d.]+, current price [\d.]+\)\.$/,
    );

    clock = firstTime('EURUSD', clock, (q) => q.bid > entry + 0.0005 && q.bid < entry + 0.0012);
    res = await sl({ sl_update_type: 'breakeven' });
    expect(res.statusCode).toBe(200);
    expect(res.json().stop_loss).toBe(entry);
    expect((await tradeRow(trade_id)).stop_loss).toBe(entry);
  });

  it('updates the take profit and refuses a bad or wrong-side one', async () => {
    clock = WEDNESDAY + 7 * HOUR;
    const t = await trader();
    const { trade_id } = (await execute(t, await body(t))).json();
    const entry = (await positions(t))[0]!.entry_price!;
    const tp = (v: unknown) =>
      h.request('PUT', `/api/trades/update-tp/${trade_id}/`, { token: t.token, body: { take_profit: v } });
    for (const bad of ['abc', null, -1, undefined]) {
      const res = await tp(bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('Take profit must be a valid number.');
    }
    const wrong = await tp(round(quote('EURUSD').bid - 0.001, 5));
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail).toMatch(/^Take profit must be above the current price for a BUY/);
    const ok = await tp(round(entry + 0.006, 5));
    expect(ok.statusCode).toBe(200);
    const [p] = await positions(t);
    expect(p!.profit_target).toBe(round(entry + 0.006, 5));
    expect(p!.rr_ratio).toBe(3);
  });

  it("answers 404 for another user's trade or account", async () => {
    clock = WEDNESDAY + 7 * HOUR;
    const owner = await trader();
    const { trade_id } = (await execute(owner, await body(owner))).json();
    const other = await trader();
    const tok = { token: other.token };
    expect((await h.request('GET', `/api/trades/open-positions/${owner.accountId}/`, tok)).statusCode).toBe(
      404,
    );
    expect((await h.request('DELETE', `/api/trades/close/${trade_id}/`, tok)).statusCode).toBe(404);
    expect(
      (
        await h.request('POST', `/api/trades/${trade_id}/partial-close/`, {
          ...tok,
          body: { volume_to_close: 0.1 },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await h.request('POST', '/api/trades/update-sl/', {
          ...tok,
          body: { trade_id, sl_update_type: 'breakeven' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await h.request('PUT', `/api/trades/update-tp/${trade_id}/`, { ...tok, body: { take_profit: 2 } }))
        .statusCode,
    ).toBe(404);
    const foreign = await execute(other, { ...(await body(other)), account_id: owner.accountId });
    expect(foreign.statusCode).toBe(404);
    expect(await positions(owner)).toHaveLength(1);
  });

  it('turns a take profit hit at the broker into a closed trade with its P/L', async () => {
    clock = WEDNESDAY + 8 * HOUR;
    const t = await trader();
    const side = winningSide('EURUSD', clock, 0.0012);
    const { trade_id } = (await execute(t, await body(t, { rr_ratio: 0.5, direction: side }))).json();
    const [p] = await positions(t);
    clock = firstTime('EURUSD', clock, (q) =>
      side === 'BUY' ? q.bid >= p!.profit_target! : q.ask <= p!.profit_target!,
    );
    await waitFor(async () => (await positions(t)).length === 0, 'the take profit');
    const row = await waitFor(async () => {
      const r = await tradeRow(trade_id);
      return r.status === 'closed' && r;
    }, 'the closed trade');
    expect(Number(row.actual_pl_minor)).toBeGreaterThan(0);
    const deals = await h.ctx.db
      .selectFrom('trade_deals')
      .selectAll()
      .where('trade_id', '=', trade_id)
      .execute();
    expect(deals.map((d) => d.deal_reason)).toEqual(['MARKET', 'TAKE_PROFIT']);
  });

  it('computes ATR from the account candles for a cleaned symbol, and null when it cannot', async () => {
    clock = WEDNESDAY + 9 * HOUR;
    const t = await trader();
    const get = (path: string) => h.request('GET', path, { token: t.token });
    const candles = market()
      .candles('EURUSD', 'M15', clock - 900_000 * 360, clock, clock)
      .filter((c) => c.time + 900_000 <= clock)
      .slice(-120);
    const expected = averageTrueRange(candles)!;
    for (const path of [
      '/api/get_indicator/EURUSD/15M/ATR',
      '/api/get_indicator/eurusd.m/M15/ATR',
      '/api/get_indicator/EURUSD%23/15M/ATR',
      `/api/get_indicator/EURUSD-ECN/15M/ATR?account_id=${t.accountId}`,
      '/api/get_indicator/EURUSD.pro/15m/ATR',
    ]) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      expect(res.json().value, path).toBeCloseTo(expected, 7);
    }
    expect((await get('/api/get_indicator/EURUSD/1H/ATR')).json().value).toBeGreaterThan(expected);
    expect((await get('/api/get_indicator/NOPE/15M/ATR')).json()).toEqual({ value: null });
    expect((await get('/api/get_indicator/EURUSD/7X/ATR')).json()).toEqual({ value: null });
    const other = await trader();
    expect((await get(`/api/get_indicator/EURUSD/15M/ATR?account_id=${other.accountId}`)).statusCode).toBe(
      404,
    );
  });

  it('manages multi-target trades as partial closes when the price reaches each target, across a restart', async () => {
    clock = WEDNESDAY + 10 * HOUR;
    const t = await trader();
    const side = winningSide('EURUSD', clock, 0.0035);
    const dir = side === 'BUY' ? 1 : -1;
    const b = await body(t, {
      direction: side,
      risk_percent: 1,
      partial_profit: true,
      targets: [
        { rank: 1, share: 0.5, tp_type: 'RR', rr: 0.5 },
        { rank: 2, share: 0.5, tp_type: 'RR', rr: 1.5 },
      ],
    });
    expect(b.lot_size).toBe(0.5);
    const res = await execute(t, b);
    expect(res.statusCode).toBe(200);
    const id = res.json().trade_id;
    const [p] = await positions(t);
    const entry = p!.entry_price!;
    expect(p).toMatchObject({ lot_size: 0.5, profit_target: round(entry + dir * 0.003, 5), rr_ratio: 1 });
    const first = round(entry + dir * 0.001, 5);

    // The server restarts before the first target is reached: the target state is in the DB.
    h = await h.restart();
    await new Promise((r) => setTimeout(r, 100));
    clock = firstTime('EURUSD', clock, (q) => (side === 'BUY' ? q.bid >= first : q.ask <= first));
    const after = await waitFor(async () => {
      const [x] = await positions(t);
      return x && x.lot_size === 0.25 && x;
    }, 'the first target');
    expect(after.profit_target).toBe(round(entry + dir * 0.003, 5));
    const row = await tradeRow(id);
    const targets = JSON.parse(row.targets!);
    expect(targets.map((x: { status: string; managed_by: string }) => [x.status, x.managed_by])).toEqual([
      ['hit', 'server'],
      ['pending', 'broker'],
    ]);
    expect(dir * (targets[0].close_price - first)).toBeGreaterThanOrEqual(0);
    const deals = await h.ctx.db.selectFrom('trade_deals').selectAll().where('trade_id', '=', id).execute();
    expect(deals.map((d) => [d.entry, d.filled_volume, d.deal_reason])).toContainEqual([
      'OUT',
      0.25,
      'TARGET',
    ]);

    // The last target is the broker's take profit: reaching it closes the rest and marks it hit.
    const last = round(entry + dir * 0.003, 5);
    clock = firstTime('EURUSD', clock, (q) => (side === 'BUY' ? q.bid >= last : q.ask <= last), 48 * HOUR);
    const closed = await waitFor(async () => {
      await positions(t);
      const r = await tradeRow(id);
      return r.status === 'closed' && r;
    }, 'the final target');
    expect(JSON.parse(closed.targets!).map((x: { status: string }) => x.status)).toEqual(['hit', 'hit']);
    const all = await h.ctx.db.selectFrom('trade_deals').selectAll().where('trade_id', '=', id).execute();
    expect(all.map((d) => d.deal_reason).sort()).toEqual(['MARKET', 'TAKE_PROFIT', 'TARGET']);
    const pl = all.reduce(
      (sum, d) => sum + Number(d.profit_minor) + Number(d.commission_minor) + Number(d.swap_minor),
      0,
    );
    expect(Number(closed.actual_pl_minor)).toBe(pl);
    expect(pl).toBeGreaterThan(0);
  });

  it('resolves ATR and PRICE targets from the fill: ATR from the trade timeframe, the last one as the broker TP', async () => {
    clock = WEDNESDAY + 11 * HOUR;
    const t = await trader();
    const atr = (
      await h.request('GET', `/api/get_indicator/EURUSD/1H/ATR?account_id=${t.accountId}`, { token: t.token })
    ).json().value as number;
    expect(atr).toBeGreaterThan(0);
    const ask = quote('EURUSD').ask;
    const finalPrice = round(ask + 0.005, 5);
    const res = await execute(
      t,
      await body(t, {
        timeframe: '1H',
        partial_profit: true,
        targets: [
          { rank: 1, share: 0.4, tp_type: 'ATR', atr_multiplier: 1 },
          { rank: 2, share: 0.6, tp_type: 'PRICE', price: finalPrice },
        ],
      }),
    );
    expect(res.statusCode).toBe(200);
    const [p] = await positions(t);
    expect(p!.profit_target).toBe(finalPrice);
    const targets = JSON.parse((await tradeRow(res.json().trade_id)).targets!);
    expect(targets).toEqual([
      expect.objectContaining({
        rank: 1,
        tp_type: 'ATR',
        volume: 0.1,
        managed_by: 'server',
        status: 'pending',
        price: round(p!.entry_price! + atr, 5),
      }),
      expect.objectContaining({
        rank: 2,
        tp_type: 'PRICE',
        volume: 0.15,
        managed_by: 'broker',
        status: 'pending',
        price: finalPrice,
      }),
    ]);
    // A target on the wrong side is refused before any order leaves.
    const wrong = await execute(
      t,
      await body(t, {
        partial_profit: true,
        targets: [{ rank: 1, share: 1, tp_type: 'PRICE', price: round(ask - 0.003, 5) }],
      }),
    );
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().detail).toMatch(/^Target 1: Take profit must be above the entry price for a BUY/);
    expect(await positions(t)).toHaveLength(1);
  });

  it('answers 502 when the account broker is down', async () => {
    const t = await trader();
    const created = await h.request('POST', '/api/accounts/create/', {
      token: t.token,
      body: { name: 'Live', platform: 'MT5', account_number: '123', password: 'pw', broker_server: 'Demo-1' },
    });
    expect(created.statusCode).toBe(201);
    const mt5 = { ...t, accountId: created.json().id };
    const res = await execute(mt5, {
      account_id: mt5.accountId,
      symbol: 'EURUSD',
      lot_size: 0.25,
      direction: 'BUY',
      order_type: 'MARKET',
      risk_percent: 0.5,
      stop_loss_distance: 0.002,
    });
    expect(res.statusCode).toBe(502);
    expect(
      (await h.request('GET', `/api/trades/open-positions/${mt5.accountId}/`, { token: t.token })).statusCode,
    ).toBe(502);
  });
});
