import { describe, expect, it } from 'vitest';
import { bucketLabels, bucketOf, proportion, quantileSorted, weekdayOfDay } from './stats';

describe('analysis statistics', () => {
  it('Wilson interval: worked values', () => {
    // 8 of 10: centre (0.8 + 1.9208/10)/(1.38415) = 0.71672, half-width 0.22036 → 49.0 % to 94.3 %
    const p = proportion(8, 10);
    expect(p.pct).toBe(80);
    expect(p.low).toBeCloseTo(49.016, 2);
    expect(p.high).toBeCloseTo(94.331, 2);
    expect(proportion(0, 0).pct).toBeNaN();
    expect(proportion(0, 5).low).toBe(0);
    expect(proportion(5, 5).high).toBe(100);
  });

  it('quantiles interpolate like pandas', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4], 0.9)).toBeCloseTo(3.7, 12);
    expect(quantileSorted([], 0.5)).toBeNaN();
  });

  it('buckets and their labels', () => {
    expect([0, 1, 1.5, 2, 9].map((x) => bucketOf(x, [1, 2]))).toEqual([0, 1, 1, 2, 2]);
    expect(bucketLabels([1, 2], ' ATR', 1)).toEqual(['< 1.0 ATR', '1.0–2.0 ATR', '≥ 2.0 ATR']);
  });

  it('weekdays of UTC day numbers', () => {
    expect(weekdayOfDay(0)).toBe(4); // 1970-01-01, a Thursday
    expect(weekdayOfDay(Date.UTC(2026, 0, 5) / 86_400_000)).toBe(1); // a Monday
  });
});
