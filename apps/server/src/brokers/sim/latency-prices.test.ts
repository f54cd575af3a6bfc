import { describe, expect, it } from 'vitest';
import { createSimMarket } from './market';
import { simLatencyBids } from './latency-prices';

const market = createSimMarket({ seed: 7 });
/** Friday 2026-01-09 18:00 UTC to Monday 14:00: FX closes at 22:00 Friday and reopens Sunday 22:00. */
const FROM = Date.UTC(2026, 0, 9, 18);
const TO = Date.UTC(2026, 0, 12, 14);
const M1 = 60_000;
const H1 = 3_600_000;
const bars = (symbol: string, tf: 'M1' | 'H1') => {
  const c = market.candles(symbol, tf, FROM, TO, TO);
  return { c, time: Float64Array.from(c, (x) => x.time) };
};

describe('SIM prices slippage_ms after each bar opens', () => {
  it('with no latency, gives back every candle open, across the weekend and mid-bar market opens', () => {
    for (const [symbol, tf, ms] of [
      ['EURUSD', 'M1', M1],
      ['EURJPY', 'M1', M1],
      ['US100', 'H1', H1],
    ] as const) {
      const { c, time } = bars(symbol, tf);
      expect(c.length).toBeGreaterThan(10);
      expect([...simLatencyBids(market, symbol, time, ms, 0)]).toEqual(c.map((x) => x.open));
    }
  });

  it('reads the exact bid 750 ms after the open, from the first open instant of the bar', () => {
    const { time } = bars('US100', 'H1');
    const got = simLatencyBids(market, 'US100', time, H1, 750);
    time.forEach((t, i) => {
      const opens = market.isOpen('US100', t) ? t : market.session('US100', t).nextOpen!;
      expect(got[i], new Date(t).toISOString()).toBe(market.quoteAt('US100', opens + 750).bid);
    });
    // The Sunday-night reopening bar of EURUSD starts at its bucket (22:00), already open.
    const fx = bars('EURUSD', 'M1');
    const sunday = fx.time.indexOf(Date.UTC(2026, 0, 11, 22));
    expect(sunday).toBeGreaterThan(0);
    expect(simLatencyBids(market, 'EURUSD', fx.time, M1, 750)[sunday]).toBe(
      market.quoteAt('EURUSD', Date.UTC(2026, 0, 11, 22) + 750).bid,
    );
  });

  it('caps a latency longer than the bar at its last instant, as the interpolation caps it at the close', () => {
    const { c, time } = bars('EURUSD', 'M1');
    const got = simLatencyBids(market, 'EURUSD', time, M1, 5 * M1);
    // The last price in force in the bar is its close.
    expect([...got]).toEqual(c.map((x) => x.close));
  });

  it('prices many instants at once exactly as one quote at a time, open or closed', () => {
    const times = Float64Array.from({ length: 500 }, (_, i) => FROM + i * 517_331);
    const bids = market.bidsAt!('GBPUSD', times);
    // A market without the batch call (a test's stand-in) gives the same through quoteAt.
    const { bidsAt: _, ...oneByOne } = market;
    expect(simLatencyBids(oneByOne, 'GBPUSD', times, 3_600_000, 0)).toEqual(
      simLatencyBids(market, 'GBPUSD', times, 3_600_000, 0),
    );
    times.forEach((t, i) => expect(bids[i]).toBe(market.quoteAt('GBPUSD', t).bid));
  });
});
