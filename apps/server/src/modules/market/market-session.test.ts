import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { marketSession, priceMessage, symbolInfo } from '@tradedesk/contract';
import { FakeMt5Bridge } from '../../testing/mt5/fake-bridge';
import { replayClock } from '../../config';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';

/** The market's session on the symbol-info API and on the price feed: the one answer of the server. */

const SATURDAY = Date.parse('2026-01-10T12:00:00Z');
const WEDNESDAY = Date.parse('2026-01-07T10:00:00Z');
const LOGIN = 7_004_555;
const PASSWORD = 'Session-Pa55';
const SERVER = 'FakeBroker-Live01';

/** Messages of a price socket, collected until `until` holds for one of them or `ms` pass. */
function watch(url: string, until: (m: Record<string, unknown>) => boolean, ms = 5000) {
  const ws = new WebSocket(url);
  const messages: Array<Record<string, unknown>> = [];
  const done = new Promise<Array<Record<string, unknown>>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no matching message in ${ms} ms`)), ms);
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      messages.push(m);
      if (until(m)) {
        clearTimeout(timer);
        ws.close();
        resolve(messages);
      }
    });
  });
  return done;
}

async function listen(h: Harness): Promise<string> {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = h.app.server.address();
  return `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

describeEachDb('market session on a Saturday', (target) => {
  let h: Harness;
  let token: string;
  let demo: string;
  let bridge: FakeMt5Bridge;
  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({ accounts: [{ login: LOGIN, password: PASSWORD, server: SERVER }] });
    h = await createHarness(target, { simNow: () => SATURDAY, mt5BridgeUrl: bridge.url });
    token = (await h.user('weekend')).token;
    demo = (await h.request('GET', '/api/accounts/', { token })).json()[0].id;
  });
  afterAll(async () => {
    await h.close();
    await bridge.stop();
  });

  const info = async (symbol: string) => {
    const res = await h.request('GET', `/api/trades/symbol-info/${demo}/${symbol}`, { token });
    expect(res.statusCode).toBe(200);
    return symbolInfo.parse(res.json());
  };

  it('says FX, gold and indices are closed with when they open, and crypto open for good', async () => {
    expect((await info('EURUSD')).market).toEqual({
      open: false,
      next_open: '2026-01-11T22:00:00.000Z',
      next_close: null,
    });
    expect((await info('XAUUSD')).market?.next_open).toBe('2026-01-11T22:00:00.000Z');
    expect((await info('US100')).market).toEqual({
      open: false,
      next_open: '2026-01-11T23:00:00.000Z',
      next_close: null,
    });
    expect((await info('BTCUSD')).market).toEqual({ open: true, next_open: null, next_close: null });
    // A lower-case symbol is found and answered the same.
    expect((await info('eurusd')).market?.open).toBe(false);
  });

  it('sends the session with the price on the socket, validated by the contract', async () => {
    const base = await listen(h);
    const [first] = await watch(`${base}/ws/prices/${demo}/US30?token=${token}`, () => true);
    const parsed = priceMessage.parse(first);
    expect(parsed.market).toEqual({ open: false, next_open: '2026-01-11T23:00:00.000Z', next_close: null });
  });

  it('sends no session for an MT5 account (its bridge has no timetable), and 502 with the reason when down', async () => {
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
    const id = created.json().id as string;
    const up = await h.request('GET', `/api/trades/symbol-info/${id}/EURUSD`, { token });
    expect(up.statusCode).toBe(200);
    expect(up.json()).not.toHaveProperty('market');
    bridge.setDown(true, { loseSessions: true });
    try {
      // A symbol not asked before (the adapter keeps the ones it has seen), so the bridge is asked.
      const down = await h.request('GET', `/api/trades/symbol-info/${id}/GBPUSD`, { token });
      expect(down.statusCode).toBe(502);
      expect(down.json().detail).toMatch(/MT5 bridge/);
    } finally {
      bridge.setDown(false);
    }
  });
});

describeEachDb('market session on a weekday, and at the close', (target) => {
  let h: Harness;
  let token: string;
  let demo: string;
  // Half a second before the Friday close, in real time: the close happens during the test.
  const FRIDAY_CLOSE = Date.parse('2026-01-09T22:00:00Z');
  let clock: () => number = () => WEDNESDAY;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => clock() });
    token = (await h.user('weekday')).token;
    demo = (await h.request('GET', '/api/accounts/', { token })).json()[0].id;
  });
  afterAll(() => h.close());

  it('says when an open market closes next: Friday 22:00 for FX, tonight 22:00 for indices', async () => {
    const eur = await h.request('GET', `/api/trades/symbol-info/${demo}/EURUSD`, { token });
    expect(marketSession.parse(eur.json().market)).toEqual({
      open: true,
      next_open: null,
      next_close: '2026-01-09T22:00:00.000Z',
    });
    const us100 = await h.request('GET', `/api/trades/symbol-info/${demo}/US100`, { token });
    expect(us100.json().market).toEqual({
      open: true,
      next_open: null,
      next_close: '2026-01-07T22:00:00.000Z',
    });
  });

  it('announces the close on the socket at once, with the next open', async () => {
    clock = replayClock(FRIDAY_CLOSE - 500);
    const base = await listen(h);
    const messages = await watch(
      `${base}/ws/prices/${demo}/EURUSD?token=${token}`,
      (m) => (m.market as { open?: boolean } | undefined)?.open === false,
      4000,
    );
    const parsed = messages.map((m) => priceMessage.parse(m));
    expect(parsed[0]!.market?.open).toBe(true);
    expect(parsed.at(-1)!.market).toEqual({
      open: false,
      next_open: '2026-01-11T22:00:00.000Z',
      next_close: null,
    });
  });
});
