import { describe, expect, it } from 'vitest';
import { averageTrueRange, DEFAULT_ATR_PERIOD, type HighLowCloseCandle } from './atr';

const flat = (n: number): HighLowCloseCandle[] =>
  Array.from({ length: n }, () => ({ high: 101, low: 99, close: 100 }));

describe("averageTrueRange (Wilder's)", () => {
  it('default period is 14', () => {
    expect(DEFAULT_ATR_PERIOD).toBe(14);
  });

  it('period 3: TRs 2 (H−L), 2 (11−9), 2.5 (12−9.5) → first ATR 6.5 ÷ 3 = 2.1667', () => {
    const candles = [
      { high: 10, low: 8, close: 9 },
      { high: 11, low: 9, close: 10 },
      { high: 12, low: 9.5, close: 11 },
    ];
    expect(averageTrueRange(candles, 3)).toBeCloseTo(6.5 / 3, 12);
  });

  it('period 3, then TR 1.5 (11.5−10): (2.1667 × 2 + 1.5) ÷ 3 = 1.9444', () => {
    const candles = [
      { high: 10, low: 8, close: 9 },
      { high: 11, low: 9, close: 10 },
      { high: 12, low: 9.5, close: 11 },
      { high: 11.5, low: 10, close: 10.5 },
    ];
    expect(averageTrueRange(candles, 3)).toBeCloseTo((2 * (6.5 / 3) + 1.5) / 3, 12);
  });

  it('gaps count: prev close 100, next bar 104-106 → TR = 106 − 100 = 6; period 2: (2 + 6) ÷ 2 = 4', () => {
    expect(
      averageTrueRange(
        [
          { high: 101, low: 99, close: 100 },
          { high: 106, low: 104, close: 105 },
        ],
        2,
      ),
    ).toBe(4);
  });

  it('gap down: prev close 100, next bar 94-96 → TR = 100 − 94 = 6', () => {
    expect(
      averageTrueRange(
        [
          { high: 101, low: 99, close: 100 },
          { high: 96, low: 94, close: 95 },
        ],
        2,
      ),
    ).toBe(4);
  });

  it('period 14 on 14 bars of range 2 → 2', () => {
    expect(averageTrueRange(flat(14))).toBe(2);
  });

  it('period 14: 14 bars of TR 2, then TR 4 → (2 × 13 + 4) ÷ 14 = 2.142857, then TR 2.5 → (30/14 × 13 + 2.5) ÷ 14 = 2.168367', () => {
    const candles = [...flat(14), { high: 104, low: 100, close: 103 }];
    expect(averageTrueRange(candles)).toBeCloseTo(30 / 14, 12);
    candles.push({ high: 103.5, low: 101, close: 102 });
    expect(averageTrueRange(candles)).toBeCloseTo(212.5 / 98, 12);
  });

  it('null when there are fewer candles than the period (13 < 14), and for none', () => {
    expect(averageTrueRange(flat(13))).toBeNull();
    expect(averageTrueRange([])).toBeNull();
  });

  it('refuses a period that is not a positive integer', () => {
    expect(() => averageTrueRange(flat(20), 0)).toThrow('ATR period must be a positive integer, got 0.');
    expect(() => averageTrueRange(flat(20), 2.5)).toThrow(/positive integer/);
  });

  it('on 100,000 candles it stays finite and within the range of the true ranges', () => {
    const candles: HighLowCloseCandle[] = [];
    let price = 1.1;
    for (let i = 0; i < 100_000; i++) {
      const move = Math.sin(i / 7) * 0.0005;
      const open = price;
      price = price + move;
      candles.push({
        high: Math.max(open, price) + 0.0002,
        low: Math.min(open, price) - 0.0002,
        close: price,
      });
    }
    const atr = averageTrueRange(candles);
    expect(atr).not.toBeNull();
    expect(atr!).toBeGreaterThan(0.0004);
    expect(atr!).toBeLessThan(0.0014);
  });
});
