import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeOrders, lastClosedBarOpen, liveEntryRequest, nextBarClose, percentile } from './live-orders';

const NAN = Number.NaN;
const entry = (over: Partial<Parameters<typeof liveEntryRequest>[0]> = {}) => ({
  type: 'entry' as const,
  direction: 'BUY' as const,
  kind: 0,
  price: NAN,
  sl: NAN,
  tp: NAN,
  tpR: NAN,
  slDistance: NAN,
  risk: NAN,
  tag: null,
  targets: null,
  ...over,
});
const QUOTE = { bid: 1.1, ask: 1.1002 };

describe('live bars', () => {
  it('names the bar that just closed', () => {
    const H1 = 3_600_000;
    const t = Date.parse('2026-01-07T10:00:00Z');
    expect(lastClosedBarOpen(t, H1)).toBe(Date.parse('2026-01-07T09:00:00Z'));
    expect(lastClosedBarOpen(t + 1, H1)).toBe(Date.parse('2026-01-07T09:00:00Z'));
    expect(lastClosedBarOpen(t - 1, H1)).toBe(Date.parse('2026-01-07T08:00:00Z'));
    expect(nextBarClose(t, H1)).toBe(Date.parse('2026-01-07T11:00:00Z'));
    expect(nextBarClose(t - 1, H1)).toBe(t);
  });
  it('the closed bar ends at or before now and the next close is after it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e12 }),
        fc.constantFrom(60_000, 300_000, 3_600_000, 86_400_000),
        (now, bar) => {
          const open = lastClosedBarOpen(now, bar);
          expect(open + bar).toBeLessThanOrEqual(now);
          expect(open + 2 * bar).toBeGreaterThan(now);
          expect(nextBarClose(now, bar) - now).toBeGreaterThan(0);
          expect(nextBarClose(now, bar) - now).toBeLessThanOrEqual(bar);
        },
      ),
    );
  });
});

describe('live orders', () => {
  it('decodes the packed orders of ctx.buy/sell/close/set_stop/set_target with their tags', () => {
    const packed = [
      [0, 0, 0, 0, 0, 0, 0, 0],
      [1, 0, NAN, NAN, NAN, 2, 0.002, NAN],
      [-1, 1, 1.2, 1.21, 1.18, NAN, NAN, 1],
      [2, 0, 0, 1.09, 0, 0, 0, 0],
      [3, 0, 0, 0, 1.15, 0, 0, 0],
    ].flat();
    expect(decodeOrders(packed, [null, 'breakout', null, null, null])).toEqual([
      { type: 'close' },
      entry({ tpR: 2, slDistance: 0.002, tag: 'breakout' }),
      entry({ direction: 'SELL', kind: 1, price: 1.2, sl: 1.21, tp: 1.18, risk: 1 }),
      { type: 'set_stop', price: 1.09 },
      { type: 'set_target', price: 1.15 },
    ]);
  });

  it('turns an entry into a trade request at the quote', () => {
    expect(liveEntryRequest(entry({ slDistance: 0.002, tpR: 2 }), QUOTE, 0.5)).toEqual({
      ok: true,
      request: {
        direction: 'BUY',
        order_type: 'MARKET',
        stop_loss_distance: 0.002,
        rr_ratio: 2,
        risk_percent: 0.5,
      },
    });
    // A stop price: the distance from the bid for a sell; a target price stays a price; risk as asked.
    const sell = liveEntryRequest(entry({ direction: 'SELL', sl: 1.103, tp: 1.09, risk: 1 }), QUOTE, 0.5);
    expect(sell.ok && sell.request.stop_loss_distance).toBeCloseTo(0.003, 12);
    expect(sell.ok && sell.request).toMatchObject({
      take_profit: 1.09,
      risk_percent: 1,
      order_type: 'MARKET',
    });
    // A limit measures from its own price.
    const limit = liveEntryRequest(entry({ kind: 1, price: 1.095, sl: 1.093 }), QUOTE, 0.5);
    expect(limit.ok && limit.request).toMatchObject({ order_type: 'LIMIT', limit_price: 1.095 });
    expect(limit.ok && limit.request.stop_loss_distance).toBeCloseTo(0.002, 12);
  });

  it('refuses entries it cannot size or place, with the reason', () => {
    expect(liveEntryRequest(entry(), QUOTE, 0.5)).toEqual({
      ok: false,
      reason: 'buy() and sell() need sl or sl_distance: positions are sized by risk',
    });
    expect(liveEntryRequest(entry({ sl: 1.2 }), QUOTE, 0.5)).toEqual({
      ok: false,
      reason: 'the stop loss 1.2 is on the wrong side of the entry price 1.1002',
    });
    expect(liveEntryRequest(entry({ slDistance: 0.002, tp: 1.0 }), QUOTE, 0.5).ok).toBe(false);
    expect(liveEntryRequest(entry({ kind: 2, price: 1.2, slDistance: 0.002 }), QUOTE, 0.5)).toEqual({
      ok: false,
      reason: 'a stop entry (stop=) is sent only once the quote crosses its price',
    });
  });

  it('a triggered stop entry is a market entry, its stop measured from the quote it is sent at', () => {
    const stop = entry({ kind: 2, price: 1.1001, sl: 1.098, tpR: 2 });
    expect(liveEntryRequest(stop, QUOTE, 0.5, { triggered: true })).toEqual({
      ok: true,
      request: {
        direction: 'BUY',
        order_type: 'MARKET',
        stop_loss_distance: expect.closeTo(0.0022, 10),
        risk_percent: 0.5,
        rr_ratio: 2,
      },
    });
    // Slipped past an absolute stop loss: refused as any entry with its stop on the wrong side.
    const sell = entry({ direction: 'SELL', kind: 2, price: 1.1005, sl: 1.0999 });
    expect(liveEntryRequest(sell, QUOTE, 0.5, { triggered: true })).toEqual({
      ok: false,
      reason: 'the stop loss 1.0999 is on the wrong side of the entry price 1.1',
    });
  });
});

