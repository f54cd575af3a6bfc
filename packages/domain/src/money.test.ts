import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { currencyDecimals, formatMoney, fromMinor, roundMoney, sumMinor, sumMoney, toMinor } from './money';

describe('currencyDecimals', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['jpy', 0],
    ['KWD', 3],
    ['XYZ', 2],
  ])('%s has %i decimals', (currency, decimals) => {
    expect(currencyDecimals(currency)).toBe(decimals);
  });
});

describe('toMinor / fromMinor', () => {
  it.each([
    [12.34, 2, 1234],
    [1.005, 2, 101], // 1.005 * 100 = 100.49999999999999 in binary; decimal rounding gives 101
    [-1.005, 2, -101], // half away from zero
    [0.1 + 0.2, 2, 30], // 0.30000000000000004 → 30 cents
    [1500.4, 0, 1500], // JPY has no minor unit
    [1500.5, 0, 1501],
    [1.2345, 3, 1235], // KWD: 1.2345 → 1.235 (half away from zero)
    [-0, 2, 0],
  ])('toMinor(%d, %i) = %i', (amount, decimals, minor) => {
    expect(toMinor(amount, decimals)).toBe(minor);
  });

  it.each([
    [1234, 2, 12.34],
    [-101, 2, -1.01],
    [1500, 0, 1500],
    [1235, 3, 1.235],
  ])('fromMinor(%i, %i) = %d', (minor, decimals, amount) => {
    expect(fromMinor(minor, decimals)).toBe(amount);
  });

  it('refuses non-finite amounts, bad decimals and unsafe integers', () => {
    expect(() => toMinor(Number.NaN, 2)).toThrow(/finite/);
    expect(() => toMinor(1, -1)).toThrow(/decimals/);
    expect(() => toMinor(1e20, 2)).toThrow(/safe integer/);
    expect(() => fromMinor(1.5, 2)).toThrow(/safe integer/);
  });

  it('round-trips every 2-decimal amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
        expect(toMinor(fromMinor(cents, 2), 2)).toBe(cents);
      }),
    );
  });
});

describe('summing money', () => {
  it('0.10 + 0.20 USD sums to exactly 0.30 (float gives 0.30000000000000004)', () => {
    expect(sumMoney([0.1, 0.2], 2)).toBe(0.3);
  });

  it('ten payments of 0.10 sum to exactly 1.00', () => {
    expect(sumMoney(Array(10).fill(0.1), 2)).toBe(1);
  });

  it('integer sum equals the sum of the parts whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 50 }), (minors) => {
        const forward = sumMinor(minors);
        const backward = sumMinor([...minors].reverse());
        expect(forward).toBe(backward);
        expect(
          sumMoney(
            minors.map((m) => fromMinor(m, 2)),
            2,
          ),
        ).toBe(fromMinor(forward, 2));
      }),
    );
  });

  it('roundMoney and formatMoney keep the currency minor unit', () => {
    expect(roundMoney(99.999, 2)).toBe(100);
    expect(formatMoney(120, 'usd')).toBe('120.00 USD');
    expect(formatMoney(1234.6, 'JPY')).toBe('1235 JPY');
  });
});
