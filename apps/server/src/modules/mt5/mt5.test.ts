import { afterAll, beforeAll, expect, it } from 'vitest';
import { MT5_MESSAGES } from '@tradedesk/contract';
import { FakeMt5Bridge } from '../../testing/mt5/fake-bridge';
import { newId, nowIso } from '../../lib/ids';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { waitFor } from '../../test/wait-for';

const LOGIN = 7_001_234;
const PASSWORD = 'Mt5-Pa55word!xyz';
const WRONG_PASSWORD = 'Wrong-Pa55word!abc';
const SERVER = 'FakeBroker-Live01';

describeEachDb('mt5 routes', (target) => {
  let bridge: FakeMt5Bridge;
  let h: Harness;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  const logLines: string[] = [];

  /** A stored MT5 account row, its password sealed as the accounts module stores it. */
  const storeAccount = async (
    userId: string,
    fields: {
      account_number?: string | null;
      password?: string | null;
      broker_server?: string | null;
      platform?: 'MT5' | 'SIM';
    } = {},
  ) => {
    const id = newId();
    const password = fields.password === undefined ? PASSWORD : fields.password;
    await h.ctx.db
      .insertInto('trading_accounts')
      .values({
        id,
        user_id: userId,
        name: 'My MT5',
        broker: 'Fake Broker',
        platform: fields.platform ?? 'MT5',
        username: '',
        password_enc: password === null ? null : h.ctx.secrets.seal(password),
        account_number: fields.account_number === undefined ? String(LOGIN) : fields.account_number,
        broker_server: fields.broker_server === undefined ? SERVER : fields.broker_server,
        currency: 'USD',
        leverage: 100,
        meta: '{}',
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    return id;
  };
  const connect = (token: string, body: unknown) => h.request('POST', '/api/mt5/connect/', { token, body });
  const account = (token: string, id: string) => h.request('GET', `/api/mt5/account/${id}`, { token });

  beforeAll(async () => {
    bridge = await FakeMt5Bridge.start({
      accounts: [{ login: LOGIN, password: PASSWORD, server: SERVER, name: 'Alice Trader' }],
      tickMs: 100,
      heartbeatMs: 200,
    });
    bridge.freeze();
    h = await createHarness(target, {
      mt5BridgeUrl: bridge.url,
      logLevel: 'trace',
      logStream: { write: (line: string) => void logLines.push(line) },
    });
    alice = await h.user('alice');
    bob = await h.user('bob');
  });
  afterAll(async () => {
    await h.close();
    await bridge.stop();
  });

  it('answers the spec message when any MT5 detail is missing', async () => {
    const full = { account_number: String(LOGIN), password: PASSWORD, broker_server: SERVER };
    const bodies = [
      {},
      { account_number: String(LOGIN) },
      { account_number: String(LOGIN), password: PASSWORD },
      { password: PASSWORD, broker_server: SERVER },
      { ...full, password: '' },
      { ...full, broker_server: '   ' },
      { ...full, account_number: null },
    ];
    for (const body of bodies) {
      const res = await connect(alice.token, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'MT5 account details are incomplete.' });
    }
    expect(bridge.loginAttempts).toBe(0);
  });

  it('logs in with entered details and returns the account info, never the password', async () => {
    const res = await connect(alice.token, {
      account_number: LOGIN,
      password: PASSWORD,
      broker_server: ` ${SERVER} `,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      account_id: null,
      login: LOGIN,
      server: SERVER,
      name: 'Alice Trader',
      company: 'Fake Broker Ltd',
      currency: 'USD',
      leverage: 100,
      balance: 10_000,
      equity: 10_000,
      margin: 0,
      free_margin: 10_000,
      margin_level: null,
      trade_mode: 'demo',
      margin_mode: 'hedging',
      connection_state: 'connected',
      message: MT5_MESSAGES.connected,
    });
    expect(res.body).not.toContain(PASSWORD);
  });

  it('refuses wrong credentials with 502 and the broker reason', async () => {
    const res = await connect(alice.token, {
      account_number: String(LOGIN),
      password: WRONG_PASSWORD,
      broker_server: SERVER,
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().detail).toMatch(/^MT5 login failed: /);
    expect(res.body).not.toContain(WRONG_PASSWORD);
  });

  it('connects a stored account with its stored details and then serves its account info', async () => {
    const id = await storeAccount(alice.id);
    const res = await connect(alice.token, { account_id: id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      account_id: id,
      login: LOGIN,
      server: SERVER,
      connection_state: 'connected',
      message: MT5_MESSAGES.connected,
    });
    expect(res.body).not.toContain(PASSWORD);

    // A trade made at the broker shows in balance, equity and margin.
    const acc = await account(alice.token, id);
    expect(acc.statusCode).toBe(200);
    expect(acc.json()).toMatchObject({
      account_id: id,
      balance: 10_000,
      equity: 10_000,
      margin: 0,
      free_margin: 10_000,
      currency: 'USD',
      leverage: 100,
      login: LOGIN,
      server: SERVER,
    });
  });

  it('serves an MT5 account created through the accounts API everywhere the broker layer is used', async () => {
    const created = await h.request('POST', '/api/accounts/create/', {
      token: alice.token,
      body: {
        name: 'Live MT5',
        platform: 'MT5',
        account_number: String(LOGIN),
        password: PASSWORD,
        broker_server: SERVER,
      },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const details = await h.request('GET', `/api/accounts/details/${id}`, { token: alice.token });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({
      balance: 10_000,
      equity: 10_000,
      free_margin: 10_000,
      currency: 'USD',
      leverage: 100,
      connection_state: 'connected',
    });
    const info = await h.request('GET', `/api/trades/symbol-info/${id}/USDJPY`, { token: alice.token });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      pip_size: 0.01,
      tick_size: 0.001,
      contract_size: 100_000,
      digits: 3,
    });
    const connected = await connect(alice.token, { account_id: id });
    expect(connected.statusCode).toBe(200);
    expect(connected.json()).toMatchObject({ account_id: id, login: LOGIN, connection_state: 'connected' });
    for (const res of [created, details, info, connected]) expect(res.body).not.toContain(PASSWORD);
  });

  it("answers 404 for another user's account, a non-MT5 account and an unknown id", async () => {
    const id = await storeAccount(alice.id);
    const sim = await storeAccount(alice.id, {
      platform: 'SIM',
      account_number: null,
      password: null,
      broker_server: null,
    });
    for (const [token, accountId] of [
      [bob.token, id],
      [alice.token, sim],
      [alice.token, newId()],
    ] as const) {
      const get = await account(token, accountId);
      expect(get.statusCode).toBe(404);
      expect(get.json()).toEqual({ detail: 'Account not found.' });
      expect((await connect(token, { account_id: accountId })).statusCode).toBe(404);
    }
    expect((await h.request('GET', `/api/mt5/account/${id}`)).statusCode).toBe(401);
  });

  it('answers the incomplete message for a stored account that lacks a detail', async () => {
    const id = await storeAccount(alice.id, { password: null });
    for (const res of [await connect(alice.token, { account_id: id }), await account(alice.token, id)]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'MT5 account details are incomplete.' });
    }
  });

  it('answers 502 while the bridge is down, keeps serving other accounts, and recovers with a reconciled account', async () => {
    const id = await storeAccount(alice.id);
    expect((await account(alice.token, id)).statusCode).toBe(200);
    // An open position, stopped out while we cannot see the bridge.
    bridge.setPrice('EURUSD', 1.1);
    const session = await fetch(`${bridge.url}/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: LOGIN, password: PASSWORD, server: SERVER }),
    }).then((r) => r.json() as Promise<{ session: string }>);
    const placed = await fetch(`${bridge.url}/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.session}` },
      body: JSON.stringify({
        symbol: 'EURUSD',
        type: 'BUY',
        volume: 0.5,
        sl: 1.095,
        client_id: 'route-test-1',
        magic: 770001,
      }),
    });
    expect(placed.status).toBe(200);

    bridge.setDown(true);
    const down = await account(alice.token, id);
    expect(down.statusCode).toBe(502);
    expect(down.json().detail).toMatch(/MT5 bridge/);
    const again = await connect(alice.token, { account_id: id });
    expect(again.statusCode).toBe(502);
    expect(again.json().detail).toMatch(/MT5 bridge/);
    // The rest of the app does not wait for the broker.
    expect((await h.request('GET', '/api/trades/watchlists/', { token: alice.token })).statusCode).toBe(200);
    expect((await h.request('GET', '/api/accounts/', { token: alice.token })).statusCode).toBe(200);

    bridge.setPrice('EURUSD', 1.0949);
    expect(bridge.openPositions(LOGIN)).toHaveLength(0);
    bridge.setDown(false);

    let body: { balance: number; equity: number; connection_state: string } | undefined;
    await waitFor(
      async () => {
        const res = await account(alice.token, id);
        if (res.statusCode !== 200) return false;
        body = res.json();
        return body?.connection_state === 'connected';
      },
      'recovery',
      15_000,
    );
    // Entry 1.10012, stopped at 1.0949: (1.0949 - 1.10012) x 0.5 x 100,000 = -261 USD, plus 2 x 1.75 commission.
    expect(body).toMatchObject({
      balance: 10_000 - 261 - 3.5,
      equity: 10_000 - 261 - 3.5,
      connection_state: 'connected',
    });
  });

  it('never writes a password into any log line', () => {
    expect(logLines.length).toBeGreaterThan(20);
    expect(logLines.some((l) => l.includes('mt5'))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(PASSWORD);
      expect(line).not.toContain(WRONG_PASSWORD);
    }
  });
});

// Its own app, built after the suite above has closed its own (two live harnesses share one PG migrator lookup).
describeEachDb('mt5 routes without a bridge', (target) => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await createHarness(target, { mt5BridgeUrl: undefined });
  });
  afterAll(() => bare.close());

  it('answers 502 with a clear detail when no bridge is configured, after validating the details', async () => {
    const u = await bare.user('carol');
    const full = { account_number: '1', password: 'x-pass', broker_server: 'S' };
    const res = await bare.request('POST', '/api/mt5/connect/', { token: u.token, body: full });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ detail: MT5_MESSAGES.notConfigured });
    const missing = await bare.request('POST', '/api/mt5/connect/', {
      token: u.token,
      body: { account_number: '1' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ detail: MT5_MESSAGES.incomplete });
  });
});
