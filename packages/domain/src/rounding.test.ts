import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ceilToStep,
  floorToStep,
  pipsToPrice,
  priceToPips,
  roundToDigits,
  roundToStep,
  stepDecimals,
} from './rounding';

describe('roundToDigits', () => {
  it.each([
    [1.234565, 5, 1.23457], // half away from zero at the 6th decimal
    [1.005, 2, 1.01], // binary 1.00499999… still rounds up
    [-1.005, 2, -1.01],
    [150.1234, 3, 150.123],
    [2345.67, 0, 2346],
    [0.1 + 0.2, 5, 0.3],
  ])('roundToDigits(%d, %i) = %d', (value, digits, expected) => {
    expect(roundToDigits(value, digits)).toBe(expected);
  });

  it('refuses bad digits', () => {
    expect(() => roundToDigits(1, 1.5)).toThrow(/Digits/);
  });
});

describe('stepDecimals', () => {
  it.each([
    [0.01, 2],
    [0.1, 1],
    [1, 0],
    [0.5, 1],
    [0.00001, 5],
    [0.001, 3],
  ])('step %d has %i decimals', (step, d) => {
    expect(stepDecimals(step)).toBe(d);
  });
});

describe('floorToStep', () => {
  it.each([
    [0.1 + 0.2, 0.01, 0.3], // 0.30000000000000004 floors to 0.30, not 0.29
    [0.7 - 0.4, 0.01, 0.3], // 0.29999999999999993 is 0.30 up to float noise
    [0.339, 0.01, 0.33],
    [1.999, 0.01, 1.99],
    [2.57, 0.1, 2.5],
    [7, 1, 7],
    [0.009, 0.01, 0],
    [1.23456, 0.001, 1.234],
  ])('floorToStep(%d, %d) = %d', (value, step, expected) => {
    expect(floorToStep(value, step)).toBe(expected);
  });

  it('never exceeds the value by more than float noise and is within one step below it', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1000, noNaN: true }),
        fc.constantFrom(0.01, 0.1, 1, 0.001, 0.05),
        (value, step) => {
          const f = floorToStep(value, step);
          expect(f).toBeLessThanOrEqual(value + step * 1e-8);
          expect(value - f).toBeLessThan(step * (1 + 1e-8));
          // The result is a whole number of steps.
          expect(Math.abs(f / step - Math.round(f / step))).toBeLessThan(1e-6);
        },
      ),
    );
  });

  it('refuses a non-positive step', () => {
    expect(() => floorToStep(1, 0)).toThrow(/Step must be a positive number/);
  });
});

describe('ceilToStep and roundToStep', () => {
  it.each([
    [0.301, 0.01, 0.31],
    [0.1 + 0.2, 0.01, 0.3],
  ])('ceilToStep(%d, %d) = %d', (value, step, expected) => {
    expect(ceilToStep(value, step)).toBe(expected);
  });

  it.each([
    [1.234567, 0.00001, 1.23457],
    [1.23455, 0.0001, 1.2346],
    [2034.37, 0.25, 2034.25], // index tick of 0.25: 2034.37 is 0.12 above .25, 0.13 below .50
    [2034.38, 0.25, 2034.5],
  ])('roundToStep(%d, %d) = %d', (value, step, expected) => {
    expect(roundToStep(value, step)).toBe(expected);
  });
});

describe('pips and price distance', () => {
  it.each([
    [20, 0.0001, 0.002], // EURUSD: 20 pips = 0.0020
    [35, 0.01, 0.35], // USDJPY: 35 pips = 0.35
    [12.5, 0.0001, 0.00125], // fractional pips survive
    [150, 0.1, 15], // XAUUSD with pip 0.1: 150 pips = 15.00
    [50, 1, 50], // index points
  ])('%d pips at pip size %d = %d in price', (pips, pipSize, price) => {
    expect(pipsToPrice(pips, pipSize)).toBe(price);
  });

  it.each([
    [0.002, 0.0001, 20],
    [1.1 - 1.0985, 0.0001, 15], // 0.0015000000000000568 → 15 pips
    [0.35, 0.01, 35],
    [0.00125, 0.0001, 12.5],
  ])('%d in price at pip size %d = %d pips', (distance, pipSize, pips) => {
    expect(priceToPips(distance, pipSize)).toBe(pips);
  });

  it('pips → price → pips round-trips to 4 decimals of a pip', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100000 }).map((n) => n / 10),
        fc.constantFrom(0.0001, 0.01, 0.1, 1),
        (pips, pipSize) => {
          expect(priceToPips(pipsToPrice(pips, pipSize), pipSize)).toBe(pips);
        },
      ),
    );
  });
});
