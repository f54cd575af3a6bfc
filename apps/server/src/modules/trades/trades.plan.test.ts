import { afterAll, beforeAll, expect, it } from 'vitest';
import { averageTrueRange } from '@tradedesk/domain';
import type { TradeExecuteRequest } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { modalForm, modalRequest, newTrader, type Trader, setRiskRules } from '../../test/traders';
import { HOUR, WEDNESDAY } from '../../test/sim-clock';
import { brokerRegistry } from '../../brokers/registry';

/** The FX market reopens at 22:00 UTC on Sunday 2026-01-11; five minutes later only five 1M bars exist since. */
const SUNDAY_REOPEN = Date.parse('2026-01-11T22:05:00Z');

let clock = WEDNESDAY;

/**
 * One plan for the modal and the server: the requests below are built by the Place a Trade modal's
 * own code (apps/web/src/features/trade/tradePlan.ts) and sent to the real route.
 */
describeEachDb('one trade plan: modal and server', (target) => {
  let h: Harness;
  let n = 0;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => clock });
  });
  afterAll(() => h.close());

  const trader = () => newTrader(h, `planner${++n}`);
  const execute = (t: Trader, body: TradeExecuteRequest) =>
    h.request('POST', '/api/trades/execute/', { token: t.token, body });
  const positions = async (t: Trader) =>
    (await h.request('GET', `/api/trades/open-positions/${t.accountId}/`, { token: t.token })).json()
      .open_positions as Array<{ lot_size: number; instrument: string }>;
  const setRules = (t: Trader, rules: Record<string, unknown>) => setRiskRules(h, t, rules);
  /** A second simulated account of the trader, in another currency. */
  async function simAccount(t: Trader, currency: string, balance: number): Promise<Trader> {
    const res = await h.request('POST', '/api/accounts/create/', {
      token: t.token,
      body: { name: `Demo ${currency}`, platform: 'SIM', currency, balance },
    });
    expect(res.statusCode).toBe(201);
    return { ...t, accountId: res.json().id };
  }

  it('max_lot_size 0.1: the modal caps at 0.10, sends it, and the server places 0.10', async () => {
    clock = WEDNESDAY + HOUR;
    const t = await trader();
    await setRules(t, { max_lot_size: 0.1 });
    const body = await modalRequest(h, clock, t, modalForm(t.accountId, 'EURUSD'));
    expect(body.lot_size).toBe(0.1);
    const res = await execute(t, body);
    expect(res.statusCode, res.body).toBe(200);
    expect((await positions(t)).map((p) => p.lot_size)).toEqual([0.1]);
  });

  it('USDCAD and USDCHF on EUR, GBP and JPY accounts: the modal sizes them through USD as the server does', async () => {
    clock = WEDNESDAY + 2 * HOUR;
    const t = await trader();
    for (const [currency, balance] of [
      ['EUR', 10_000],
      ['GBP', 10_000],
      ['JPY', 1_500_000],
    ] as const) {
      const acc = await simAccount(t, currency, balance);
      for (const symbol of ['USDCAD', 'USDCHF']) {
        const body = await modalRequest(h, clock, acc, modalForm(acc.accountId, symbol));
        expect(body.lot_size, `${symbol} on ${currency}`).toBeGreaterThan(0);
        const res = await execute(acc, body);
        expect(res.statusCode, `${symbol} on ${currency}: ${res.body}`).toBe(200);
      }
      expect((await positions(acc)).map((p) => p.instrument)).toEqual(['USDCAD', 'USDCHF']);
    }
  });

  it('never accepts a client lot above its own (BTCUSD at 0.05 % risk: 0.06 refused, the modal 0.05 placed)', async () => {
    clock = WEDNESDAY + 3 * HOUR;
    const t = await trader();
    const form = modalForm(t.accountId, 'BTCUSD', { riskPercent: 0.05, slDistance: 100 });
    const body = await modalRequest(h, clock, t, form);
    expect(body.lot_size).toBe(0.05);
    const above = await execute(t, { ...body, lot_size: 0.06 });
    expect(above.statusCode).toBe(422);
    expect(above.json().detail).toMatch(/^lot_size 0.06 is above the plan: .* allows 0.05 lots on BTCUSD/);
    expect((await execute(t, body)).statusCode).toBe(200);
    expect((await positions(t)).map((p) => p.lot_size)).toEqual([0.05]);
  });

  it('refuses a minimum volume that risks more than asked, naming both amounts, unless the trader confirmed it', async () => {
    clock = WEDNESDAY + 4 * HOUR;
    const t = await trader();
    const form = modalForm(t.accountId, 'BTCUSD', { riskPercent: 0.001, slDistance: 1000 });
    const unconfirmed = await modalRequest(h, clock, t, form);
    expect(unconfirmed.allow_min_volume).toBeUndefined();
    const refused = await execute(t, unconfirmed);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toMatch(
      /^The symbol's minimum volume of 0.01 lots risks \d+\.\d\d USD, more than the requested 0.10 USD \(0.001% of equity\)\. The order was not placed/,
    );
    expect(await positions(t)).toEqual([]);
    const confirmed = await modalRequest(h, clock, t, form, true);
    expect(confirmed.allow_min_volume).toBe(true);
    expect((await execute(t, confirmed)).statusCode).toBe(200);
    expect((await positions(t)).map((p) => p.lot_size)).toEqual([0.01]);
  });

  it('daily loss: measured against the balance at the start of the day, with today’s commissions as realised loss', async () => {
    clock = WEDNESDAY + 5 * HOUR;
    const t = await trader();
    await setRules(t, { max_daily_loss: 1 });
    // 0.5 % of 10,000 over 10 pips of EURUSD: 0.50 lots risking 50.00 USD each.
    const form = modalForm(t.accountId, 'EURUSD', { slDistance: 10 });
    const first = await modalRequest(h, clock, t, form);
    expect(first.lot_size).toBe(0.5);
    expect((await execute(t, first)).statusCode).toBe(200);
    const second = await execute(t, await modalRequest(h, clock, t, form));
    expect(second.statusCode).toBe(422);
    // The first trade's entry commission left the balance today: it is realised loss, and the
    // start-of-day balance is still 10,000.00.
    expect(second.json().detail).toMatch(
      /^max_daily_loss: realised loss today [1-9]\.\d\d USD \+ open risk 50.00 USD \+ this trade \d\d\.\d\d USD = 10\d\.\d\d USD, above the 1.00% limit of 100.00 USD \(of 10000.00 USD balance at the start of the day\)\.$/,
    );
    // With room for the commission (1.05 % = 105.00 USD) the second trade goes through.
    const roomy = await trader();
    await setRules(roomy, { max_daily_loss: 1.05 });
    const roomyForm = modalForm(roomy.accountId, 'EURUSD', { slDistance: 10 });
    for (let i = 0; i < 2; i++)
      expect((await execute(roomy, await modalRequest(h, clock, roomy, roomyForm))).statusCode).toBe(200);
  });

  it('ATR over the last closed candles however far back: 1M and 5M just after the weekly reopen', async () => {
    clock = SUNDAY_REOPEN;
    const t = await trader();
    const market = brokerRegistry(h.ctx).sim.market;
    for (const [tf, span, name] of [
      ['1M', 60_000, 'M1'],
      ['5M', 300_000, 'M5'],
    ] as const) {
      const closed = market
        .candles('EURUSD', name, clock - 4 * 86_400_000, clock, clock)
        .filter((c) => c.time + span <= clock)
        .slice(-120);
      expect(closed).toHaveLength(120);
      const res = await h.request('GET', `/api/get_indicator/EURUSD/${tf}/ATR?account_id=${t.accountId}`, {
        token: t.token,
      });
      expect(res.json().value, tf).toBeCloseTo(averageTrueRange(closed)!, 7);
    }
  });

  it('bounds every number: out-of-range input is a 400 naming the field, never a 500; negative TP inputs are refused', async () => {
    clock = WEDNESDAY + 6 * HOUR;
    const t = await trader();
    const body = await modalRequest(h, clock, t, modalForm(t.accountId, 'EURUSD'));
    const cases: Array<[keyof TradeExecuteRequest, unknown]> = [
      ['take_profit', 1e308],
      ['rr_ratio', 1e308],
      ['take_profit', -5],
      ['rr_ratio', -1],
      ['take_profit_distance', -0.001],
      ['stop_loss_distance', 1e308],
      ['limit_price', 1e308],
      ['lot_size', 1e308],
      ['atr_multiplier', -1],
      ['projected_profit', 1e308],
    ];
    for (const [field, value] of cases) {
      const res = await execute(t, { ...body, [field]: value } as TradeExecuteRequest);
      expect(res.statusCode, `${field}=${value}`).toBe(400);
      expect(Object.keys(res.json().detail), `${field}=${value}`).toEqual([field]);
    }
    const target = await execute(t, {
      ...body,
      partial_profit: true,
      targets: [{ rank: 1, share: 1, tp_type: 'PRICE', price: 1e308 }],
    });
    expect(target.statusCode).toBe(400);
    expect(Object.keys(target.json().detail)).toEqual(['targets.0.price']);
    expect(await positions(t)).toEqual([]);
  });
});