describe('live entries with targets', () => {
  it('decodes the targets side list beside the orders (a count per order, then kind, value, share)', () => {
    const packed = [
      [1, 0, NAN, NAN, NAN, NAN, 0.002, NAN],
      [0, 0, 0, 0, 0, 0, 0, 0],
      [-1, 0, NAN, 1.11, NAN, NAN, NAN, NAN],
    ].flat();
    const targets = [2, 0, 1, 0.5, 0, 2, 0.5, 0, 1, 1, 1.09, 0.3];
    expect(decodeOrders(packed, [], targets)).toEqual([
      entry({
        slDistance: 0.002,
        targets: [
          { kind: 'r', value: 1, share: 0.5 },
          { kind: 'r', value: 2, share: 0.5 },
        ],
      }),
      { type: 'close' },
      entry({ direction: 'SELL', sl: 1.11, targets: [{ kind: 'price', value: 1.09, share: 0.3 }] }),
    ]);
    expect(() => decodeOrders(packed, [], [5, 0, 1])).toThrow(
      'The strategy returned targets the engine cannot read.',
    );
  });

  it("becomes a person's multi-TP request: RR and PRICE targets ranked 1.., a rest kept open", () => {
    const both = liveEntryRequest(
      entry({
        slDistance: 0.002,
        targets: [
          { kind: 'r', value: 1, share: 0.5 },
          { kind: 'r', value: 2, share: 0.5 },
        ],
      }),
      QUOTE,
      0.5,
    );
    expect(both).toEqual({
      ok: true,
      request: {
        direction: 'BUY',
        order_type: 'MARKET',
        stop_loss_distance: 0.002,
        risk_percent: 0.5,
        partial_profit: true,
        targets: [
          { rank: 1, share: 0.5, tp_type: 'RR', rr: 1 },
          { rank: 2, share: 0.5, tp_type: 'RR', rr: 2 },
        ],
      },
    });
    // A sell with a price target on 40 % of it: the other 60 % stays open without a target.
    const rest = liveEntryRequest(
      entry({ direction: 'SELL', sl: 1.103, targets: [{ kind: 'price', value: 1.095, share: 0.4 }] }),
      QUOTE,
      0.5,
    );
    expect(rest.ok && rest.request).toMatchObject({
      partial_profit: true,
      targets: [{ rank: 1, share: 0.4, tp_type: 'PRICE', price: 1.095 }],
      keep_rest_open: true,
    });
  });

  it('refuses what the backtest engine refuses: with tp_r, out of order, on the wrong side', () => {
    const two = [
      { kind: 'r' as const, value: 2, share: 0.5 },
      { kind: 'r' as const, value: 1, share: 0.5 },
    ];
    expect(liveEntryRequest(entry({ slDistance: 0.002, tpR: 2, targets: two }), QUOTE, 0.5)).toEqual({
      ok: false,
      reason: 'buy() and sell() take targets or tp / tp_r, not both',
    });
    const outOfOrder = liveEntryRequest(entry({ slDistance: 0.002, targets: two }), QUOTE, 0.5);
    expect(!outOfOrder.ok && outOfOrder.reason).toMatch(
      /^the targets cannot be used: target 2 at 1\.1022\d* is not beyond target 1 at 1\.1042\d*: give targets nearest first$/,
    );
    const wrongSide = liveEntryRequest(
      entry({ slDistance: 0.002, targets: [{ kind: 'price', value: 1.1, share: 1 }] }),
      QUOTE,
      0.5,
    );
    expect(!wrongSide.ok && wrongSide.reason).toBe(
      'the targets cannot be used: target 1 at 1.1 is on the wrong side of the entry price 1.1002',
    );
  });
});

describe('percentile', () => {
  it('nearest rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 99)).toBe(5);
    expect(percentile([7], 1)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        99,
      ),
    ).toBe(99);
  });
});
