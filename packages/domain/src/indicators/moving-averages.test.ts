import { describe, expect, it } from 'vitest';
import { ema, movingAverage, rma, sma, wma, type MaType } from './moving-averages';

const f = (...xs: number[]) => Float64Array.from(xs);
const list = (xs: Float64Array) => Array.from(xs);

describe('sma', () => {
  it('period 3 over 1…5: NaN, NaN, 2, 3, 4', () => {
    expect(list(sma(f(1, 2, 3, 4, 5), 3))).toEqual([NaN, NaN, 2, 3, 4]);
  });

  it('a NaN input restarts the warm-up (leading NaNs of another indicator are skipped)', () => {
    expect(list(sma(f(1, 2, NaN, 4, 5, 6), 2))).toEqual([NaN, 1.5, NaN, NaN, 4.5, 5.5]);
    expect(list(sma(f(NaN, NaN, 2, 4), 2))).toEqual([NaN, NaN, NaN, 3]);
  });

  it('fewer values than the period: all NaN, same length; empty in, empty out', () => {
    expect(list(sma(f(1, 2), 3))).toEqual([NaN, NaN]);
    expect(sma(f(), 3).length).toBe(0);
  });

  it('refuses a period that is not a positive integer', () => {
    expect(() => sma(f(1), 0)).toThrow(RangeError);
    expect(() => sma(f(1), 2.5)).toThrow('SMA period must be a positive integer, got 2.5.');
  });
});

describe('ema (SMA seed, α = 2 / (period + 1))', () => {
  it('period 3 over 2, 4, 6, 8, 3: seed 4, then 4 + ½(8 − 4) = 6, then 6 + ½(3 − 6) = 4.5', () => {
    expect(list(ema(f(2, 4, 6, 8, 3), 3))).toEqual([NaN, NaN, 4, 6, 4.5]);
  });

  it('period 1 is the input itself', () => {
    expect(list(ema(f(3, 1, 4), 1))).toEqual([3, 1, 4]);
  });

  it('rma uses α = 1 / period: period 2 over 2, 4, 8 → seed 3, then 3 + ½(8 − 3) = 5.5', () => {
    expect(list(rma(f(2, 4, 8), 2))).toEqual([NaN, 3, 5.5]);
    expect(list(rma(f(1, 1, 1, 4), 3))).toEqual([NaN, NaN, 1, 2]);
  });
});

describe('wma (weights 1…period, newest heaviest)', () => {
  it('period 3 over 1…5: 14/6, 20/6, 26/6', () => {
    const out = wma(f(1, 2, 3, 4, 5), 3);
    expect(out[1]).toBeNaN();
    expect(out[2]).toBeCloseTo(14 / 6, 14);
    expect(out[3]).toBeCloseTo(20 / 6, 14);
    expect(out[4]).toBeCloseTo(26 / 6, 14);
  });

  it('period 2 over 10, 0, 0, 4: (10 + 0)/3, 0, (0 + 8)/3', () => {
    const out = wma(f(10, 0, 0, 4), 2);
    expect(out[1]).toBeCloseTo(10 / 3, 14);
    expect(out[2]).toBe(0);
    expect(out[3]).toBeCloseTo(8 / 3, 14);
  });
});

describe('running sums do not drift over long inputs', () => {
  // Large level, small moves: the case where a running sum loses digits.
  const n = 5000;
  const values = new Float64Array(n);
  let seed = 7;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    values[i] = 1_000_000 + seed / 2147483648;
  }

  it.each([
    ['SMA', 7],
    ['WMA', 7],
    ['SMA', 200],
    ['WMA', 200],
  ] as const)('%s(%i) equals the window computed directly at every bar', (type, period) => {
    const out = movingAverage(values, type, period);
    const weight = (k: number) => (type === 'SMA' ? 1 : k + 1);
    const total = type === 'SMA' ? period : (period * (period + 1)) / 2;
    for (let i = period - 1; i < n; i++) {
      let sum = 0;
      for (let k = 0; k < period; k++) sum += weight(k) * values[i - period + 1 + k]!;
      expect(Math.abs(out[i]! - sum / total) / (sum / total)).toBeLessThan(1e-13);
    }
  });

  it.each(['SMA', 'WMA'] as const)('%s recovers from a bad tick of 1e15 within 1,024 bars', (type) => {
    const xs = Float64Array.from({ length: 3000 }, (_, i) => (i === 3 ? 1e15 : 1 + (i % 10) / 10));
    const out = movingAverage(xs, type, 5);
    const direct = movingAverage(xs.slice(1500), type, 5);
    for (let i = 1504; i < 3000; i++) expect(out[i]).toBeCloseTo(direct[i - 1500]!, 12);
  });

  it('movingAverage names SMA, EMA and WMA and refuses anything else', () => {
    const xs = f(1, 2, 3, 4);
    expect(list(movingAverage(xs, 'EMA', 2))).toEqual(list(ema(xs, 2)));
    expect(() => movingAverage(xs, 'HMA' as MaType, 2)).toThrow('Unknown moving average type "HMA".');
  });
});
