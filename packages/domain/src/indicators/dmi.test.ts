import { describe, expect, it } from 'vitest';
import { dmi } from './dmi';
import { hlcSeries } from '../testing/candle-rows';

// Bars (high, low, close):   +DM  −DM  TR
//   0: 10,  8,  9
//   1: 12,  9, 11              2    0   3  (12 − 9)
//   2: 11,  7,  8              0    2   4  (11 − 7)
//   3: 13,  8, 12              2    0   5  (13 − 8)
//   4: 13, 10, 11              0    0   3  (13 − 10)
const bars = hlcSeries([
  [10, 8, 9],
  [12, 9, 11],
  [11, 7, 8],
  [13, 8, 12],
  [13, 10, 11],
]);

describe('dmi (Wilder smoothing)', () => {
  it('DI length 2, ADX smoothing 2 worked by hand', () => {
    const { plusDi, minusDi, adx } = dmi(bars, { diPeriod: 2, adxSmoothing: 2 });
    // i=2: +DM 1, −DM 1, TR 3.5 → both DI 100/3.5, DX 0.
    // i=3: +DM (1 + 2)/2 = 1.5, −DM 0.5, TR (3.5 + 5)/2 = 4.25 → DX |1.5 − .5| / 2 = .5; ADX mean(0, .5) = 25.
    // i=4: +DM .75, −DM .25, TR 3.625 → DX .5; ADX (25 + 50)/2 = 37.5.
    expect(Array.from(plusDi.slice(0, 2))).toEqual([NaN, NaN]);
    expect(plusDi[2]).toBeCloseTo(100 / 3.5, 12);
    expect(minusDi[2]).toBeCloseTo(100 / 3.5, 12);
    expect(plusDi[3]).toBeCloseTo(150 / 4.25, 12);
    expect(minusDi[3]).toBeCloseTo(50 / 4.25, 12);
    expect(plusDi[4]).toBeCloseTo(75 / 3.625, 12);
    expect(minusDi[4]).toBeCloseTo(25 / 3.625, 12);
    expect(Array.from(adx.slice(0, 3))).toEqual([NaN, NaN, NaN]);
    expect(adx[3]).toBeCloseTo(25, 12);
    expect(adx[4]).toBeCloseTo(37.5, 12);
  });

  it('an up move equal to the down move counts for neither side', () => {
    const { plusDi, minusDi } = dmi(
      hlcSeries([
        [10, 8, 9],
        [11, 7, 9],
      ]),
      { diPeriod: 1, adxSmoothing: 1 },
    );
    expect(plusDi[1]).toBe(0);
    expect(minusDi[1]).toBe(0);
  });

  it('no range at all: DIs stay undefined until a bar moves, a zero DI sum gives ADX 0', () => {
    const flat = hlcSeries([
      [5, 5, 5],
      [5, 5, 5],
      [6, 5, 6],
      [6, 6, 6],
    ]);
    const { plusDi, minusDi, adx } = dmi(flat, { diPeriod: 1, adxSmoothing: 1 });
    expect(plusDi[1]).toBeNaN();
    expect(plusDi[2]).toBe(100);
    expect(minusDi[2]).toBe(0);
    expect(adx[2]).toBe(100);
    // Bar 3: TR 0 → the previous DIs are kept (Pine's fixnan).
    expect(plusDi[3]).toBe(100);
  });

  it('defaults 14/14: first DI at index 14, first ADX at 27', () => {
    const n = 40;
    const s = hlcSeries(
      Array.from({ length: n }, (_, i) => [101 + Math.sin(i), 99 + Math.cos(i), 100] as const),
    );
    const { plusDi, adx } = dmi(s);
    expect(plusDi[13]).toBeNaN();
    expect(plusDi[14]).not.toBeNaN();
    expect(adx[26]).toBeNaN();
    expect(adx[27]).not.toBeNaN();
  });

  it('refuses bad lengths', () => {
    expect(() => dmi(bars, { diPeriod: 0 })).toThrow('DMI DI length must be a positive integer, got 0.');
    expect(() => dmi(bars, { adxSmoothing: 1.5 })).toThrow(RangeError);
  });
});
