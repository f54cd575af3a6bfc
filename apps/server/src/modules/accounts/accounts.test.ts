import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '@tradedesk/contract';
import { up as backfillDemoAccounts } from '../../db/migrations/0004_demo_accounts';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { accountRow } from '../../test/accounts';
import { WEDNESDAY } from '../../test/sim-clock';

describeEachDb('accounts', (target) => {
  let h: Harness;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    h = await createHarness(target, { simNow: () => WEDNESDAY });
    alice = (await h.user('alice')).token;
    bob = (await h.user('bob')).token;
  });
  afterAll(() => h.close());

  const create = (token: string, body: unknown) =>
    h.request('POST', '/api/accounts/create/', { token, body });
  const list = async (token: string) => (await h.request('GET', '/api/accounts/', { token })).json();

  it('gives every new user one simulated "Demo" account with 10,000 USD at 1:100', async () => {
    const accounts = await list(alice);
    expect(accounts).toEqual([
      expect.objectContaining({ name: 'Demo', platform: 'SIM', currency: 'USD', leverage: 100 }),
    ]);
    const details = await h.request('GET', `/api/accounts/details/${accounts[0].id}`, { token: alice });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toEqual({
      id: accounts[0].id,
      balance: 10_000,
      equity: 10_000,
      margin: 0,
      free_margin: 10_000,
      currency: 'USD',
      leverage: 100,
      connection_state: 'connected',
    });
  });

  it('requires a name, and for MT5 the account number, password and server', async () => {
    const noName = await create(alice, { name: '  ', platform: 'SIM' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toEqual({ detail: { name: [ACCOUNT_MESSAGES.nameRequired] } });
    for (const missing of ['account_number', 'password', 'broker_server']) {
      const body: Record<string, unknown> = {
        name: 'Live',
        platform: 'MT5',
        account_number: '5012345',
        password: 'pw',
        broker_server: 'ICMarkets-Demo',
      };
      delete body[missing];
      const res = await create(alice, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'MT5 account details are incomplete.' });
    }
    expect((await create(alice, { name: 'x', platform: 'NinjaTrader' })).statusCode).toBe(400);
  });

  it('creates MT5, cTrader and SIM accounts and never returns a password', async () => {
    const mt5 = await create(alice, {
      name: 'IC Live',
      platform: 'MT5',
      broker: 'IC Markets',
      account_number: 5012345,
      password: 'Sup3r-Secret-Pw!',
      broker_server: 'ICMarkets-Live07',
    });
    expect(mt5.statusCode).toBe(201);
    expect(mt5.json()).toMatchObject({
      name: 'IC Live',
      platform: 'MT5',
      broker: 'IC Markets',
      account_number: '5012345',
      broker_server: 'ICMarkets-Live07',
    });
    expect(mt5.body).not.toContain('Sup3r-Secret-Pw!');
    expect(mt5.body).not.toContain('password');

    const ct = await create(alice, { name: 'Pepperstone cT', platform: 'cTrader' });
    expect(ct.statusCode).toBe(201);
    expect(ct.json().platform).toBe('cTrader');

    const sim = await create(alice, {
      name: 'Euro paper',
      platform: 'SIM',
      currency: 'eur',
      balance: 2500,
      leverage: 30,
    });
    expect(sim.statusCode).toBe(201);
    expect(sim.json()).toMatchObject({ platform: 'SIM', currency: 'EUR', leverage: 30 });
    const details = (
      await h.request('GET', `/api/accounts/details/${sim.json().id}`, { token: alice })
    ).json();
    expect(details).toMatchObject({ balance: 2500, equity: 2500, currency: 'EUR', leverage: 30 });
    expect((await create(alice, { name: 'Bad', platform: 'SIM', currency: 'XYZ' })).statusCode).toBe(400);

    const names = (await list(alice)).map((a: { name: string }) => a.name);
    expect(names).toEqual(expect.arrayContaining(['Demo', 'IC Live', 'Pepperstone cT', 'Euro paper']));
    const all = await h.request('GET', '/api/accounts/', { token: alice });
    expect(all.body).not.toContain('Sup3r-Secret-Pw!');
  });

  it('keeps the password encrypted at rest: the database does not contain it', async () => {
    const secret = 'Plain-Text-Canary-93417';
    const res = await create(alice, {
      name: 'Canary',
      platform: 'MT5',
      account_number: '777',
      password: secret,
      broker_server: 'Demo-Server',
    });
    const row = await accountRow(h, res.json().id);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row.password_enc).toMatch(/^v1:/);
    expect(h.ctx.secrets.open(row.password_enc!)).toBe(secret);
    if (target.name === 'sqlite') {
      // Every byte of the database files, the WAL included.
      const files = readdirSync(h.dataDir).filter((f) => f.startsWith('app.db'));
      expect(files.length).toBeGreaterThan(0);
      for (const f of files) expect(readFileSync(path.join(h.dataDir, f)).includes(secret)).toBe(false);
    }
  });

  it('updates name, broker, username and password; a blank password keeps the stored one', async () => {
    const id = (
      await create(alice, {
        name: 'Old',
        platform: 'MT5',
        account_number: '1',
        password: 'first-pw',
        broker_server: 'S',
      })
    ).json().id;
    const blank = await h.request('PUT', `/api/accounts/${id}/`, {
      token: alice,
      body: { name: 'Renamed', broker: 'FTMO', username: 'trader1', password: '' },
    });
    expect(blank.statusCode).toBe(200);
    expect(blank.json()).toMatchObject({ name: 'Renamed', broker: 'FTMO', username: 'trader1' });
    expect(h.ctx.secrets.open((await accountRow(h, id)).password_enc!)).toBe('first-pw');

    const changed = await h.request('PUT', `/api/accounts/${id}/`, {
      token: alice,
      body: { password: 'second-pw' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toContain('second-pw');
    expect(h.ctx.secrets.open((await accountRow(h, id)).password_enc!)).toBe('second-pw');
    expect((await h.request('GET', `/api/accounts/${id}/`, { token: alice })).json().name).toBe('Renamed');

    const noName = await h.request('PUT', `/api/accounts/${id}/`, { token: alice, body: { name: '' } });
    expect(noName.statusCode).toBe(400);
  });

  it('returns the MT5 details without the password, and 404 for an account that is not MT5', async () => {
    const id = (
      await create(alice, {
        name: 'M',
        platform: 'MT5',
        username: 'u1',
        account_number: '4242',
        password: 'hidden-pw',
        broker_server: 'Broker-Demo',
      })
    ).json().id;
    const res = await h.request('GET', `/api/accounts/${id}/mt5/`, { token: alice });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ account_number: '4242', broker_server: 'Broker-Demo', username: 'u1' });
    const demo = (await list(alice)).find((a: { name: string }) => a.name === 'Demo');
    expect((await h.request('GET', `/api/accounts/${demo.id}/mt5/`, { token: alice })).statusCode).toBe(404);
  });

  it("answers 404 for another user's account everywhere and leaves it untouched", async () => {
    const mine = (
      await create(alice, {
        name: 'Private',
        platform: 'MT5',
        account_number: '9',
        password: 'p',
        broker_server: 's',
      })
    ).json();
    const demo = (await list(alice)).find((a: { name: string }) => a.name === 'Demo');
    expect((await list(bob)).map((a: { id: string }) => a.id)).not.toContain(mine.id);
    const calls: Array<[Parameters<Harness['request']>[0], string, unknown?]> = [
      ['GET', `/api/accounts/${mine.id}/`],
      ['GET', `/api/accounts/details/${demo.id}`],
      ['PUT', `/api/accounts/${mine.id}/`, { name: 'hijack' }],
      ['DELETE', `/api/accounts/delete/${mine.id}/`],
      ['GET', `/api/accounts/${mine.id}/mt5/`],
      ['GET', `/api/trades/symbol-info/${demo.id}/EURUSD`],
    ];
    for (const [method, url, body] of calls) {
      const res = await h.request(method, url, { token: bob, body });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain('Private');
    }
    expect((await h.request('GET', `/api/accounts/${mine.id}/`, { token: alice })).json().name).toBe(
      'Private',
    );
  });

  it('deletes an account, after which it is gone', async () => {
    const id = (await create(alice, { name: 'Temp', platform: 'SIM' })).json().id;
    expect((await h.request('DELETE', `/api/accounts/delete/${id}/`, { token: alice })).statusCode).toBe(204);
    expect((await h.request('GET', `/api/accounts/${id}/`, { token: alice })).statusCode).toBe(404);
    expect((await h.request('DELETE', `/api/accounts/delete/${id}/`, { token: alice })).statusCode).toBe(404);
    const ledger = await h.ctx.db
      .selectFrom('sim_accounts')
      .selectAll()
      .where('account_id', '=', id)
      .execute();
    expect(ledger).toEqual([]);
  });

  it('gives symbol info with pip size, tick size, contract size, digits and volume limits', async () => {
    const demo = (await list(alice)).find((a: { name: string }) => a.name === 'Demo');
    const res = await h.request('GET', `/api/trades/symbol-info/${demo.id}/EURUSD`, { token: alice });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      symbol: 'EURUSD',
      pip_size: 0.0001,
      tick_size: 0.00001,
      contract_size: 100_000,
      digits: 5,
      base_currency: 'EUR',
      quote_currency: 'USD',
    });
    expect(res.json().volume_min).toBeGreaterThan(0);
    expect(res.json().volume_step).toBeGreaterThan(0);
    expect(res.json().volume_max).toBeGreaterThan(res.json().volume_min);
    const jpy = (
      await h.request('GET', `/api/trades/symbol-info/${demo.id}/usdjpy`, { token: alice })
    ).json();
    expect(jpy).toMatchObject({ symbol: 'USDJPY', pip_size: 0.01, digits: 3 });
    const unknown = await h.request('GET', `/api/trades/symbol-info/${demo.id}/NOPE`, { token: alice });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toContain('NOPE');
  });

  it('gives users who predate the simulator a Demo account, once (migration 0004)', async () => {
    await h.ctx.db
      .insertInto('users')
      .values({
        id: 'old-user',
        username: 'old',
        password_hash: 'x',
        is_staff: 0,
        created_at: '2025-01-01T00:00:00.000Z',
      })
      .execute();
    await backfillDemoAccounts(h.ctx.db as unknown as Kysely<unknown>);
    await backfillDemoAccounts(h.ctx.db as unknown as Kysely<unknown>);
    const rows = await h.ctx.db
      .selectFrom('trading_accounts')
      .selectAll()
      .where('user_id', '=', 'old-user')
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({ name: 'Demo', platform: 'SIM', currency: 'USD', leverage: 100 }),
    ]);
    const ledger = await h.ctx.db
      .selectFrom('sim_accounts')
      .selectAll()
      .where('account_id', '=', rows[0]!.id)
      .execute();
    expect(ledger.map((l) => Number(l.balance_minor))).toEqual([1_000_000]);
    expect(
      (await list(alice)).filter((a: { platform: string }) => a.platform === 'SIM').length,
    ).toBeGreaterThan(0);
  });

  it('refuses every accounts call without a token', async () => {
    expect((await h.request('GET', '/api/accounts/')).statusCode).toBe(401);
    expect(
      (await h.request('POST', '/api/accounts/create/', { body: { name: 'x', platform: 'SIM' } })).statusCode,
    ).toBe(401);
  });
});
