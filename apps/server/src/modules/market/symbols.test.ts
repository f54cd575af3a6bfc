import { afterAll, beforeAll, expect, it } from 'vitest';
import { FakeMt5Bridge } from '../../testing/mt5/fake-bridge';
import { SIM_SYMBOLS } from '../../brokers/sim/symbols';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

const LOGIN = 7_004_321;
const PASSWORD = 'Symbols-Pa55';
const SERVER = 'FakeBroker-Live01';

describeEachDb('symbol list', (target) => {
  let h: Harness;
  let bridge: FakeMt5Bridge;
  let alice: string;
  let bob: string;
  let demo: string;
  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({ accounts: [{ login: LOGIN, password: PASSWORD, server: SERVER }] });
    h = await createHarness(target, { mt5BridgeUrl: bridge.url });
    alice = (await h.user('alice')).token;
    bob = (await h.user('bob')).token;
    demo = (await h.request('GET', '/api/accounts/', { token: alice })).json()[0].id;
  });
  afterAll(async () => {
    await h.close();
    await bridge.stop();
  });

  it("lists the simulated account's symbols with what a trade ticket needs of each", async () => {
    const res = await h.request('GET', `/api/trades/symbols/${demo}/`, { token: alice });
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<Record<string, unknown>>;
    // The simulator's own catalogue, in its order.
    expect(list.map((s) => s.symbol)).toEqual(SIM_SYMBOLS.map((d) => d.symbol));
    const eurusd = list.find((s) => s.symbol === 'EURUSD')!;
    expect(Object.keys(eurusd).sort()).toEqual(
      [
        'symbol',
        'description',
        'digits',
        'pip_size',
        'tick_size',
        'contract_size',
        'volume_min',
        'volume_step',
        'volume_max',
        'base_currency',
        'quote_currency',
      ].sort(),
    );
    expect(eurusd).toMatchObject({
      description: 'Euro vs US Dollar',
      digits: 5,
      pip_size: 0.0001,
      base_currency: 'EUR',
      quote_currency: 'USD',
    });
    expect(list.find((s) => s.symbol === 'BTCUSD')).toMatchObject({ pip_size: 1 });
    // Each entry is what the symbol-info route answers for that symbol.
    // (plus the market's session now, which only the symbol-info route sends).
    const info = await h.request('GET', `/api/trades/symbol-info/${demo}/USDJPY`, { token: alice });
    const { market, ...catalogued } = info.json() as Record<string, unknown>;
    expect(list.find((s) => s.symbol === 'USDJPY')).toEqual(catalogued);
    expect(market).toMatchObject({ open: expect.any(Boolean) });
  });

  it("answers 404 for another user's account and 401 without a token", async () => {
    const foreign = await h.request('GET', `/api/trades/symbols/${demo}/`, { token: bob });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ detail: expect.any(String) });
    const unknown = await h.request('GET', '/api/trades/symbols/no-such-account/', { token: alice });
    expect(unknown.statusCode).toBe(404);
    expect((await h.request('GET', `/api/trades/symbols/${demo}/`)).statusCode).toBe(401);
  });

  it("lists an MT5 account's symbols from its bridge, and answers 502 while the bridge is down", async () => {
    const created = await h.request('POST', '/api/accounts/create/', {
      token: alice,
      body: {
        name: 'Bridge MT5',
        platform: 'MT5',
        account_number: String(LOGIN),
        password: PASSWORD,
        broker_server: SERVER,
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const up = await h.request('GET', `/api/trades/symbols/${id}/`, { token: alice });
    expect(up.statusCode).toBe(200);
    const names = (up.json() as Array<{ symbol: string }>).map((s) => s.symbol);
    expect(names).toContain('EURUSD');
    expect(names).toContain('USDJPY');

    bridge.setDown(true, { loseSessions: true });
    try {
      const down = await h.request('GET', `/api/trades/symbols/${id}/`, { token: alice });
      expect(down.statusCode).toBe(502);
      expect(down.json().detail).toMatch(/MT5 bridge/);
    } finally {
      bridge.setDown(false);
    }
  });
});
