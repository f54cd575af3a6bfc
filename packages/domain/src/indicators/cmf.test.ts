import { describe, expect, it } from 'vitest';
import { cmf } from './cmf';
import { seriesOf } from '../testing/candle-rows';

describe('cmf', () => {
  // Money-flow volume: bar 0 ((9.5 − 8) − (10 − 9.5)) / 2 × 100 = 50; bar 1 (0 − 2)/2 × 300 = −300;
  // bar 2 has no range → 0. Period 2: (50 − 300)/400 = −0.625, then (−300 + 0)/350.
  const bars = seriesOf([
    [0, 9, 10, 8, 9.5, 100],
    [1, 10, 11, 9, 9, 300],
    [2, 10, 10, 10, 10, 50],
  ]);

  it('period 2 worked by hand', () => {
    const out = cmf(bars, 2);
    expect(out[0]).toBeNaN();
    expect(out[1]).toBeCloseTo(-0.625, 14);
    expect(out[2]).toBeCloseTo(-300 / 350, 14);
  });

  it('a window without volume has no value; default length 20', () => {
    const quiet = seriesOf([
      [0, 1, 2, 0, 1, 0],
      [1, 1, 2, 0, 2, 0],
      [2, 1, 2, 0, 2, 10],
    ]);
    expect(Array.from(cmf(quiet, 2))).toEqual([NaN, NaN, 1]);
    expect(cmf(quiet).every(Number.isNaN)).toBe(true);
  });

  it('recovers from a bad tick of volume 1e15 within 1,024 bars (running sums recomputed)', () => {
    const rows = Array.from(
      { length: 3000 },
      (_, i) => [i, 10, 11 + (i % 3) / 10, 9, 10 + (i % 7) / 10, i === 3 ? 1e15 : 50 + (i % 11)] as const,
    );
    const out = cmf(seriesOf(rows), 20);
    const direct = cmf(seriesOf(rows.slice(1500)), 20);
    for (let i = 1519; i < 3000; i++) expect(out[i]).toBeCloseTo(direct[i - 1500]!, 12);
  });

  it('refuses a bad length', () => {
    expect(() => cmf(bars, -2)).toThrow('CMF length must be a positive integer, got -2.');
  });
});
