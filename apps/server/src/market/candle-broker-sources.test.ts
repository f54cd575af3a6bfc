import { afterAll, beforeAll, expect, it } from 'vitest';
import { monthStartOf, seriesFromBars } from '@tradedesk/domain';
import { CTraderAdapter } from '../brokers/ctrader/adapter';
import { FakeOpenApiServer } from '../testing/ctrader/fake-openapi-server';
import { PT } from '../brokers/ctrader/protocol';
import { FakeMt5Bridge } from '../testing/mt5/fake-bridge';
import { createBrokerRegistry, type BrokerRegistry } from '../brokers/registry';
import { createHarness, describeEachDb, type Harness } from '../test/harness';
import { createCandleStore, type CandleStore } from './candle-store';

const HOUR = 3_600_000;
const LOGIN = 7_006_001;
const PASSWORD = 'Candles-Pa55';
const SERVER = 'FakeBroker-Live01';
const CTID = 4_300_001;
const CLIENT = { clientId: 'app-id', clientSecret: 'app-secret' };

/** The start of last month: a month boundary safely in the past whatever today is. */
const boundary = () => monthStartOf(monthStartOf(Date.now()) - 1);
const iso = (t: number) => new Date(t).toISOString();

describeEachDb('candle store: MT5 bridge bars', (target) => {
  let h: Harness;
  let bridge: FakeMt5Bridge;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let account: string;
  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({ accounts: [{ login: LOGIN, password: PASSWORD, server: SERVER }] });
    h = await createHarness(target, { mt5BridgeUrl: bridge.url });
    alice = await h.user('alice');
    bob = await h.user('bob');
    const created = await h.request('POST', '/api/accounts/create/', {
      token: alice.token,
      body: {
        name: 'Bridge',
        platform: 'MT5',
        account_number: String(LOGIN),
        password: PASSWORD,
        broker_server: SERVER,
      },
    });
    expect(created.statusCode).toBe(201);
    account = created.json().id;
  });
  afterAll(async () => {
    await h.close();
    await bridge.stop();
  });

  const url = (from: number, to: number, tf = 'M1') =>
    `/api/market/candles/?account=${account}&symbol=EURUSD&timeframe=${tf}&from=${iso(from)}&to=${iso(to)}`;

  it("stores the account's bars by month as its owner's, and serves them again while the bridge is down", async () => {
    const b = boundary();
    const first = await h.request('GET', url(b - 2 * HOUR, b + 2 * HOUR), { token: alice.token });
    expect(first.statusCode, first.body).toBe(200);
    const bars = first.json();
    expect(bars.time.length).toBe(240);
    bars.time.forEach((t: number, i: number) => expect(t).toBe(b - 2 * HOUR + i * 60_000));
    const rows = await h.ctx.db
      .selectFrom('candle_chunks')
      .select(['source', 'user_id', 'account_id', 'bar_count'])
      .where('source', '=', `account:${account}`)
      .execute();
    expect(rows).toEqual([
      { source: `account:${account}`, user_id: alice.id, account_id: account, bar_count: 120 },
      { source: `account:${account}`, user_id: alice.id, account_id: account, bar_count: 120 },
    ]);
    expect((await h.request('GET', url(b - 2 * HOUR, b + 2 * HOUR), { token: bob.token })).statusCode).toBe(
      404,
    );

    bridge.setDown(true);
    try {
      const stored = await h.request('GET', url(b - HOUR, b + HOUR), { token: alice.token });
      expect(stored.statusCode).toBe(200);
      expect(stored.json().close).toEqual(bars.close.slice(60, 180));
      // Weeks are built from stored hours: none are stored yet, and the bridge is down.
      const missing = await h.request('GET', url(b - 24 * HOUR, b, 'W1'), { token: alice.token });
      expect(missing.statusCode).toBe(502);
    } finally {
      bridge.setDown(false);
    }
  });

  it('deleting the account deletes its candles', async () => {
    const del = await h.request('DELETE', `/api/accounts/delete/${account}/`, { token: alice.token });
    expect(del.statusCode).toBeLessThan(300);
    const left = await h.ctx.db
      .selectFrom('candle_chunks')
      .select('month')
      .where('source', '=', `account:${account}`)
      .execute();
    expect(left).toEqual([]);
  });
});

