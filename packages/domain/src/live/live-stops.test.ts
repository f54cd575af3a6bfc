import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { LiveEntryOrder } from './live-orders';
import {
  armStop,
  cancelStops,
  decodeArmedStops,
  describeStop,
  encodeArmedStops,
  MAX_ARMED_STOPS,
  stopTriggered,
  type ArmedStop,
} from './live-stops';

const NAN = Number.NaN;
const order = (over: Partial<LiveEntryOrder> = {}): LiveEntryOrder => ({
  type: 'entry',
  direction: 'BUY',
  kind: 2,
  price: 1.105,
  sl: NAN,
  tp: NAN,
  tpR: NAN,
  slDistance: 0.002,
  risk: NAN,
  tag: null,
  targets: null,
  ...over,
});
const armed = (over: Partial<ArmedStop> = {}, o: Partial<LiveEntryOrder> = {}): ArmedStop => ({
  symbol: 'EURUSD',
  barOpenMs: 1_000,
  index: 0,
  order: order(o),
  ...over,
});

describe('stop entry triggers', () => {
  it('a buy stop triggers on the ask reaching its price, a sell stop on the bid', () => {
    expect(stopTriggered({ direction: 'BUY', price: 1.105 }, { bid: 1.1049, ask: 1.10495 })).toBe(false);
    expect(stopTriggered({ direction: 'BUY', price: 1.105 }, { bid: 1.1049, ask: 1.105 })).toBe(true);
    expect(stopTriggered({ direction: 'SELL', price: 1.105 }, { bid: 1.10501, ask: 1.1052 })).toBe(false);
    expect(stopTriggered({ direction: 'SELL', price: 1.105 }, { bid: 1.105, ask: 1.1052 })).toBe(true);
  });
  it('on the side the entry fills: a buy looks at the ask only, a sell at the bid only', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 0.01, noNaN: true }),
        (price, bid, spread) => {
          const quote = { bid, ask: bid + spread };
          expect(stopTriggered({ direction: 'BUY', price }, quote)).toBe(quote.ask >= price);
          expect(stopTriggered({ direction: 'SELL', price }, quote)).toBe(bid <= price);
        },
      ),
    );
  });
});

describe('arming and cancelling', () => {
  it('keeps several stops, as the backtest keeps several pending entries; a replayed bar adds none', () => {
    const a = armStop([], armed());
    expect(a).toMatchObject({ ok: true, added: true });
    const b = armStop(a.ok ? a.armed : [], armed({ barOpenMs: 61_000 }));
    expect(b.ok && b.armed.map((s) => s.barOpenMs)).toEqual([1_000, 61_000]);
    const again = armStop(b.ok ? b.armed : [], armed({ barOpenMs: 61_000 }));
    expect(again).toMatchObject({ ok: true, added: false });
    expect(again.ok && again.armed).toHaveLength(2);
  });
  it('refuses what a fill at the stop price would refuse, and more than the limit', () => {
    expect(armStop([], armed({}, { price: NAN }))).toEqual({
      ok: false,
      reason: 'a stop entry needs a positive price',
    });
    expect(armStop([], armed({}, { slDistance: NAN }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('need sl or sl_distance'),
    });
    expect(armStop([], armed({}, { sl: 1.106, slDistance: NAN }))).toEqual({
      ok: false,
      reason: 'the stop loss 1.106 is on the wrong side of the entry price 1.105',
    });
    expect(armStop([], armed({}, { direction: 'SELL', tp: 1.11 }))).toMatchObject({ ok: false });
    const full = Array.from({ length: MAX_ARMED_STOPS }, (_, k) => armed({ barOpenMs: k * 60_000 }));
    expect(armStop(full, armed({ barOpenMs: -60_000 }))).toEqual({
      ok: false,
      reason: `the run already holds ${MAX_ARMED_STOPS} armed stop entries`,
    });
  });
  it('ctx.close() cancels the stops of its symbol only', () => {
    const list = [armed(), armed({ symbol: 'GBPUSD' }), armed({ index: 1 }, { direction: 'SELL' })];
    const { kept, cancelled } = cancelStops(list, 'EURUSD');
    expect(kept.map((s) => s.symbol)).toEqual(['GBPUSD']);
    expect(cancelled.map(describeStop)).toEqual(['BUY EURUSD at 1.105', 'SELL EURUSD at 1.105']);
  });
});

describe('stored armed stops', () => {
  it('read back as they were armed, unset numbers as NaN', () => {
    const list = [
      armed(),
      armed(
        { symbol: 'BTCUSD', barOpenMs: 120_000, index: 2 },
        {
          direction: 'SELL',
          price: 42_000,
          sl: 42_500,
          slDistance: NAN,
          risk: 1,
          tag: 'breakdown',
          targets: [{ kind: 'r', value: 1, share: 0.5 }],
        },
      ),
    ];
    expect(decodeArmedStops(encodeArmedStops(list))).toEqual(list);
    expect(decodeArmedStops('{}')).toEqual([]);
    expect(decodeArmedStops('not json')).toEqual([]);
    expect(decodeArmedStops(null)).toEqual([]);
  });
});
