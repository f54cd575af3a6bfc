import { afterAll, beforeAll, expect, it } from 'vitest';
import { TEXT_MESSAGE } from '@tradedesk/contract';
import { createHarness, describeEachDb, type Harness } from '../test/harness';

type Method = 'GET' | 'POST' | 'PUT';
const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const inputs = {
  growthGoal: 10,
  riskPerTrade: 1,
  numTrades: 10,
  profile: 'Intraday',
  splits: { w1: 40, w2: 30, w3: 30, R1: 1, R2: 2, R3: 3, q1: 100, q2: 0, q3: 0 },
};

/** One table of bad text, sent the same way to SQLite and PostgreSQL: every row is a 400 naming its field. */
const table: Array<[string, Method, string, (bad: string) => unknown, string]> = [
  [
    'watchlist instrument',
    'POST',
    '/api/trades/watchlists/',
    (b) => ({ instrument: b, exchange: 'FX' }),
    'instrument',
  ],
  ['account name', 'POST', '/api/accounts/create/', (b) => ({ name: b, platform: 'MT5' }), 'name'],
  ['journal reason', 'POST', '/api/trade_journal/journals/', (b) => ({ trade: 'x', reason: b }), 'reason'],
  ['journal trade id', 'POST', '/api/trade_journal/journals/', (b) => ({ trade: b, reason: 'r' }), 'trade'],
  ['scenario name', 'POST', '/api/user/scenarios/', (b) => ({ name: b, inputs }), 'name'],
  ['profit profile name', 'POST', '/api/accounts/profit-profiles/', (b) => ({ name: b }), 'name'],
  ['login username', 'POST', '/api/token/', (b) => ({ username: b, password: 'whatever-pw' }), 'username'],
];

describeEachDb('one text rule for every field', (target) => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await createHarness(target);
    token = (await h.user('texter')).token;
  });
  afterAll(() => h.close());

  for (const [name, method, url, body, field] of table) {
    for (const [kind, bad] of [
      ['NUL', NUL],
      ['lone surrogate', LONE],
    ] as const) {
      it(`${name}: ${kind} is a 400 naming the field`, async () => {
        const res = await h.request(method, url, { token, body: body(bad), ip: '10.77.0.1' });
        expect(res.statusCode).toBe(400);
        expect(res.json().detail[field]).toEqual([TEXT_MESSAGE]);
      });
    }
  }

  it('refuses NUL in path parameters and query strings the same way', async () => {
    for (const url of [
      '/api/accounts/details/%00',
      '/api/trades/symbol-info/abc/EUR%00USD',
      '/api/trade_journal/journals/?trade=%00',
      '/api/trade_journal/attachments/%00/file?token=1',
    ]) {
      const res = await h.request('GET', url, { token });
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('still stores ordinary text, including paired surrogates (emoji)', async () => {
    const res = await h.request('POST', '/api/user/scenarios/', {
      token,
      body: { name: 'Plan 🚀 ü', inputs },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().name).toBe('Plan 🚀 ü');
  });
});
