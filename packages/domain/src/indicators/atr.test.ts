import { describe, expect, it } from 'vitest';
import { averageTrueRange } from '../atr';
import { atr } from './atr';
import { hlcSeries } from '../testing/candle-rows';

describe('atr over a series', () => {
  it('period 3: TRs 2, 2, 2.5 → 6.5/3, then TR 1.5 → (2 × 6.5/3 + 1.5)/3', () => {
    const out = atr(
      hlcSeries([
        [10, 8, 9],
        [11, 9, 10],
        [12, 9.5, 11],
        [11.5, 10, 10.5],
      ]),
      3,
    );
    expect(Array.from(out.slice(0, 2))).toEqual([NaN, NaN]);
    expect(out[2]).toBeCloseTo(6.5 / 3, 12);
    expect(out[3]).toBeCloseTo((2 * (6.5 / 3) + 1.5) / 3, 12);
  });

  it('agrees with averageTrueRange (the single-value ATR) at every bar of 300', () => {
    let price = 1.2;
    const rows = Array.from({ length: 300 }, (_, i) => {
      price += Math.sin(i * 1.7) * 0.002;
      return [price + 0.001 + (i % 3) * 0.0005, price - 0.001, price + Math.cos(i) * 0.0008] as const;
    });
    const candles = rows.map(([high, low, close]) => ({ high, low, close }));
    for (const period of [1, 5, 14]) {
      const out = atr(hlcSeries(rows), period);
      for (let i = 0; i < rows.length; i++) {
        const single = averageTrueRange(candles.slice(0, i + 1), period);
        if (single === null) expect(out[i]).toBeNaN();
        else expect(Math.abs(out[i]! - single) / single).toBeLessThan(1e-12);
      }
    }
  });

  it('refuses a bad period', () => {
    expect(() => atr(hlcSeries([[1, 1, 1]]), 0)).toThrow('ATR period must be a positive integer, got 0.');
  });
});