describeEachDb('candle store: cTrader trendbars', (target) => {
  let h: Harness;
  let api: FakeOpenApiServer;
  let registry: BrokerRegistry;
  let store: CandleStore;
  let direct: CTraderAdapter;
  let alice: { id: string; token: string };
  let account: string;
  const adapter = () =>
    new CTraderAdapter({
      url: api.url,
      ...CLIENT,
      ctidTraderAccountId: CTID,
      accessToken: async () => 'good-token',
      requestTimeoutMs: 3000,
    });

  beforeAll(async () => {
    api = await new FakeOpenApiServer({
      ...CLIENT,
      accounts: [
        {
          ctidTraderAccountId: CTID,
          traderLogin: 7_001_999,
          isLive: false,
          brokerName: 'Fake Markets',
          depositAsset: 'USD',
          balance: 1_000_000,
          leverage: 100,
        },
      ],
      tokenAccounts: (t) => (t === 'good-token' ? [CTID] : null),
      heartbeatMs: 500,
    }).start();
    h = await createHarness(target);
    alice = await h.user('alice');
    const created = await h.request('POST', '/api/accounts/create/', {
      token: alice.token,
      body: { name: 'My cTrader', platform: 'cTrader' },
    });
    account = created.json().id;
    // The account's broker is the fake Open API server (the OAuth binding is the cTrader module's test).
    registry = createBrokerRegistry(h.ctx, { cTrader: () => adapter() });
    store = createCandleStore(h.ctx, registry);
    direct = adapter();
  });
  afterAll(async () => {
    await direct.disconnect();
    await registry.closeAll();
    await h.close();
    await api.stop();
  });

  const requests = () => api.received.filter((f) => f.payloadType === PT.GET_TRENDBARS_REQ).length;

  it('backfills M1 across a month boundary from paged trendbars, once', async () => {
    const b = boundary();
    api.trendbarChunk = 100;
    const read = () =>
      store.series({
        userId: alice.id,
        accountId: account,
        symbol: 'EURUSD',
        timeframe: 'M1',
        fromMs: b - 3 * HOUR,
        toMs: b + 3 * HOUR,
      });
    const s = await read();
    expect(s.time.length).toBe(360);
    await direct.connect();
    const expected = seriesFromBars(await direct.candles('EURUSD', 'M1', b - 3 * HOUR, b + 3 * HOUR - 1));
    expect(Array.from(s.time)).toEqual(Array.from(expected.time));
    expect(Array.from(s.close)).toEqual(Array.from(expected.close));
    expect(Array.from(s.high)).toEqual(Array.from(expected.high));
    const asked = requests();
    const again = await read();
    expect(requests()).toBe(asked);
    expect(Array.from(again.open)).toEqual(Array.from(expected.open));
    api.trendbarChunk = 500;
  });

  it('builds weeks from stored trendbar hours and months from days', async () => {
    const b = boundary();
    const weeks = await store.series({
      userId: alice.id,
      accountId: account,
      symbol: 'EURUSD',
      timeframe: 'W1',
      fromMs: b - 14 * 24 * HOUR,
      toMs: b,
    });
    for (const t of weeks.time) expect(iso(t)).toMatch(/T22:00:00\.000Z$/);
    expect(weeks.time.length).toBeGreaterThanOrEqual(2);
    const months = await store.series({
      userId: alice.id,
      accountId: account,
      symbol: 'EURUSD',
      timeframe: 'MN1',
      fromMs: b,
      toMs: monthStartOf(Date.now()),
    });
    expect(Array.from(months.time)).toEqual([b]);
    const timeframes = await h.ctx.db
      .selectFrom('candle_chunks')
      .select('timeframe')
      .distinct()
      .where('source', '=', `account:${account}`)
      .orderBy('timeframe')
      .execute();
    expect(timeframes.map((r) => r.timeframe)).toEqual(['D1', 'H1', 'M1']);
  });
});
