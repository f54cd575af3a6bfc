import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrokerError, type BrokerEvent } from '../types';
import { CTraderAdapter, type CTraderAdapterOptions } from './adapter';
import { FakeOpenApiServer, type FakeAccount } from '../../testing/ctrader/fake-openapi-server';
import { PT } from './protocol';
import { waitFor } from '../../test/wait-for';

const CTID = 4_200_001;
const TOKEN = 'good-token';
const account: FakeAccount = {
  ctidTraderAccountId: CTID,
  traderLogin: 7_001_234,
  isLive: false,
  brokerName: 'Fake Markets',
  depositAsset: 'USD',
  balance: 1_000_000, // 10,000.00 USD
  leverage: 100,
};

describe('cTrader adapter against the fake Open API server', () => {
  let fake: FakeOpenApiServer;
  const adapters: CTraderAdapter[] = [];
  const make = (over: Partial<CTraderAdapterOptions> = {}) => {
    const a = new CTraderAdapter({
      url: fake.url,
      clientId: 'app-id',
      clientSecret: 'app-secret',
      ctidTraderAccountId: CTID,
      accessToken: async () => TOKEN,
      reconnect: { initialMs: 50, maxMs: 400 },
      requestTimeoutMs: 3000,
      ...over,
    });
    adapters.push(a);
    return a;
  };

  beforeAll(async () => {
    fake = await new FakeOpenApiServer({
      clientId: 'app-id',
      clientSecret: 'app-secret',
      accounts: [account],
      tokenAccounts: (t) => (t === TOKEN || t.startsWith('rotated-') ? [CTID] : null),
      heartbeatMs: 200,
    }).start();
  });
  afterEach(async () => {
    fake.errorMode = null;
    for (const a of adapters.splice(0)) await a.disconnect();
  });
  afterAll(() => fake.stop());

  const newOrders = () => fake.received.filter((f) => f.payloadType === PT.NEW_ORDER_REQ);

  it('authorises the app and the account, then lists symbols with their trading specs', async () => {
    const a = make();
    await a.connect();
    expect(a.connectionState()).toBe('connected');
    const auth = fake.received.filter(
      (f) => f.payloadType === PT.APPLICATION_AUTH_REQ || f.payloadType === PT.ACCOUNT_AUTH_REQ,
    );
    expect(auth.at(-2)?.payload).toEqual({ clientId: 'app-id', clientSecret: 'app-secret' });
    expect(auth.at(-1)?.payload).toEqual({ ctidTraderAccountId: CTID, accessToken: TOKEN });
    const symbols = await a.symbols();
    expect(symbols.map((s) => s.symbol).sort()).toEqual(['EURUSD', 'GBPUSD', 'USDJPY']);
    expect(await a.symbolInfo('EUR/USD')).toEqual({
      symbol: 'EURUSD',
      description: 'EUR vs USD',
      digits: 5,
      pip_size: 0.0001,
      tick_size: 0.00001,
      contract_size: 100_000,
      base_currency: 'EUR',
      quote_currency: 'USD',
      volume_min: 0.01,
      volume_step: 0.01,
      volume_max: 1000,
    });
    expect((await a.symbolInfo('USDJPY')).pip_size).toBe(0.01);
    await expect(a.symbolInfo('NOPE')).rejects.toMatchObject({ kind: 'not_found' });
    expect(await a.accountInfo()).toEqual({
      balance: 10_000,
      equity: 10_000,
      margin: 0,
      free_margin: 10_000,
      currency: 'USD',
      leverage: 100,
    });
  });

  it('streams spot prices scaled from 1/100000 and merges one-sided updates', async () => {
    const a = make();
    await a.connect();
    const seen: Array<{ bid: number; ask: number }> = [];
    const stop = a.subscribeQuotes('EURUSD', (q) => seen.push({ bid: q.bid, ask: q.ask }));
    await waitFor(() => seen.length >= 1, 'the first quote', 5000);
    expect(seen[0]).toEqual({ bid: 1.085, ask: 1.0851 });
    fake.setPrice('EURUSD', 1.08612, 1.08622);
    await waitFor(() => seen.length >= 2, 'the second quote', 5000);
    expect(seen.at(-1)).toEqual({ bid: 1.08612, ask: 1.08622 });
    expect(await a.quote('EURUSD')).toMatchObject({ symbol: 'EURUSD', bid: 1.08612, ask: 1.08622 });
    stop();
    await waitFor(
      () => fake.received.some((f) => f.payloadType === PT.UNSUBSCRIBE_SPOTS_REQ),
      'the unsubscribe request',
      5000,
    );
    fake.setPrice('EURUSD', 1.085, 1.0851);
  });

  it('places market orders with relative or absolute SL/TP, amends, closes partly and fully, and lists deals', async () => {
    const a = make();
    await a.connect();
    const events: BrokerEvent[] = [];
    a.onEvent((e) => events.push(e));
    const from = new Date(Date.now() - 1000).toISOString();

    const r1 = await a.placeOrder({
      client_order_id: 'c-market-1',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.1,
      stop_loss: { distance: 0.002 },
      take_profit: { distance: 0.004 },
    });
    expect(r1).toMatchObject({ client_order_id: 'c-market-1', status: 'FILLED', fill_price: 1.0851 });
    const sent = newOrders().at(-1)?.payload;
    expect(sent).toMatchObject({
      ctidTraderAccountId: CTID,
      symbolId: 1,
      orderType: 1,
      tradeSide: 1,
      volume: 1_000_000,
      relativeStopLoss: 200,
      relativeTakeProfit: 400,
      label: 'c-market-1',
      clientOrderId: 'c-market-1',
    });

    let rec = await a.reconcile();
    const p1 = rec.positions.find((p) => p.position_id === r1.position_id);
    expect(p1).toMatchObject({
      symbol: 'EURUSD',
      side: 'BUY',
      volume: 0.1,
      entry_price: 1.0851,
      stop_loss: 1.0831,
      take_profit: 1.0891,
      client_order_id: 'c-market-1',
    });

    // Absolute levels on a market order are set on the position right after the fill.
    const r2 = await a.placeOrder({
      client_order_id: 'c-market-2',
      symbol: 'USDJPY',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.05,
      stop_loss: { price: 152.5 },
      take_profit: { price: 149.0 },
    });
    expect(r2.status).toBe('FILLED');
    expect(newOrders().at(-1)?.payload).not.toHaveProperty('stopLoss');
    rec = await a.reconcile();
    expect(rec.positions.find((p) => p.position_id === r2.position_id)).toMatchObject({
      side: 'SELL',
      volume: 0.05,
      entry_price: 151.23,
      stop_loss: 152.5,
      take_profit: 149,
    });

    // Amend only the stop: the target stays; null removes it.
    const amended = await a.amendPosition(r1.position_id as string, { stop_loss: 1.084 });
    expect(amended).toMatchObject({ stop_loss: 1.084, take_profit: 1.0891 });
    const removed = await a.amendPosition(r1.position_id as string, { take_profit: null });
    expect(removed).toMatchObject({ stop_loss: 1.084, take_profit: null });

    // Price moves up 20 pips: a partial close books 0.04 lots of profit, the rest stays open.
    fake.setPrice('EURUSD', 1.0871, 1.0872);
    const part = await a.closePosition(r1.position_id as string, 0.04);
    expect(part).toMatchObject({
      position_id: r1.position_id,
      entry: 'OUT',
      side: 'SELL',
      volume: 0.04,
      price: 1.0871,
      profit: 8,
      reason: 'PARTIAL_CLOSE',
    });
    rec = await a.reconcile();
    expect(rec.positions.find((p) => p.position_id === r1.position_id)?.volume).toBe(0.06);
    const full = await a.closePosition(r1.position_id as string);
    expect(full).toMatchObject({ volume: 0.06, profit: 12, reason: 'CLOSE' });
    rec = await a.reconcile();
    expect(rec.positions.some((p) => p.position_id === r1.position_id)).toBe(false);
    await expect(a.closePosition(r1.position_id as string)).rejects.toMatchObject({ kind: 'not_found' });

    const deals = await a.deals(from, new Date(Date.now() + 1000).toISOString());
    const mine = deals.filter((d) => d.position_id === r1.position_id);
    expect(mine.map((d) => [d.entry, d.volume])).toEqual([
      ['IN', 0.1],
      ['OUT', 0.04],
      ['OUT', 0.06],
    ]);
    expect(events.some((e) => e.type === 'execution' && e.deal.position_id === r1.position_id)).toBe(true);
    expect(
      events.some(
        (e) => e.type === 'position' && e.status === 'CLOSED' && e.position.position_id === r1.position_id,
      ),
    ).toBe(true);
    await a.closePosition(r2.position_id as string);
    fake.setPrice('EURUSD', 1.085, 1.0851);
  });

  it('never opens a second position for the same client order id, even from a fresh adapter', async () => {
    const a = make();
    await a.connect();
    const before = newOrders().length;
    const req = {
      client_order_id: 'idem-1',
      symbol: 'GBPUSD',
      side: 'BUY' as const,
      kind: 'MARKET' as const,
      volume: 0.02,
    };
    const [x, y] = await Promise.all([a.placeOrder(req), a.placeOrder(req)]);
    const z = await a.placeOrder(req);
    expect(y.position_id).toBe(x.position_id);
    expect(z.position_id).toBe(x.position_id);
    // A restarted server process has no memory: the label on the open position answers for it.
    const b = make();
    const again = await b.placeOrder(req);
    expect(again).toMatchObject({ status: 'FILLED', position_id: x.position_id });
    expect(newOrders().length - before).toBe(1);
    const rec = await b.reconcile();
    expect(rec.positions.filter((p) => p.client_order_id === 'idem-1')).toHaveLength(1);
    await b.closePosition(x.position_id as string);
  });

  it('places, cancels and fills limit orders', async () => {
    const a = make();
    await a.connect();
    const events: BrokerEvent[] = [];
    a.onEvent((e) => events.push(e));
    const pending = await a.placeOrder({
      client_order_id: 'lim-1',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'LIMIT',
      volume: 0.1,
      limit_price: 1.08,
      stop_loss: { price: 1.078 },
      take_profit: { distance: 0.003 },
    });
    expect(pending).toMatchObject({ status: 'PENDING', client_order_id: 'lim-1' });
    expect(newOrders().at(-1)?.payload).toMatchObject({
      orderType: 2,
      limitPrice: 1.08,
      stopLoss: 1.078,
      relativeTakeProfit: 300,
    });
    let rec = await a.reconcile();
    expect(rec.orders).toEqual([
      expect.objectContaining({
        order_id: pending.order_id,
        kind: 'LIMIT',
        side: 'BUY',
        volume: 0.1,
        limit_price: 1.08,
        stop_loss: 1.078,
        // Sent as a distance: the pending order shows the level it stands for.
        take_profit: 1.083,
        client_order_id: 'lim-1',
      }),
    ]);
    await a.cancelOrder(pending.order_id);
    expect((await a.reconcile()).orders).toEqual([]);
    await expect(a.cancelOrder(pending.order_id)).rejects.toMatchObject({ kind: 'not_found' });

    const second = await a.placeOrder({
      client_order_id: 'lim-2',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'LIMIT',
      volume: 0.1,
      limit_price: 1.08,
    });
    fake.setPrice('EURUSD', 1.0799, 1.08);
    await waitFor(
      () => events.some((e) => e.type === 'execution' && e.deal.order_id === second.order_id),
      'the limit fill',
      5000,
    );
    rec = await a.reconcile();
    const filled = rec.positions.find((p) => p.client_order_id === 'lim-2');
    expect(filled).toMatchObject({ entry_price: 1.08, volume: 0.1 });
    expect(
      events.some((e) => e.type === 'order' && e.status === 'FILLED' && e.order.order_id === second.order_id),
    ).toBe(true);
    await a.closePosition(filled?.position_id as string);
    fake.setPrice('EURUSD', 1.085, 1.0851);
  });

  it('converts trendbars (low + deltas, minutes) into candles across pages', async () => {
    const a = make();
    fake.trendbarChunk = 10;
    const to = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const from = to - 47 * 3_600_000;
    const candles = await a.candles('EURUSD', 'H1', from, to);
    fake.trendbarChunk = 500;
    expect(candles).toHaveLength(48);
    expect(candles[0]?.time).toBe(from);
    expect(candles.at(-1)?.time).toBe(to);
    for (const c of candles) {
      expect(c.time % 3_600_000).toBe(0);
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(Number(c.open.toFixed(5))).toBe(c.open);
      expect(c.open).toBeGreaterThan(1.08);
      expect(c.open).toBeLessThan(1.09);
    }
    const req = fake.received.filter((f) => f.payloadType === PT.GET_TRENDBARS_REQ).at(0)?.payload;
    expect(req).toMatchObject({ period: 9, symbolId: 1, fromTimestamp: from, toTimestamp: to });
  });

  it('maps refusals and error responses to BrokerError', async () => {
    const a = make();
    await a.connect();
    await expect(
      a.placeOrder({
        client_order_id: 'bad-vol',
        symbol: 'EURUSD',
        side: 'BUY',
        kind: 'MARKET',
        volume: 0.001,
      }),
    ).rejects.toMatchObject({
      kind: 'rejected',
    });
    const tooBig = a.placeOrder({
      client_order_id: 'too-big',
      symbol: 'EURUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 50,
    });
    await expect(tooBig).rejects.toBeInstanceOf(BrokerError);
    await expect(tooBig).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('NOT_ENOUGH_MONEY'),
    });
    fake.errorMode = 'SERVER_IS_UNDER_MAINTENANCE';
    await expect(a.reconcile()).rejects.toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('SERVER_IS_UNDER_MAINTENANCE'),
    });
    fake.errorMode = null;
    expect((await a.reconcile()).positions).toBeDefined();

    const wrong = make({ accessToken: async () => 'expired-token' });
    await expect(wrong.connect()).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringContaining('CH_ACCESS_TOKEN_INVALID'),
    });
    expect(wrong.connectionState()).toBe('error');
  });

  it('re-authorises the session when the access token was renewed', async () => {
    let token = TOKEN;
    const a = make({ accessToken: async () => token, tokenCheckMs: 50 });
    await a.connect();
    const quotes: number[] = [];
    a.subscribeQuotes('EURUSD', (q) => quotes.push(q.bid));
    await waitFor(() => quotes.length >= 1, 'the first quote', 5000);
    token = 'rotated-1';
    await waitFor(
      () =>
        fake.received.some(
          (f) => f.payloadType === PT.ACCOUNT_AUTH_REQ && f.payload?.accessToken === 'rotated-1',
        ),
      're-authentication with the rotated token',
      5000,
    );
    await waitFor(() => a.connectionState() === 'connected', 'the connection', 5000);
    const n = quotes.length;
    fake.setPrice('EURUSD', 1.0852, 1.0853);
    await waitFor(() => quotes.length > n, 'a new quote', 5000);
    expect(quotes.at(-1)).toBe(1.0852);
    fake.setPrice('EURUSD', 1.085, 1.0851);
  });

  it('keeps a quote subscription made while the server is unreachable and serves it once connected', async () => {
    await fake.stop();
    const a = make();
    const quotes: number[] = [];
    a.subscribeQuotes('USDJPY', (q) => quotes.push(q.bid));
    await expect(a.connect()).rejects.toMatchObject({ kind: 'unavailable' });
    await fake.start();
    await waitFor(() => quotes.length >= 1, 'the first quote after the server came up', 8000);
    expect(quotes[0]).toBe(151.23);
    expect(a.connectionState()).toBe('connected');
  });

  it('sends heartbeats and treats a silent server as gone', async () => {
    const a = make({ heartbeatMs: 100 });
    await a.connect();
    const beats = fake.heartbeatsReceived;
    await waitFor(() => fake.heartbeatsReceived >= beats + 2, 'two heartbeats', 5000);
    fake.frozen = true;
    await waitFor(() => a.connectionState() !== 'connected', 'the frozen connection to be noticed', 3000);
    fake.frozen = false;
    await waitFor(() => a.connectionState() === 'connected', 'the reconnect', 8000);
    expect((await a.accountInfo()).balance).toBeGreaterThan(0);
  });

  it('reports a stop loss that fires on the server as a STOP_LOSS deal and a closed position', async () => {
    const a = make();
    await a.connect();
    const events: BrokerEvent[] = [];
    a.onEvent((e) => events.push(e));
    const r = await a.placeOrder({
      client_order_id: 'sl-1',
      symbol: 'EURUSD',
      side: 'SELL',
      kind: 'MARKET',
      volume: 0.01,
      stop_loss: { distance: 0.001 },
      take_profit: { distance: 0.002 },
    });
    expect(r.fill_price).toBe(1.085);
    fake.setPrice('EURUSD', 1.086, 1.0861);
    const deal = await waitFor(
      () =>
        events.find(
          (e) => e.type === 'execution' && e.deal.position_id === r.position_id && e.deal.entry === 'OUT',
        ),
      'the stop-loss deal',
      5000,
    );
    expect(deal).toMatchObject({ deal: { reason: 'STOP_LOSS', side: 'BUY', price: 1.0861, volume: 0.01 } });
    expect(
      events.some(
        (e) => e.type === 'position' && e.status === 'CLOSED' && e.position.position_id === r.position_id,
      ),
    ).toBe(true);
    fake.setPrice('EURUSD', 1.085, 1.0851);
  });

  it('reports a server that is down, reconnects with backoff, re-subscribes and reconciles', async () => {
    const a = make();
    await a.connect();
    const events: BrokerEvent[] = [];
    a.onEvent((e) => events.push(e));
    const quotes: number[] = [];
    a.subscribeQuotes('GBPUSD', (q) => quotes.push(q.bid));
    await waitFor(() => quotes.length >= 1, 'the first quote', 5000);
    const opened = await a.placeOrder({
      client_order_id: 'down-1',
      symbol: 'GBPUSD',
      side: 'BUY',
      kind: 'MARKET',
      volume: 0.01,
      stop_loss: { distance: 0.001 },
    });
    await a.reconcile();

    await fake.stop();
    await waitFor(() => a.connectionState() === 'reconnecting', 'the reconnecting state', 5000);
    const t0 = Date.now();
    await expect(
      a.placeOrder({
        client_order_id: 'down-2',
        symbol: 'GBPUSD',
        side: 'BUY',
        kind: 'MARKET',
        volume: 0.01,
      }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(Date.now() - t0).toBeLessThan(3000);

    // While we were away the stop loss fired on the server.
    await fake.start();
    fake.setPrice('GBPUSD', 1.262, 1.26215);
    await waitFor(() => a.connectionState() === 'connected', 'the reconnect', 8000);
    await waitFor(
      () =>
        events.some(
          (e) =>
            e.type === 'position' && e.status === 'CLOSED' && e.position.position_id === opened.position_id,
        ),
      'the position closed while down',
      5000,
    );
    expect(events.filter((e) => e.type === 'connection').map((e) => (e as { state: string }).state)).toEqual(
      expect.arrayContaining(['reconnecting', 'connected']),
    );
    // The spot subscription came back by itself.
    const n = quotes.length;
    fake.setPrice('GBPUSD', 1.264, 1.26415);
    await waitFor(() => quotes.length > n, 'a new quote', 5000);
    expect(quotes.at(-1)).toBe(1.264);

    // A dropped socket (server still up) is healed the same way.
    fake.dropConnections();
    await waitFor(() => a.connectionState() !== 'connected', 'the dropped socket to be noticed', 5000);
    await waitFor(() => a.connectionState() === 'connected', 'the reconnect', 8000);
    expect((await a.accountInfo()).currency).toBe('USD');
  });
});
