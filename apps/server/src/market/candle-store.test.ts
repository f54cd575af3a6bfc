import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resample, seriesColumns, seriesFromBars, seriesRange } from '@tradedesk/domain';
import { createSimMarket } from '../brokers/sim/market';
import type { SimMarket } from '../brokers/sim/market-types';
import type { Timeframe } from '../brokers/types';
import { createHarness, describeEachDb, type Harness } from '../test/harness';
import { demoAccountRow } from '../test/accounts';
import { HOUR, MINUTE, WEDNESDAY } from '../test/sim-clock';
import { candleStore } from './candle-store';

const DAY = 24 * HOUR;

/** The simulator, counting the candle requests that reach it (the store should ask once per gap). */
function countingCandles(inner: SimMarket) {
  const calls: { symbol: string; tf: Timeframe; from: number; to: number }[] = [];
  const market = new Proxy(inner, {
    get(target, key, receiver) {
      if (key === 'candles') {
        return (symbol: string, tf: Timeframe, from: number, to: number, now: number) => {
          calls.push({ symbol, tf, from, to });
          return target.candles(symbol, tf, from, to, now);
        };
      }
      const v: unknown = Reflect.get(target, key, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { market, calls };
}

const cols = seriesColumns;

describeEachDb('candle store: the simulator as a source', (target) => {
  let h: Harness;
  let clock = WEDNESDAY;
  let calls: ReturnType<typeof countingCandles>['calls'];
  let market: SimMarket;
  let uncounted: SimMarket;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  let aliceAccount: string;
  /** The simulator's own candles, the ground truth of every read. */
  const direct = (symbol: string, tf: Timeframe, from: number, to: number) =>
    seriesFromBars(uncounted.candles(symbol, tf, from, to, clock));

  beforeAll(async () => {
    uncounted = createSimMarket({ seed: 11, now: () => clock });
    const counting = countingCandles(uncounted);
    calls = counting.calls;
    market = counting.market;
    h = await createHarness(target, { simNow: () => clock, simMarket: market });
    alice = await h.user('alice');
    bob = await h.user('bob');
    aliceAccount = (await demoAccountRow(h, alice.id)).id;
  });
  afterAll(() => h.close());

  it('reads M1 across a month boundary from two chunks, equal to the simulator, and asks it only once', async () => {
    const from = Date.UTC(2025, 11, 31, 22);
    const to = Date.UTC(2026, 0, 1, 2);
    calls.length = 0;
    const first = await candleStore(h.ctx).series({
      userId: alice.id,
      symbol: 'EURUSD',
      timeframe: 'M1',
      fromMs: from,
      toMs: to,
    });
    expect(first.time.length).toBe(240);
    expect(cols(first)).toEqual(cols(direct('EURUSD', 'M1', from, to)));
    const rows = await h.ctx.db
      .selectFrom('candle_chunks')
      .select(['source', 'month', 'bar_count', 'user_id', 'covered_from', 'covered_to'])
      .where('symbol', '=', 'EURUSD')
      .where('timeframe', '=', 'M1')
      .orderBy('month')
      .execute();
    expect(rows).toEqual([
      {
        source: 'sim:11',
        month: '2025-12',
        bar_count: 120,
        user_id: null,
        covered_from: from,
        covered_to: Date.UTC(2026, 0, 1),
      },
      {
        source: 'sim:11',
        month: '2026-01',
        bar_count: 120,
        user_id: null,
        covered_from: Date.UTC(2026, 0, 1),
        covered_to: to,
      },
    ]);
    const asked = calls.length;
    expect(asked).toBeGreaterThan(0);
    // A second read, by another user through their simulated account, comes from the store alone.
    const again = await candleStore(h.ctx).series({
      userId: bob.id,
      accountId: (await demoAccountRow(h, bob.id)).id,
      symbol: 'EURUSD',
      timeframe: 'M1',
      fromMs: from + HOUR,
      toMs: to - HOUR,
    });
    expect(calls.length).toBe(asked);
    expect(cols(again)).toEqual(cols(direct('EURUSD', 'M1', from + HOUR, to - HOUR)));
  });

  it('extends a stored month on both sides, fetching only what it lacks', async () => {
    const from = Date.UTC(2025, 10, 12, 10);
    await candleStore(h.ctx).series({
      userId: alice.id,
      symbol: 'GBPUSD',
      timeframe: 'M5',
      fromMs: from,
      toMs: from + 2 * HOUR,
    });
    calls.length = 0;
    const wider = await candleStore(h.ctx).series({
      userId: alice.id,
      symbol: 'GBPUSD',
      timeframe: 'M5',
      fromMs: from - HOUR,
      toMs: from + 3 * HOUR,
    });
    expect(cols(wider)).toEqual(cols(direct('GBPUSD', 'M5', from - HOUR, from + 3 * HOUR)));
    // Before: [from - 1h, from); after: from the last stored bar (it may have been forming) onwards.
    expect(calls.map((c) => [c.from, c.to])).toEqual([
      [from - HOUR, from],
      [from + 2 * HOUR - 5 * MINUTE, from + 3 * HOUR],
    ]);
  });

  it('updates the bar that was forming when it was stored, once the clock has moved on', async () => {
    clock = WEDNESDAY + 30_000;
    const from = WEDNESDAY - HOUR;
    const early = await candleStore(h.ctx).series({
      userId: alice.id,
      symbol: 'XAUUSD',
      timeframe: 'M1',
      fromMs: from,
      toMs: clock + HOUR,
    });
    expect(early.time.at(-1)).toBe(WEDNESDAY);
    expect(early.close.at(-1)).toBe(market.quoteAt('XAUUSD', clock).bid);
    clock = WEDNESDAY + 5 * MINUTE + 10_000;
    const later = await candleStore(h.ctx).series({
      userId: alice.id,
      symbol: 'XAUUSD',
      timeframe: 'M1',
      fromMs: from,
      toMs: clock + HOUR,
    });
    expect(later.time.length).toBe(66);
    expect(cols(later)).toEqual(cols(direct('XAUUSD', 'M1', from, clock + HOUR)));
    // A read that ends inside the bar that was forming gets that bar as it is now, not as stored.
    const forming = WEDNESDAY + HOUR;
    clock = forming + 2 * MINUTE;
    const then = await candleStore(h.ctx).series({
      userId: alice.id,
      symbol: 'USDJPY',
      timeframe: 'M5',
      fromMs: from,
      toMs: clock + HOUR,
    });
    expect(then.time.at(-1)).toBe(forming);
    clock += 20 * MINUTE;
    const past = await candleStore(h.ctx).series({
      userId: alice.id,
      symbol: 'USDJPY',
      timeframe: 'M5',
      fromMs: from,
      toMs: forming + MINUTE,
    });
    expect(past.time.at(-1)).toBe(forming);
    expect(cols(past)).toEqual(cols(direct('USDJPY', 'M5', from, forming + MINUTE)));
    expect(past.close.at(-1)).not.toBe(then.close.at(-1));
    clock = WEDNESDAY;
  });

  it('fetches once for concurrent reads of the same months', async () => {
    calls.length = 0;
    const read = () =>
      candleStore(h.ctx).series({
        userId: alice.id,
        symbol: 'AUDUSD',
        timeframe: 'M15',
        fromMs: Date.UTC(2025, 6, 20),
        toMs: Date.UTC(2025, 7, 10),
      });
    const [a, b, c] = await Promise.all([read(), read(), read()]);
    expect(cols(b)).toEqual(cols(a));
    expect(cols(c)).toEqual(cols(a));
    // One call for each month's part (July 20-31, August 1-9), each within one window.
    expect(calls.map((x) => [new Date(x.from).toISOString(), new Date(x.to).toISOString()])).toEqual([
      ['2025-07-20T00:00:00.000Z', '2025-08-01T00:00:00.000Z'],
      ['2025-08-01T00:00:00.000Z', '2025-08-10T00:00:00.000Z'],
    ]);
  });

  it('builds 3m, 2h, weeks (Sunday 22:00 UTC) and months from stored M1, H1 and D1', async () => {
    const store = candleStore(h.ctx);
    const from = Date.UTC(2025, 9, 1);
    const to = Date.UTC(2025, 11, 1);
    const weeks = await store.series({
      userId: alice.id,
      symbol: 'EURUSD',
      timeframe: 'W1',
      fromMs: from,
      toMs: to,
    });
    const hours = direct('EURUSD', 'H1', Date.UTC(2025, 8, 28, 22), Date.UTC(2025, 11, 7, 22));
    expect(cols(weeks)).toEqual(cols(seriesRange(resample(hours, 'H1', 'W1'), from, to)));
    for (const t of weeks.time) expect(new Date(t).toISOString()).toMatch(/T22:00:00\.000Z$/);
    expect(new Date(weeks.time[0]!).getUTCDay()).toBe(0);
    const months = await store.series({
      userId: alice.id,
      symbol: 'EURUSD',
      timeframe: 'MN1',
      fromMs: from,
      toMs: to,
    });
    expect(Array.from(months.time)).toEqual([Date.UTC(2025, 9, 1), Date.UTC(2025, 10, 1)]);
    expect(cols(months)).toEqual(cols(resample(direct('EURUSD', 'D1', from, to), 'D1', 'MN1')));
    const twoHours = await store.series({
      userId: alice.id,
      symbol: 'US100',
      timeframe: 'H2',
      fromMs: WEDNESDAY - DAY,
      toMs: WEDNESDAY,
    });
    expect(cols(twoHours)).toEqual(
      cols(resample(direct('US100', 'H1', WEDNESDAY - DAY, WEDNESDAY), 'H1', 'H2')),
    );
    const threeMinutes = await store.series({
      userId: alice.id,
      symbol: 'US100',
      timeframe: 'M3',
      fromMs: WEDNESDAY - HOUR,
      toMs: WEDNESDAY,
    });
    expect(threeMinutes.time.length).toBe(20);
    expect(cols(threeMinutes)).toEqual(
      cols(resample(direct('US100', 'M1', WEDNESDAY - HOUR, WEDNESDAY), 'M1', 'M3')),
    );
  });

  it('serves the read API: columnar JSON of the account, 404 for another user’s account, 400 for bad requests', async () => {
    const from = new Date(WEDNESDAY - 2 * HOUR).toISOString();
    const to = new Date(WEDNESDAY).toISOString();
    const url = (q: string) => `/api/market/candles/?${q}`;
    const ok = await h.request(
      'GET',
      url(`account=${aliceAccount}&symbol=EURUSD&timeframe=1h&from=${from}&to=${to}`),
      { token: alice.token },
    );
    expect(ok.statusCode).toBe(200);
    const expected = direct('EURUSD', 'H1', WEDNESDAY - 2 * HOUR, WEDNESDAY);
    expect(ok.json()).toEqual({ symbol: 'EURUSD', timeframe: 'H1', ...cols(expected) });
    const other = await h.request(
      'GET',
      url(`account=${aliceAccount}&symbol=EURUSD&timeframe=H1&from=${from}&to=${to}`),
      { token: bob.token },
    );
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Account not found.' });
    const unknown = await h.request(
      'GET',
      url(`account=${aliceAccount}&symbol=NOPE&timeframe=H1&from=${from}&to=${to}`),
      { token: alice.token },
    );
    expect(unknown.statusCode).toBe(404);
    for (const q of [
      `account=${aliceAccount}&symbol=EURUSD&timeframe=H7&from=${from}&to=${to}`,
      `account=${aliceAccount}&symbol=EURUSD&timeframe=H1&from=yesterday&to=${to}`,
      `account=${aliceAccount}&source=csv&symbol=EURUSD&timeframe=H1&from=${from}&to=${to}`,
      `symbol=EURUSD&timeframe=H1&from=${from}&to=${to}`,
      `account=${aliceAccount}&symbol=EURUSD&timeframe=H1&from=${to}&to=${from}`,
      `account=${aliceAccount}&symbol=EURUSD&timeframe=M1&from=2020-01-01T00:00:00Z&to=${to}`,
    ]) {
      const res = await h.request('GET', url(q), { token: alice.token });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().detail, q).toBeTruthy();
    }
    expect(
      (await h.request('GET', url(`source=csv&symbol=EURUSD&timeframe=H1&from=${from}&to=${to}`))).statusCode,
    ).toBe(401);
  });
});

describe('candle store limits', () => {
  it('refuses a read of more than a million bars before touching the source', async () => {
    const h = await createHarness({ name: 'sqlite' }, { simNow: () => WEDNESDAY });
    try {
      const u = await h.user('carol');
      await expect(
        candleStore(h.ctx).series({
          userId: u.id,
          symbol: 'EURUSD',
          timeframe: 'M1',
          fromMs: WEDNESDAY - 3 * 365 * DAY,
          toMs: WEDNESDAY,
        }),
      ).rejects.toMatchObject({ statusCode: 400 });
    } finally {
      await h.close();
    }
  });
});
