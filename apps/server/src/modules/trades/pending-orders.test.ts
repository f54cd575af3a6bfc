import { afterAll, beforeAll, expect, it } from 'vitest';
import { PENDING_ORDER_MESSAGES, type PendingOrder, type TradeExecuteRequest } from '@tradedesk/contract';
import { FakeMt5Bridge } from '../../testing/mt5/fake-bridge';
import { brokerRegistry } from '../../brokers/registry';
import { accountRow } from '../../test/accounts';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { HOUR, WEDNESDAY } from '../../test/sim-clock';
import { newTrader, type Trader } from '../../test/traders';

const LOGIN = 7_005_550;
const PASSWORD = 'Mt5-Pa55word!pend';
const SERVER = 'FakeBroker-Demo02';

// A Wednesday, so the SIM market is open whatever day the suite runs.
const clock = WEDNESDAY + 3 * HOUR;
const round = (v: number, d: number) => Number(v.toFixed(d));

describeEachDb('pending orders API', (target) => {
  let h: Harness;
  let bridge: FakeMt5Bridge;
  let n = 0;
  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({
      accounts: [{ login: LOGIN, password: PASSWORD, server: SERVER, name: 'Pat Pending' }],
      tickMs: 100,
      heartbeatMs: 200,
    });
    // Prices stand still, so a limit away from the market never fills during the test.
    bridge.freeze();
    h = await createHarness(target, { simNow: () => clock, mt5BridgeUrl: bridge.url });
  });
  afterAll(async () => {
    await h.close();
    await bridge.stop();
  });

  const trader = () => newTrader(h, `pending${++n}`);
  const simQuote = (symbol: string) => brokerRegistry(h.ctx).sim.market.quoteAt(symbol, clock);

  /** A EURUSD BUY limit `below` price units under the ask: 0.25 lots risk 0.5 % of 10,000 over 20 pips. */
  const limitBody = (t: Trader, limit: number): TradeExecuteRequest => ({
    account_id: t.accountId,
    symbol: 'EURUSD',
    lot_size: 0.25,
    direction: 'BUY',
    order_type: 'LIMIT',
    limit_price: limit,
    risk_percent: 0.5,
    stop_loss_distance: 0.002,
    rr_ratio: 2,
  });

  async function placeLimit(t: Trader, limit: number): Promise<string> {
    const res = await h.request('POST', '/api/trades/execute/', {
      token: t.token,
      body: limitBody(t, limit),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('pending');
    return res.json().trade_id as string;
  }

  async function pending(t: Trader): Promise<PendingOrder[]> {
    const res = await h.request('GET', `/api/trades/pending-orders/${t.accountId}/`, { token: t.token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().pending_orders;
  }
  const cancel = (t: Trader, id: string) =>
    h.request('DELETE', `/api/trades/pending-orders/${id}/`, { token: t.token });
  const historyStatus = async (t: Trader, id: string) =>
    (await h.request('GET', `/api/history/trades/${id}/`, { token: t.token })).json().trade_status;

  it('lists a SIM limit order with its levels, cancels it and the history agrees', async () => {
    const t = await trader();
    expect(await pending(t)).toEqual([]);
    const limit = round(simQuote('EURUSD').ask - 0.01, 5);
    const id = await placeLimit(t, limit);

    const [order, ...rest] = await pending(t);
    expect(rest).toEqual([]);
    expect(order).toMatchObject({
      id,
      instrument: 'EURUSD',
      direction: 'BUY',
      lot_size: 0.25,
      limit_price: limit,
      stop_loss: round(limit - 0.002, 5),
      profit_target: round(limit + 0.004, 5),
    });
    expect(order!.order_id).toBeTruthy();
    expect(Date.parse(order!.created_at)).not.toBeNaN();
    expect(await historyStatus(t, id)).toBe('pending');
    // A pending order is not an open position.
    const open = await h.request('GET', `/api/trades/open-positions/${t.accountId}/`, { token: t.token });
    expect(open.json().open_positions).toEqual([]);

    const res = await cancel(t, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: PENDING_ORDER_MESSAGES.cancelled,
      trade_id: id,
      status: 'cancelled',
    });
    expect(await pending(t)).toEqual([]);
    expect(await historyStatus(t, id)).toBe('cancelled');
    const simOrders = await h.ctx.db
      .selectFrom('sim_orders')
      .select('status')
      .where('id', '=', order!.order_id)
      .execute();
    expect(simOrders).toEqual([{ status: 'CANCELLED' }]);

    // Cancelling twice is refused as a business rule, not a crash.
    const again = await cancel(t, id);
    expect(again.statusCode).toBe(422);
    expect(again.json().detail).toBe(PENDING_ORDER_MESSAGES.notPending('cancelled'));
  });

  it("answers 404 for another user's account or order, and 400 for a malformed id", async () => {
    const alice = await trader();
    const bob = await trader();
    const id = await placeLimit(alice, round(simQuote('EURUSD').ask - 0.01, 5));

    const list = await h.request('GET', `/api/trades/pending-orders/${alice.accountId}/`, {
      token: bob.token,
    });
    expect(list.statusCode).toBe(404);
    expect(list.body).not.toContain(id);
    expect((await cancel(bob, id)).statusCode).toBe(404);
    expect((await cancel(alice, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect(
      (await h.request('GET', '/api/trades/pending-orders/no-such-account/', { token: alice.token }))
        .statusCode,
    ).toBe(404);
    expect((await cancel(alice, 'x'.repeat(65))).statusCode).toBe(400);
    expect((await h.request('GET', `/api/trades/pending-orders/${alice.accountId}/`)).statusCode).toBe(401);
    // Bob's attempts left Alice's order where it was.
    expect((await pending(alice)).map((o) => o.id)).toEqual([id]);
  });

  it('settles an order cancelled on the platform itself before listing, so history agrees', async () => {
    const t = await trader();
    const id = await placeLimit(t, round(simQuote('EURUSD').ask - 0.01, 5));
    const [order] = await pending(t);
    const adapter = await brokerRegistry(h.ctx).connected(await accountRow(h, t.accountId));
    await adapter.cancelOrder(order!.order_id);
    expect(await pending(t)).toEqual([]);
    expect(await historyStatus(t, id)).toBe('cancelled');
    // The order is gone at the broker: the cancel says so in the trade's terms.
    expect((await cancel(t, id)).statusCode).toBe(422);
  });

  it('lists and cancels MT5 orders through the bridge, and shows orders placed on the platform', async () => {
    const { token, id: userId } = await h.user(`mt5pending${++n}`);
    const created = await h.request('POST', '/api/accounts/create/', {
      token,
      body: {
        name: 'MT5',
        platform: 'MT5',
        account_number: String(LOGIN),
        password: PASSWORD,
        broker_server: SERVER,
      },
    });
    expect(created.statusCode).toBe(201);
    const t: Trader = { token, userId, accountId: created.json().id };
    const limit = round(bridge.price('EURUSD').ask - 0.01, 5);
    const id = await placeLimit(t, limit);

    // An order the trader placed in the MT5 terminal: listed, but not ours to cancel.
    const adapter = await brokerRegistry(h.ctx).connected(await accountRow(h, t.accountId));
    const outside = await adapter.placeOrder({
      client_order_id: 'terminal-1',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'LIMIT',
      volume: 0.1,
      limit_price: round(bridge.price('EURUSD').bid + 0.01, 5),
    });

    const orders = await pending(t);
    expect(orders).toHaveLength(2);
    expect(orders.find((o) => o.id === id)).toMatchObject({
      instrument: 'EURUSD',
      direction: 'BUY',
      lot_size: 0.25,
      limit_price: limit,
      stop_loss: round(limit - 0.002, 5),
    });
    expect(orders.find((o) => o.order_id === outside.order_id)).toMatchObject({
      id: null,
      direction: 'SELL',
    });

    const res = await cancel(t, id);
    expect(res.statusCode, res.body).toBe(200);
    expect((await pending(t)).map((o) => o.order_id)).toEqual([outside.order_id]);
    expect(await historyStatus(t, id)).toBe('cancelled');
    await adapter.cancelOrder(outside.order_id);
    expect(await pending(t)).toEqual([]);
  });

  it('answers 502 when the account broker is down', async () => {
    const { token } = await h.user(`down${++n}`);
    const created = await h.request('POST', '/api/accounts/create/', {
      token,
      body: {
        name: 'Gone',
        platform: 'MT5',
        account_number: '123',
        password: 'pw',
        broker_server: 'Nowhere-1',
      },
    });
    const res = await h.request('GET', `/api/trades/pending-orders/${created.json().id}/`, { token });
    expect(res.statusCode).toBe(502);
  });
});
