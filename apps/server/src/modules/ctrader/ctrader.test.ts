import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CTRADER_MESSAGES } from '@tradedesk/contract';
import { FakeOAuthServer } from '../../testing/ctrader/fake-oauth-server';
import { FakeOpenApiServer } from '../../testing/ctrader/fake-openapi-server';
import { PT } from '../../brokers/ctrader/protocol';
import { brokerRegistry } from '../../brokers/registry';
import { createHarness, describeEachDb, type Harness } from '../../test/harness';
import { accountRow } from '../../test/accounts';
import { waitFor } from '../../test/wait-for';

const DEMO = 5_100_001;
const LIVE = 5_100_002;
const CLIENT = { clientId: '1234_fakeClientId', clientSecret: 'fake-client-secret' };
const REDIRECT_URI = 'http://localhost:8000/api/ctrader/api/ctrader/callback/';

describeEachDb('cTrader OAuth and account binding', (target) => {
  let h: Harness;
  let oauth: FakeOAuthServer;
  let api: FakeOpenApiServer;
  let alice: string;
  let bob: string;
  let accountId: string;
  const logLines: string[] = [];
  /** Every authorisation code cTrader sent back to our callback. */
  const codes: string[] = [];

  beforeAll(async () => {
    oauth = await new FakeOAuthServer({ ...CLIENT, grantedAccounts: [DEMO, LIVE] }).start();
    api = await new FakeOpenApiServer({
      ...CLIENT,
      accounts: [
        {
          ctidTraderAccountId: DEMO,
          traderLogin: 3_141_592,
          isLive: false,
          brokerName: 'Fake Markets',
          depositAsset: 'USD',
          balance: 1_000_000,
          leverage: 100,
        },
        {
          ctidTraderAccountId: LIVE,
          traderLogin: 2_718_281,
          isLive: true,
          brokerName: 'Fake Markets Live',
          depositAsset: 'EUR',
          balance: 250_075,
          leverage: 30,
        },
      ],
      tokenAccounts: (t) => oauth.accountsFor(t),
      heartbeatMs: 500,
    }).start();
    h = await createHarness(target, {
      ctrader: {
        ...CLIENT,
        redirectUri: REDIRECT_URI,
        host: api.url,
        authUrl: oauth.authUrl,
        tokenUrl: oauth.tokenUrl,
      },
      logLevel: 'info',
      // Every request written to the log (as slow), so the check below sees each one.
      slowRequestMs: 0,
      logStream: { write: (line: string) => void logLines.push(line) },
    });
    alice = (await h.user('alice')).token;
    bob = (await h.user('bob')).token;
    const created = await h.request('POST', '/api/accounts/create/', {
      token: alice,
      body: { name: 'My cTrader', platform: 'cTrader' },
    });
    expect(created.statusCode).toBe(201);
    accountId = created.json().id;
  });
  afterAll(async () => {
    await h.close();
    await api.stop();
    await oauth.stop();
  });

  const redirect = (token: string, id: string) =>
    h.request('GET', `/api/ctrader/api/ctrader/redirect/?account_id=${id}`, { token });
  const rawRow = () => accountRow(h, accountId);
  const ctMeta = async () => JSON.parse((await rawRow()).meta).ctrader;

  /** Walks the browser through consent: our redirect URL -> cTrader (auto-approve) -> our callback. */
  async function authorise(): Promise<{ status: number; location: string; body: string }> {
    const res = await redirect(alice, accountId);
    expect(res.statusCode).toBe(200);
    const consent = await fetch(res.json().redirect_url, { redirect: 'manual' });
    expect(consent.status).toBe(302);
    const back = new URL(consent.headers.get('location') as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    codes.push(back.searchParams.get('code') as string);
    const cb = await h.request('GET', `${back.pathname}${back.search}`);
    return { status: cb.statusCode, location: String(cb.headers.location ?? ''), body: cb.body };
  }

  it('builds the authorisation URL with client id, redirect URI, trading scope and a signed state', async () => {
    const res = await redirect(alice, accountId);
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().redirect_url);
    expect(`${url.origin}${url.pathname}`).toBe(oauth.authUrl);
    expect(url.searchParams.get('client_id')).toBe(CLIENT.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('scope')).toBe('trading');
    expect(url.searchParams.get('state')?.split('.')).toHaveLength(3);
    expect(url.toString()).not.toContain(CLIENT.clientSecret);

    expect((await redirect(bob, accountId)).statusCode).toBe(404);
    const accounts = (await h.request('GET', '/api/accounts/', { token: alice })).json() as Array<{
      id: string;
      platform: string;
    }>;
    const sim = accounts.find((a) => a.platform === 'SIM');
    const notCt = await redirect(alice, sim?.id as string);
    expect(notCt.statusCode).toBe(400);
    expect(notCt.json()).toEqual({ detail: CTRADER_MESSAGES.notCTrader });
    expect(
      (await h.request('GET', `/api/ctrader/api/ctrader/redirect/?account_id=${accountId}`)).statusCode,
    ).toBe(401);
  });

  it('exchanges the code, stores the tokens encrypted and sends the browser to the account picker', async () => {
    const cb = await authorise();
    expect(cb.status).toBe(302);
    const target = new URL(cb.location, 'http://app.local');
    expect(target.pathname).toBe('/select-ctrader-account');
    const accounts = JSON.parse(target.searchParams.get('accounts') as string);
    expect(accounts).toEqual([
      {
        accountId: DEMO,
        accountNumber: 3_141_592,
        brokerName: 'Fake Markets',
        currency: 'USD',
        balance: 10_000,
        isLive: false,
      },
      {
        accountId: LIVE,
        accountNumber: 2_718_281,
        brokerName: 'Fake Markets Live',
        currency: 'EUR',
        balance: 2500.75,
        isLive: true,
      },
    ]);
    expect(oauth.requests.at(-1)).toEqual({ grant_type: 'authorization_code', ok: true });

    const tokens = oauth.issued.at(-1) as { accessToken: string; refreshToken: string };
    const row = await rawRow();
    expect(JSON.stringify(row)).not.toContain(tokens.accessToken);
    expect(JSON.stringify(row)).not.toContain(tokens.refreshToken);
    const meta = JSON.parse(row.meta).ctrader;
    expect(h.ctx.secrets.open(meta.access_token_enc)).toBe(tokens.accessToken);
    expect(h.ctx.secrets.open(meta.refresh_token_enc)).toBe(tokens.refreshToken);
    expect(Date.parse(meta.expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    if (target_is_sqlite()) {
      for (const f of readdirSync(h.dataDir).filter((f) => f.startsWith('app.db'))) {
        const bytes = readFileSync(path.join(h.dataDir, f));
        expect(bytes.includes(tokens.accessToken)).toBe(false);
        expect(bytes.includes(tokens.refreshToken)).toBe(false);
      }
    }
  });

  function target_is_sqlite() {
    return target.name === 'sqlite';
  }

  it('refuses a forged, missing or reused callback', async () => {
    const bad = await h.request('GET', '/api/ctrader/api/ctrader/callback/?code=abc&state=not-a-jwt');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ detail: CTRADER_MESSAGES.badState });
    // An access token of ours is not a state.
    const forged = await h.request('GET', `/api/ctrader/api/ctrader/callback/?code=abc&state=${alice}`);
    expect(forged.statusCode).toBe(400);
    const state = new URL((await redirect(alice, accountId)).json().redirect_url).searchParams.get(
      'state',
    ) as string;
    const noCode = await h.request('GET', `/api/ctrader/api/ctrader/callback/?state=${state}`);
    expect(noCode.json()).toEqual({ detail: CTRADER_MESSAGES.missingCode });
    const denied = await h.request(
      'GET',
      `/api/ctrader/api/ctrader/callback/?state=${state}&error=access_denied`,
    );
    expect(denied.statusCode).toBe(400);
    const wrongCode = await h.request(
      'GET',
      `/api/ctrader/api/ctrader/callback/?state=${state}&code=never-issued`,
    );
    expect(wrongCode.statusCode).toBe(502);
    expect(wrongCode.json().detail).toContain('cTrader refused the token request');
  });

  it('stores the chosen cTrader account and then talks to it through the Open API', async () => {
    const notGranted = await h.request('POST', '/api/ctrader/api/ctrader/select-account/', {
      token: alice,
      body: { accountId: 999 },
    });
    expect(notGranted.statusCode).toBe(400);
    expect(notGranted.json()).toEqual({ detail: CTRADER_MESSAGES.notGranted });
    const bobs = await h.request('POST', '/api/ctrader/api/ctrader/select-account/', {
      token: bob,
      body: { accountId: DEMO },
    });
    expect(bobs.statusCode).toBe(400);
    expect(bobs.json()).toEqual({ detail: CTRADER_MESSAGES.noAuthorisedAccount });
    const foreign = await h.request('POST', '/api/ctrader/api/ctrader/select-account/', {
      token: bob,
      body: { accountId: DEMO, account_id: accountId },
    });
    expect(foreign.statusCode).toBe(404);

    const res = await h.request('POST', '/api/ctrader/api/ctrader/select-account/', {
      token: alice,
      body: { accountId: String(DEMO) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Account selected and stored!' });
    const row = await rawRow();
    expect(row).toMatchObject({ account_number: '3141592', broker: 'Fake Markets', currency: 'USD' });
    expect(JSON.parse(row.meta).ctrader).toMatchObject({ ctid_trader_account_id: DEMO, is_live: false });

    const status = await h.request('GET', `/api/ctrader/api/ctrader/account/${accountId}/`, { token: alice });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      id: accountId,
      ctid_trader_account_id: DEMO,
      is_live: false,
      connection_state: 'connected',
      balance: 10_000,
      equity: 10_000,
      margin: 0,
      free_margin: 10_000,
      currency: 'USD',
      leverage: 100,
    });
    expect(
      (await h.request('GET', `/api/ctrader/api/ctrader/account/${accountId}/`, { token: bob })).statusCode,
    ).toBe(404);
    // The account API sees the same broker through the registry.
    const info = await h.request('GET', `/api/trades/symbol-info/${accountId}/EURUSD`, { token: alice });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ pip_size: 0.0001, tick_size: 0.00001, contract_size: 100_000 });
  });

  it('refreshes the access token when it is about to expire', async () => {
    const before = await ctMeta();
    const oldAccess = h.ctx.secrets.open(before.access_token_enc);
    // The stored token is about to expire.
    await h.ctx.db
      .updateTable('trading_accounts')
      .set({
        meta: JSON.stringify({
          ctrader: { ...before, expires_at: new Date(Date.now() + 120_000).toISOString() },
        }),
      })
      .where('id', '=', accountId)
      .execute();
    await brokerRegistry(h.ctx).evict(accountId);
    const refreshesBefore = oauth.requests.filter((r) => r.grant_type === 'refresh_token').length;
    const status = await h.request('GET', `/api/ctrader/api/ctrader/account/${accountId}/`, { token: alice });
    expect(status.statusCode).toBe(200);
    expect(oauth.requests.filter((r) => r.grant_type === 'refresh_token' && r.ok)).toHaveLength(
      refreshesBefore + 1,
    );
    const after = await ctMeta();
    const newAccess = h.ctx.secrets.open(after.access_token_enc);
    expect(newAccess).not.toBe(oldAccess);
    expect(newAccess).toBe(oauth.issued.at(-1)?.accessToken);
    expect(oauth.accountsFor(oldAccess)).toBeNull();
    expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    // The Open API session was authorised with the new token.
    const auth = api.received.filter((f) => f.payloadType === PT.ACCOUNT_AUTH_REQ).at(-1);
    expect(auth?.payload).toEqual({ ctidTraderAccountId: DEMO, accessToken: newAccess });
    // A token with plenty of time left is used as it is.
    await brokerRegistry(h.ctx).evict(accountId);
    expect(
      (await h.request('GET', `/api/ctrader/api/ctrader/account/${accountId}/`, { token: alice })).statusCode,
    ).toBe(200);
    expect(oauth.requests.filter((r) => r.grant_type === 'refresh_token')).toHaveLength(refreshesBefore + 1);
  });

  it('refreshes a token that would expire before the next check of a connected session', async () => {
    // A connected session checks its token every 15 minutes: 20 minutes left must not wait for expiry.
    const before = await ctMeta();
    await h.ctx.db
      .updateTable('trading_accounts')
      .set({
        meta: JSON.stringify({
          ctrader: { ...before, expires_at: new Date(Date.now() + 20 * 60_000).toISOString() },
        }),
      })
      .where('id', '=', accountId)
      .execute();
    await brokerRegistry(h.ctx).evict(accountId);
    const refreshesBefore = oauth.requests.filter((r) => r.grant_type === 'refresh_token' && r.ok).length;
    const status = await h.request('GET', `/api/ctrader/api/ctrader/account/${accountId}/`, { token: alice });
    expect(status.statusCode).toBe(200);
    expect(oauth.requests.filter((r) => r.grant_type === 'refresh_token' && r.ok)).toHaveLength(
      refreshesBefore + 1,
    );
    expect(Date.parse((await ctMeta()).expires_at)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it('never writes the authorisation code or the tokens to the log', async () => {
    // The callback URL carries a code that, with our client secret, is worth a token pair.
    const cb = await authorise();
    expect(cb.status).toBe(302);
    expect(codes.length).toBeGreaterThan(0);
    expect(logLines.length).toBeGreaterThan(0);
    const all = logLines.join('\n');
    expect(all).toContain('/api/ctrader/api/ctrader/redirect/');
    for (const code of codes) expect(all).not.toContain(code);
    for (const t of oauth.issued) {
      expect(all).not.toContain(t.accessToken);
      expect(all).not.toContain(t.refreshToken);
    }
  });

  it('answers 502 while the Open API is down and recovers once it is back', async () => {
    await api.stop();
    const down = await h.request('GET', `/api/ctrader/api/ctrader/account/${accountId}/`, { token: alice });
    expect(down.statusCode).toBe(502);
    expect(down.json().detail).toMatch(/cTrader|unavailable|unreachable/i);
    // Other accounts keep working.
    const accounts = (await h.request('GET', '/api/accounts/', { token: alice })).json() as Array<{
      id: string;
      platform: string;
    }>;
    const sim = accounts.find((a) => a.platform === 'SIM');
    expect((await h.request('GET', `/api/accounts/details/${sim?.id}`, { token: alice })).statusCode).toBe(
      200,
    );

    await api.start();
    const back = await waitFor(async () => {
      const r = await h.request('GET', `/api/ctrader/api/ctrader/account/${accountId}/`, { token: alice });
      return r.statusCode === 200 ? r : undefined;
    }, 'the account to answer again');
    expect(back.json()).toMatchObject({ connection_state: 'connected', currency: 'USD' });
  });
});

describeEachDb('cTrader when not configured', (target) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(target);
  });
  afterAll(() => h.close());

  it('answers 503 with a clear detail instead of failing', async () => {
    const { token } = await h.user('carol');
    const created = await h.request('POST', '/api/accounts/create/', {
      token,
      body: { name: 'cT', platform: 'cTrader' },
    });
    const res = await h.request('GET', `/api/ctrader/api/ctrader/redirect/?account_id=${created.json().id}`, {
      token,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: CTRADER_MESSAGES.notConfigured });
    const details = await h.request('GET', `/api/accounts/details/${created.json().id}`, { token });
    expect(details.statusCode).toBeGreaterThanOrEqual(500);
    expect(details.statusCode).not.toBe(500);
  });
});
