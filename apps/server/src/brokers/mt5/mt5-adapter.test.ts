import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerError, type BrokerEvent, type Quote } from '../types';
import { FakeMt5Bridge } from '../../testing/mt5/fake-bridge';
import { Mt5BridgeAdapter, type AdapterLog } from './mt5-adapter';
import { waitFor } from '../../test/wait-for';

const LOGIN = 5_012_345;
const PASSWORD = 'S3cret-Pa55!word';
const SERVER = 'FakeBroker-Demo';

describe('Mt5BridgeAdapter against the fake bridge', () => {
  let bridge: FakeMt5Bridge;
  let adapter: Mt5BridgeAdapter;
  const events: BrokerEvent[] = [];
  const logLines: string[] = [];
  const log: AdapterLog = {
    info: (o, m) => logLines.push(JSON.stringify(o) + (m ?? '')),
    warn: (o, m) => logLines.push(JSON.stringify(o) + (m ?? '')),
    debug: (o, m) => logLines.push(JSON.stringify(o) + (m ?? '')),
  };
  const make = (password = PASSWORD) =>
    new Mt5BridgeAdapter({
      url: bridge.url,
      bridgeToken: 'bridge-shared-secret',
      credentials: { account_number: String(LOGIN), password, server: SERVER },
      timeoutMs: 2000,
      backoff: { initialMs: 40, maxMs: 300 },
      log,
    });

  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({
      accounts: [{ login: LOGIN, password: PASSWORD, server: SERVER }],
      bridgeToken: 'bridge-shared-secret',
      tickMs: 40,
      heartbeatMs: 250,
    });
    bridge.freeze();
    adapter = make();
    adapter.onEvent((e) => events.push(e));
  });
  afterAll(async () => {
    await adapter.disconnect();
    await bridge.stop();
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(PASSWORD);
  });

  it('refuses a wrong password as an auth error and does not retry it', async () => {
    const bad = make('wrong-password');
    const before = bridge.loginAttempts;
    const err = await bad.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BrokerError);
    expect((err as BrokerError).kind).toBe('auth');
    expect((err as BrokerError).message).toMatch(/^MT5 login failed: /);
    expect(bad.connectionState()).toBe('error');
    await new Promise((r) => setTimeout(r, 200));
    expect(bridge.loginAttempts).toBe(before + 1);
  });

  it('refuses a wrong bridge token as unavailable, naming the setting to check', async () => {
    const wrong = new Mt5BridgeAdapter({
      url: bridge.url,
      bridgeToken: 'nope',
      credentials: { account_number: String(LOGIN), password: PASSWORD, server: SERVER },
      timeoutMs: 2000,
    });
    await expect(wrong.connect()).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('MT5_BRIDGE_TOKEN'),
    });
  });

  it('connects and reads the account', async () => {
    await adapter.connect();
    expect(adapter.connectionState()).toBe('connected');
    expect(await adapter.accountInfo()).toEqual({
      balance: 10_000,
      equity: 10_000,
      margin: 0,
      free_margin: 10_000,
      currency: 'USD',
      leverage: 100,
    });
    const full = await adapter.account();
    expect(full).toMatchObject({ login: LOGIN, server: SERVER, margin_mode: 'hedging' });
    expect(JSON.stringify(full)).not.toContain(PASSWORD);
  });

  it('lists symbols with pip size, tick size, contract size, digits and volume limits', async () => {
    const list = await adapter.symbols();
    expect(list.map((s) => s.symbol)).toEqual(expect.arrayContaining(['EURUSD', 'USDJPY', 'XAUUSD']));
    expect(await adapter.symbolInfo('EURUSD')).toEqual({
      symbol: 'EURUSD',
      description: 'Euro vs US Dollar',
      digits: 5,
      pip_size: 0.0001,
      tick_size: 0.00001,
      contract_size: 100_000,
      base_currency: 'EUR',
      quote_currency: 'USD',
      volume_min: 0.01,
      volume_step: 0.01,
      volume_max: 100,
    });
    expect((await adapter.symbolInfo('USDJPY')).pip_size).toBe(0.01);
    await expect(adapter.symbolInfo('NOPE')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('streams quotes for a subscribed symbol and stops after unsubscribing', async () => {
    const got: Quote[] = [];
    const stop = adapter.subscribeQuotes('GBPUSD', (q) => got.push(q));
    bridge.freeze(false);
    try {
      await waitFor(() => got.length >= 4, 'ticks', 3000);
    } finally {
      bridge.freeze();
    }
    for (const q of got) {
      expect(q.symbol).toBe('GBPUSD');
      expect(q.ask).toBeGreaterThan(q.bid);
      expect(q.time).toBeGreaterThan(0);
    }
    stop();
    await new Promise((r) => setTimeout(r, 100));
    const count = got.length;
    bridge.setPrice('GBPUSD', 1.27);
    await new Promise((r) => setTimeout(r, 150));
    expect(got.length).toBe(count);
    const q = await adapter.quote('GBPUSD');
    expect(q.bid).toBe(1.27);
  });

  it('places a market order with SL/TP as distances from the fill and finds it when reconciling', async () => {
    bridge.setPrice('EURUSD', 1.1);
    const res = await adapter.placeOrder({
      client_order_id: 'cid-market-1',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.1,
      stop_loss: { distance: 0.002 },
      take_profit: { distance: 0.004 },
    });
    expect(res).toMatchObject({ status: 'FILLED', fill_price: 1.10012, client_order_id: 'cid-market-1' });
    expect(res.position_id).toMatch(/^\d+$/);
    const rec = await adapter.reconcile();
    const pos = rec.positions.find((p) => p.position_id === res.position_id);
    expect(pos).toMatchObject({
      symbol: 'EURUSD',
      side: 'BUY',
      volume: 0.1,
      entry_price: 1.10012,
      stop_loss: 1.09812,
      take_profit: 1.10412,
      client_order_id: 'cid-market-1',
      commission: -0.35,
    });
    // Bid is 12 points below the entry: 0.1 lot x 100,000 x -0.00012 = -1.20 USD.
    expect(pos?.profit).toBe(-1.2);
  });

  it('never opens a second position for a retried client order id, even from a fresh adapter', async () => {
    const req = {
      client_order_id: 'cid-idem-1',
      symbol: 'USDJPY',
      side: 'SELL' as const,
      kind: 'MARKET' as const,
      volume: 0.2,
    };
    const sentBefore = bridge.ordersSent;
    const [a, b] = await Promise.all([adapter.placeOrder(req), adapter.placeOrder(req)]);
    const other = make();
    await other.connect();
    const c = await other.placeOrder(req);
    await other.disconnect();
    expect(b).toEqual(a);
    expect(c.position_id).toBe(a.position_id);
    expect(c.order_id).toBe(a.order_id);
    expect(bridge.ordersSent).toBe(sentBefore + 1);
    const rec = await adapter.reconcile();
    expect(rec.positions.filter((p) => p.client_order_id === 'cid-idem-1')).toHaveLength(1);
  });

  it('places a limit order that fills when the price crosses, announcing the fill', async () => {
    bridge.setPrice('XAUUSD', 2400);
    const res = await adapter.placeOrder({
      client_order_id: 'cid-limit-1',
      symbol: 'XAUUSD',
      side: 'BUY',
      kind: 'LIMIT',
      volume: 0.05,
      limit_price: 2390,
      stop_loss: { distance: 10 },
      take_profit: { price: 2450 },
    });
    expect(res.status).toBe('PENDING');
    let rec = await adapter.reconcile();
    expect(rec.orders).toEqual([
      expect.objectContaining({
        order_id: res.order_id,
        side: 'BUY',
        kind: 'LIMIT',
        limit_price: 2390,
        stop_loss: 2380,
        take_profit: 2450,
        volume: 0.05,
      }),
    ]);
    bridge.setPrice('XAUUSD', 2389.5);
    await waitFor(
      () =>
        events.some((e) => e.type === 'order' && e.order.order_id === res.order_id && e.status === 'FILLED'),
      'limit fill event',
      2000,
    );
    await waitFor(
      () =>
        events.some(
          (e) => e.type === 'execution' && e.deal.order_id === res.order_id && e.deal.reason === 'LIMIT',
        ),
      'limit deal',
      2000,
    );
    rec = await adapter.reconcile();
    expect(rec.orders).toHaveLength(0);
    expect(rec.positions.find((p) => p.client_order_id === 'cid-limit-1')).toMatchObject({
      entry_price: 2390,
      stop_loss: 2380,
      take_profit: 2450,
    });
  });

  it('amends SL/TP, and passes the broker refusal of bad stops on as rejected', async () => {
    const pos = (await adapter.reconcile()).positions.find((p) => p.client_order_id === 'cid-market-1');
    expect(pos).toBeDefined();
    const id = pos?.position_id as string;
    const amended = await adapter.amendPosition(id, { stop_loss: 1.095, take_profit: null });
    expect(amended).toMatchObject({ stop_loss: 1.095, take_profit: null });
    const err = await adapter.amendPosition(id, { stop_loss: 1.2 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'rejected', message: 'MT5 rejected the request: Invalid stops' });
    await expect(adapter.amendPosition('999999', { stop_loss: 1 })).rejects.toMatchObject({
      kind: 'not_found',
    });
  });

  it('closes part of a position and then the rest', async () => {
    const pos = (await adapter.reconcile()).positions.find((p) => p.client_order_id === 'cid-market-1');
    const id = pos?.position_id as string;
    bridge.setPrice('EURUSD', 1.1012);
    const part = await adapter.closePosition(id, 0.04);
    expect(part).toMatchObject({
      position_id: id,
      entry: 'OUT',
      side: 'SELL',
      volume: 0.04,
      price: 1.1012,
      reason: 'PARTIAL_CLOSE',
    });
    // (1.1012 - 1.10012) x 0.04 x 100,000 = 4.32 USD
    expect(part.profit).toBe(4.32);
    expect((await adapter.reconcile()).positions.find((p) => p.position_id === id)?.volume).toBe(0.06);
    const rest = await adapter.closePosition(id);
    expect(rest).toMatchObject({ volume: 0.06, reason: 'CLOSE' });
    expect((await adapter.reconcile()).positions.some((p) => p.position_id === id)).toBe(false);
    await expect(adapter.closePosition(id)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('cancels a pending order', async () => {
    bridge.setPrice('EURUSD', 1.1);
    const res = await adapter.placeOrder({
      client_order_id: 'cid-cancel-1',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'LIMIT',
      volume: 0.01,
      limit_price: 1.11,
    });
    expect((await adapter.reconcile()).orders.map((o) => o.order_id)).toContain(res.order_id);
    await adapter.cancelOrder(res.order_id);
    expect((await adapter.reconcile()).orders.map((o) => o.order_id)).not.toContain(res.order_id);
    await waitFor(
      () =>
        events.some(
          (e) => e.type === 'order' && e.order.order_id === res.order_id && e.status === 'CANCELLED',
        ),
      'cancel event',
      2000,
    );
  });

  it('refuses bad volume and missing margin with the broker message', async () => {
    const base = { symbol: 'EURUSD', side: 'BUY' as const, kind: 'MARKET' as const };
    await expect(
      adapter.placeOrder({ ...base, client_order_id: 'cid-v', volume: 0.001 }),
    ).rejects.toMatchObject({
      kind: 'rejected',
      message: 'MT5 rejected the request: Invalid volume',
    });
    await expect(adapter.placeOrder({ ...base, client_order_id: 'cid-m', volume: 50 })).rejects.toMatchObject(
      {
        kind: 'rejected',
        message: 'MT5 rejected the request: No money',
      },
    );
  });

  it('reports deals for a time range that account for the whole balance change', async () => {
    const deals = await adapter.deals(
      new Date(Date.now() - 3_600_000).toISOString(),
      new Date(Date.now() + 1000).toISOString(),
    );
    // Three opening deals (market, idempotent retry once, filled limit) and two closing ones.
    expect(deals).toHaveLength(5);
    expect(deals.filter((d) => d.entry === 'OUT').map((d) => d.reason)).toEqual(['PARTIAL_CLOSE', 'CLOSE']);
    expect(deals.find((d) => d.reason === 'LIMIT')).toBeDefined();
    const cents = deals.reduce((sum, d) => sum + Math.round((d.profit + d.commission + d.swap) * 100), 0);
    expect((await adapter.accountInfo()).balance).toBe((1_000_000 + cents) / 100);
    expect(await adapter.deals(new Date(0).toISOString(), new Date(1000).toISOString())).toEqual([]);
  });

  it('returns candles for a timeframe and range, the last one closing at the live price', async () => {
    const to = Date.now();
    const from = to - 2 * 3_600_000;
    const bars = await adapter.candles('EURUSD', 'M5', from, to);
    expect(bars.length).toBeGreaterThanOrEqual(24);
    for (let i = 0; i < bars.length; i++) {
      const b = bars[i]!;
      expect(b.time % 300_000).toBe(0);
      if (i > 0) expect(b.time - bars[i - 1]!.time).toBe(300_000);
      expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
      expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
    }
    expect(bars.at(-1)?.close).toBe(bridge.price('EURUSD').bid);
    const daily = await adapter.candles('EURUSD', 'D1', to - 10 * 86_400_000, to);
    expect(daily.length).toBeGreaterThanOrEqual(10);
    expect(daily.every((b) => b.time % 86_400_000 === 0)).toBe(true);
  });

  it('sets distance stops again when a market order is retried after its stops were refused', async () => {
    bridge.setPrice('EURUSD', 1.1);
    const req = {
      client_order_id: 'cid-stops-retry',
      symbol: 'EURUSD',
      side: 'BUY' as const,
      kind: 'MARKET' as const,
      volume: 0.01,
      stop_loss: { distance: 0.2 },
    };
    // A negative distance puts the stop on the wrong side: the fill stands, the stop is refused.
    const bad = await adapter
      .placeOrder({ ...req, stop_loss: { distance: -0.001 } })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(
        /^The order filled \(position \d+\) but MT5 did not accept its SL\/TP: /,
      ),
    });
    const retried = await adapter.placeOrder({ ...req, stop_loss: { distance: 0.002 } });
    const pos = (await adapter.reconcile()).positions.find((p) => p.position_id === retried.position_id);
    expect(pos).toMatchObject({ client_order_id: 'cid-stops-retry', stop_loss: 1.09812 });
    await adapter.closePosition(retried.position_id as string);
  });

  it('reports a stop-loss hit that happens while connected', async () => {
    bridge.setPrice('EURUSD', 1.1);
    const res = await adapter.placeOrder({
      client_order_id: 'cid-sl-live',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.01,
      stop_loss: { price: 1.105 },
    });
    bridge.setPrice('EURUSD', 1.1051);
    await waitFor(
      () =>
        events.some(
          (e) =>
            e.type === 'execution' && e.deal.position_id === res.position_id && e.deal.reason === 'STOP_LOSS',
        ),
      'SL execution',
      2000,
    );
    await waitFor(
      () =>
        events.some(
          (e) => e.type === 'position' && e.position.position_id === res.position_id && e.status === 'CLOSED',
        ),
      'close event',
      2000,
    );
  });

  it('when the bridge goes down: fails fast as unavailable, reconnects with a new login, and reconciles what happened meanwhile', async () => {
    bridge.setPrice('EURUSD', 1.1);
    const stopped = await adapter.placeOrder({
      client_order_id: 'cid-down-sl',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.02,
      stop_loss: { price: 1.09 },
    });
    const external = await adapter.placeOrder({
      client_order_id: 'cid-down-ext',
      symbol: 'USDJPY',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.01,
    });
    const ticks: Quote[] = [];
    adapter.subscribeQuotes('EURUSD', (q) => ticks.push(q));
    const logins = bridge.loginAttempts;
    const mark = events.length;

    bridge.setDown(true);
    await waitFor(() => adapter.connectionState() === 'reconnecting', 'reconnecting state', 2000);
    const t0 = Date.now();
    const err = await adapter.accountInfo().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect(err).toMatchObject({ kind: 'unavailable', message: 'The MT5 bridge is unreachable.' });
    expect(Date.now() - t0).toBeLessThan(1500);

    // Meanwhile at the broker: the stop is hit, and the trader closes the other position on the phone.
    bridge.setPrice('EURUSD', 1.0899);
    bridge.closeExternally(LOGIN, Number(external.position_id));
    await new Promise((r) => setTimeout(r, 400));
    expect(adapter.connectionState()).toBe('reconnecting');

    bridge.setDown(false);
    await waitFor(() => adapter.connectionState() === 'connected', 'reconnect', 5000);
    expect(bridge.loginAttempts).toBeGreaterThan(logins);
    const after = events.slice(mark);
    const states = after
      .filter((e) => e.type === 'connection')
      .map((e) => (e.type === 'connection' ? e.state : ''));
    expect(states[0]).toBe('reconnecting');
    expect(states.at(-1)).toBe('connected');
    const closed = after
      .filter((e) => e.type === 'position' && e.status === 'CLOSED')
      .map((e) => (e.type === 'position' ? e.position.position_id : ''));
    expect(closed).toEqual(expect.arrayContaining([stopped.position_id, external.position_id]));
    const reasons = Object.fromEntries(
      after.flatMap((e) => (e.type === 'execution' ? [[e.deal.position_id, e.deal.reason]] : [])),
    );
    expect(reasons[stopped.position_id as string]).toBe('STOP_LOSS');
    expect(reasons[external.position_id as string]).toBe('EXTERNAL');
    expect(after.some((e) => e.type === 'account')).toBe(true);
    const rec = await adapter.reconcile();
    expect(rec.positions.map((p) => p.position_id)).not.toContain(stopped.position_id);

    // The quote subscription is restored on the new stream.
    const seen = ticks.length;
    bridge.setPrice('EURUSD', 1.0911);
    await waitFor(() => ticks.length > seen && ticks.at(-1)?.bid === 1.0911, 'tick after reconnect', 2000);
  });

  it('gives up on a call the bridge never answers after the timeout, as unavailable', async () => {
    const quick = new Mt5BridgeAdapter({
      url: bridge.url,
      bridgeToken: 'bridge-shared-secret',
      credentials: { account_number: String(LOGIN), password: PASSWORD, server: SERVER },
      timeoutMs: 300,
    });
    await quick.connect();
    bridge.hang();
    try {
      const t0 = Date.now();
      await expect(quick.accountInfo()).rejects.toMatchObject({
        kind: 'unavailable',
        message: 'The MT5 bridge did not answer within 0.3 s.',
      });
      expect(Date.now() - t0).toBeLessThan(1500);
    } finally {
      bridge.hang(false);
      await quick.disconnect();
    }
  });

  it('logs in again by itself when the bridge forgot the session', async () => {
    const before = bridge.loginAttempts;
    bridge.expireSessions();
    expect((await adapter.accountInfo()).currency).toBe('USD');
    expect(bridge.loginAttempts).toBe(before + 1);
  });

  it('backs off exponentially while the bridge stays down', async () => {
    const refused = bridge.refusedConnections;
    bridge.setDown(true);
    await new Promise((r) => setTimeout(r, 1500));
    const attempts = bridge.refusedConnections - refused;
    bridge.setDown(false);
    // 40 ms doubling to 300 ms (with jitter) fits about 8 attempts in 1.5 s; a tight loop would make hundreds.
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(attempts).toBeLessThanOrEqual(14);
    await waitFor(() => adapter.connectionState() === 'connected', 'connected again', 5000);
  });

  it('notices a silent bridge through missed heartbeats and reconnects when it speaks again', async () => {
    // The socket stays open but nothing arrives: only the heartbeat watchdog can tell.
    bridge.mute();
    await waitFor(() => adapter.connectionState() === 'reconnecting', 'reconnecting', 2000);
    bridge.mute(false);
    await waitFor(() => adapter.connectionState() === 'connected', 'connected again', 5000);
  });

  it('can be disconnected while reconnecting, stays quiet, and reconnects normally after a new connect', async () => {
    const b = make();
    await b.connect();
    bridge.setDown(true);
    await waitFor(() => b.connectionState() === 'reconnecting', 'reconnecting', 2000);
    await b.disconnect();
    expect(b.connectionState()).toBe('disconnected');
    bridge.setDown(false);
    await new Promise((r) => setTimeout(r, 400));
    expect(b.connectionState()).toBe('disconnected');
    await b.connect();
    expect(b.connectionState()).toBe('connected');
    bridge.setDown(true);
    await waitFor(() => b.connectionState() === 'reconnecting', 'reconnecting again', 2000);
    bridge.setDown(false);
    await waitFor(() => b.connectionState() === 'connected', 'connected again', 5000);
    await b.disconnect();
    await waitFor(() => adapter.connectionState() === 'connected', 'main adapter back', 5000);
  });
});
