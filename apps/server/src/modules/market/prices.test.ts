import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_CLOSE } from '@tradedesk/contract';
import { FakeMt5Bridge } from '../../testing/mt5/fake-bridge';
import { createSimMarket } from '../../brokers/sim/market';
import type { SimMarket } from '../../brokers/sim/market-types';
import { priceHub } from '../../market/price-hub';
import { replayClock } from '../../config';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { WEDNESDAY } from '../../test/sim-clock';

/** The simulated clock runs in real time from a Wednesday morning, so FX ticks whatever day the suite runs. */
const simNow = replayClock(WEDNESDAY);

/** The real simulator, with a count of live upstream subscriptions per symbol. */
function countingMarket(inner: SimMarket) {
  const live = new Map<string, number>();
  const market: SimMarket = {
    seed: inner.seed,
    specs: () => inner.specs(),
    spec: (s) => inner.spec(s),
    quoteAt: (s, t) => inner.quoteAt(s, t),
    candles: (s, tf, a, b, n) => inner.candles(s, tf, a, b, n),
    convert: (amt, f, to, t) => inner.convert(amt, f, to, t),
    isOpen: (s, t) => inner.isOpen(s, t),
    session: (s, t) => inner.session(s, t),
    subscribe(symbol, onQuote) {
      live.set(symbol, (live.get(symbol) ?? 0) + 1);
      const stop = inner.subscribe(symbol, onQuote);
      return () => {
        live.set(symbol, (live.get(symbol) ?? 0) - 1);
        stop();
      };
    },
  };
  return { market, live };
}

interface Client {
  ws: WebSocket;
  messages: unknown[];
  closed: Promise<{ code: number; reason: string }>;
  next(): Promise<Record<string, unknown>>;
}

function connect(url: string): Client {
  const ws = new WebSocket(url);
  const messages: unknown[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)));
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  let read = 0;
  return {
    ws,
    messages,
    closed,
    async next() {
      while (messages.length <= read) {
        await new Promise<void>((resolve, reject) => {
          const t = setTimeout(() => reject(new Error('no price message within 5 s')), 5000);
          waiters.push(() => {
            clearTimeout(t);
            resolve();
          });
        });
      }
      return messages[read++] as Record<string, unknown>;
    },
  };
}

describeEachDb('price stream', (target) => {
  let h: Harness;
  let base: string;
  let alice: string;
  let bob: string;
  let account: string;
  let live: Map<string, number>;
  const logLines: string[] = [];
  beforeAll(async () => {
    const counting = countingMarket(createSimMarket({ seed: 7, now: simNow }));
    live = counting.live;
    h = await createHarness(target, {
      simNow,
      simMarket: counting.market,
      logLevel: 'info',
      logStream: { write: (line: string) => void logLines.push(line) },
    });
    alice = (await h.user('alice')).token;
    bob = (await h.user('bob')).token;
    account = (await h.request('GET', '/api/accounts/', { token: alice })).json()[0].id;
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = h.app.server.address();
    base = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => h.close());

  it('streams {bid, ask, time} with the token as a query parameter', async () => {
    const c = connect(`${base}/ws/prices/${account}/EURUSD?token=${alice}`);
    const first = await c.next();
    const second = await c.next();
    for (const m of [first, second]) {
      // The simulator knows its timetable, so every message also says the market is open (a Wednesday).
      expect(Object.keys(m).sort()).toEqual(['ask', 'bid', 'market', 'time']);
      expect(m.market).toMatchObject({ open: true, next_open: null });
      expect(m.ask as number).toBeGreaterThan(m.bid as number);
      expect(new Date(m.time as string).toISOString()).toBe(m.time);
    }
    expect(Date.parse(second.time as string)).toBeGreaterThanOrEqual(Date.parse(first.time as string));
    c.ws.close();
    await c.closed;
  });

  it('never writes the access token or a broker password to the log', async () => {
    const c = connect(`${base}/ws/prices/${account}/EURUSD?token=${alice}`);
    await c.next();
    c.ws.close();
    await c.closed;
    await h.request('POST', '/api/accounts/create/', {
      token: alice,
      body: {
        name: 'L',
        platform: 'MT5',
        account_number: '1',
        password: 'Log-Canary-Pw',
        broker_server: 'S',
      },
    });
    expect(logLines.length).toBeGreaterThan(0);
    const all = logLines.join('\n');
    expect(all).not.toContain(alice);
    expect(all).not.toContain('Log-Canary-Pw');
  });

  it('accepts the token as the first message', async () => {
    const c = connect(`${base}/ws/prices/${account}/usdjpy`);
    await new Promise((r) => c.ws.once('open', r));
    c.ws.send(JSON.stringify({ token: alice }));
    const m = await c.next();
    expect(m.bid as number).toBeGreaterThan(50);
    c.ws.close();
    await c.closed;
  });

  it('refuses a socket without a valid token (4401)', async () => {
    const noToken = connect(`${base}/ws/prices/${account}/EURUSD`);
    await new Promise((r) => noToken.ws.once('open', r));
    noToken.ws.send(JSON.stringify({ hello: 'world' }));
    expect((await noToken.closed).code).toBe(4401);
    const bad = await connect(`${base}/ws/prices/${account}/EURUSD?token=not-a-jwt`).closed;
    expect(bad.code).toBe(4401);
    expect(bad.reason).toMatch(/token/i);
  });

  it("closes with 4404 for another user's account or an unknown symbol", async () => {
    const foreign = await connect(`${base}/ws/prices/${account}/EURUSD?token=${bob}`).closed;
    expect(foreign.code).toBe(4404);
    const unknown = await connect(`${base}/ws/prices/${account}/NOPE?token=${alice}`).closed;
    expect(unknown.code).toBe(4404);
  });

  it('opens one upstream per account and symbol however many sockets watch, and drops it with the last', async () => {
    const clients = [1, 2, 3].map(() => connect(`${base}/ws/prices/${account}/GBPUSD?token=${alice}`));
    await Promise.all(clients.map((c) => c.next()));
    expect(live.get('GBPUSD')).toBe(1);
    expect(priceHub(h.ctx).stats()).toMatchObject({ topics: 1, watchers: 3 });
    clients[0]!.ws.close();
    await clients[0]!.closed;
    await clients[1]!.next();
    expect(live.get('GBPUSD')).toBe(1);
    for (const c of clients.slice(1)) c.ws.close();
    await Promise.all(clients.map((c) => c.closed));
    const until = Date.now() + 2000;
    while (live.get('GBPUSD') !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(live.get('GBPUSD')).toBe(0);
    expect(priceHub(h.ctx).stats().topics).toBe(0);
  });
});

describeEachDb('price stream while the market is closed', (target) => {
  let h: Harness;
  const SATURDAY = Date.parse('2026-01-10T12:00:00Z');
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => SATURDAY });
  });
  afterAll(() => h.close());

  it('sends the last price at once, so a watcher never stares at an empty quote over the weekend', async () => {
    const { token } = await h.user('weekend');
    const account = (await h.request('GET', '/api/accounts/', { token })).json()[0].id;
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = h.app.server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    const c = connect(`ws://127.0.0.1:${port}/ws/prices/${account}/EURUSD?token=${token}`);
    const first = await c.next();
    const friday = createSimMarket({ seed: h.config.simSeed }).quoteAt('EURUSD', SATURDAY);
    expect(first).toEqual({
      bid: friday.bid,
      ask: friday.ask,
      time: new Date(friday.time).toISOString(),
      // ... and says the market is closed until Sunday 22:00 UTC.
      market: { open: false, next_open: '2026-01-11T22:00:00.000Z', next_close: null },
    });
    c.ws.close();
    await c.closed;
  });
});

