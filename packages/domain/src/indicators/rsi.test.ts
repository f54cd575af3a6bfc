import { describe, expect, it } from 'vitest';
import { rsi, rsiWithSmoothing, stochRsi } from './rsi';

const f = (...xs: number[]) => Float64Array.from(xs);

describe('rsi (Wilder)', () => {
  // Changes +1, +1, −1, +1, +1. Period 3: gain 2/3, loss 1/3 → RS 2 → 66.67;
  // then gain (2/3·2 + 1)/3 = 7/9, loss (1/3·2)/3 = 2/9 → RS 3.5 → 77.78;
  // then gain 23/27, loss 4/27 → RS 5.75 → 85.19.
  const values = f(1, 2, 3, 2, 3, 4);

  it('period 3 worked by hand', () => {
    const out = rsi(values, 3);
    expect(Array.from(out.slice(0, 3))).toEqual([NaN, NaN, NaN]);
    expect(out[3]).toBeCloseTo(100 - 100 / 3, 12);
    expect(out[4]).toBeCloseTo(100 - 100 / 4.5, 12);
    expect(out[5]).toBeCloseTo(100 - 100 / 6.75, 12);
  });

  it('only gains → 100, only losses → 0, no change at all → 100 (TradingView)', () => {
    expect(rsi(f(1, 2, 3, 4), 3)[3]).toBe(100);
    expect(rsi(f(4, 3, 2, 1), 3)[3]).toBe(0);
    expect(rsi(f(5, 5, 5, 5), 3)[3]).toBe(100);
  });

  it('a NaN price restarts the warm-up: period 2 needs two finite changes after it', () => {
    expect(Array.from(rsi(f(1, 2, NaN, 3, 4, 5), 2))).toEqual([NaN, NaN, NaN, NaN, NaN, 100]);
  });

  it('default period is 14: the first value is at index 14', () => {
    const xs = Float64Array.from({ length: 20 }, (_, i) => 100 + Math.sin(i));
    const out = rsi(xs);
    expect(out[13]).toBeNaN();
    expect(out[14]).not.toBeNaN();
  });

  it('smoothing line: SMA(2) of the RSI above, from the second RSI value', () => {
    const { rsi: line, ma } = rsiWithSmoothing(values, { period: 3, maType: 'SMA', maPeriod: 2 });
    expect(Array.from(line)).toEqual(Array.from(rsi(values, 3)));
    expect(ma[3]).toBeNaN();
    expect(ma[4]).toBeCloseTo((100 - 100 / 3 + (100 - 100 / 4.5)) / 2, 12);
  });

  it('refuses bad lengths', () => {
    expect(() => rsi(values, 0)).toThrow('RSI period must be a positive integer, got 0.');
    expect(() => rsiWithSmoothing(values, { maPeriod: -1 })).toThrow(RangeError);
  });
});

describe('stochRsi', () => {
  // RSI(2) of 0, 2, 1, 3, 2, 2, 5 (changes +2, −1, +2, −1, 0, +3):
  //   i=2 gain 1, loss .5 → 66.67; i=3 gain 1.5, loss .25 → 85.71; i=4 gain .75, loss .625 → 54.55;
  //   i=5 gain .375, loss .3125 → 54.55 (same RS 1.2); i=6 gain 1.6875, loss .15625 → 91.53.
  // Stochastic over 2: i=3 100 (at the high), i=4 0 (at the low), i=5 flat window → NaN, i=6 100.
  const values = f(0, 2, 1, 3, 2, 2, 5);

  it('raw stochastic (k = d = 1), a flat window has no value', () => {
    const { k, d } = stochRsi(values, { rsiPeriod: 2, stochPeriod: 2, k: 1, d: 1 });
    expect(Array.from(k)).toEqual([NaN, NaN, NaN, 100, 0, NaN, 100]);
    expect(Array.from(d)).toEqual(Array.from(k));
  });

  it('%K = SMA(2) of it: 50 at i=4, then the flat window restarts its warm-up; %D = SMA(2) of %K', () => {
    const { k, d } = stochRsi(values, { rsiPeriod: 2, stochPeriod: 2, k: 2, d: 2 });
    expect(Array.from(k)).toEqual([NaN, NaN, NaN, NaN, 50, NaN, NaN]);
    expect(Array.from(d).every(Number.isNaN)).toBe(true);
  });

  it('stochastic of a rising-then-falling RSI, %D as the mean of %K', () => {
    const xs = f(10, 11, 13, 12, 14, 13, 12, 15, 16, 14);
    const { k, d } = stochRsi(xs, { rsiPeriod: 2, stochPeriod: 3, k: 2, d: 2 });
    // First %K at rsiPeriod + stochPeriod + k − 2 = 5, first %D one bar later.
    expect(k[4]).toBeNaN();
    expect(k[5]).not.toBeNaN();
    expect(d[5]).toBeNaN();
    expect(d[6]).toBeCloseTo((k[5]! + k[6]!) / 2, 12);
  });

  it('defaults 14/14/3/3: first %K at index 14 + 14 + 3 − 2 = 29, first %D at 31', () => {
    const xs = Float64Array.from({ length: 40 }, (_, i) => 100 + Math.sin(i / 2) + i / 10);
    const { k, d } = stochRsi(xs);
    expect(k[28]).toBeNaN();
    expect(k[29]).not.toBeNaN();
    expect(d[30]).toBeNaN();
    expect(d[31]).not.toBeNaN();
  });
});