describeEachDb('price stream of an account whose broker link changes', (target) => {
  let h: Harness;
  let bridge: FakeMt5Bridge;
  let base: string;
  let token: string;
  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({
      accounts: [{ login: 7_001_234, password: 'Bridge-Pa55', server: 'FakeBroker-Live01' }],
      tickMs: 100,
    });
    h = await createHarness(target, { mt5BridgeUrl: bridge.url });
    token = (await h.user('editor')).token;
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = h.app.server.address();
    base = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await h.close();
    await bridge.stop();
  });

  /** Messages that arrive on `c` within `ms`. */
  async function countFor(c: Client, ms: number): Promise<number> {
    const before = c.messages.length;
    await new Promise((r) => setTimeout(r, ms));
    return c.messages.length - before;
  }

  it('closes the sockets of an edited or deleted account, so that they reconnect instead of freezing', async () => {
    const created = await h.request('POST', '/api/accounts/create/', {
      token,
      body: {
        name: 'Bridge MT5',
        platform: 'MT5',
        account_number: '7001234',
        password: 'Bridge-Pa55',
        broker_server: 'FakeBroker-Live01',
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const url = `${base}/ws/prices/${id}/EURUSD?token=${token}`;
    const watchers = [connect(url), connect(url)];
    await Promise.all(watchers.map((c) => c.next()));
    expect(await countFor(watchers[0]!, 600)).toBeGreaterThan(1);

    // New credentials replace the account's broker link: its old quote stream is gone.
    const edited = await h.request('PUT', `/api/accounts/${id}/`, {
      token,
      body: { password: 'Bridge-Pa55' },
    });
    expect(edited.statusCode).toBe(200);
    for (const c of watchers) expect((await c.closed).code).toBe(WS_CLOSE.accountChanged);

    // A socket opened now streams from the new link, ticking as before.
    const again = connect(url);
    await again.next();
    expect(await countFor(again, 600)).toBeGreaterThan(1);

    // A deleted account's socket is closed too; reconnecting is refused.
    expect((await h.request('DELETE', `/api/accounts/delete/${id}/`, { token })).statusCode).toBe(204);
    expect((await again.closed).code).toBe(WS_CLOSE.accountChanged);
    expect((await connect(url).closed).code).toBe(WS_CLOSE.notFound);
    expect(priceHub(h.ctx).stats()).toMatchObject({ topics: 0, watchers: 0 });
  });
});
