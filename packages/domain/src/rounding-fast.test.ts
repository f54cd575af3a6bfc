/**
 * The binary fast path of `toMinor`, `fromMinor` and `roundToDigits` must give exactly what the
 * decimal-representation method gives (the method these functions were defined by), for every input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromMinor, toMinor } from './money';
import { roundToDigits } from './rounding';

/** The decimal method, as the functions were first written: the reference. */
function toMinorByText(amount: number, decimals: number): number {
  const text = String(Number(amount.toPrecision(15)));
  const shifted = text.includes('e') ? Number(text) * 10 ** decimals : Number(`${text}e${decimals}`);
  const minor = Math.sign(shifted) * Math.round(Math.abs(shifted));
  return minor === 0 ? 0 : minor;
}
function roundByText(value: number, digits: number): number {
  const text = String(Number(value.toPrecision(15)));
  if (text.includes('e')) return Number(value.toFixed(digits));
  const shifted = Number(`${text}e${digits}`);
  const rounded = Math.sign(shifted) * Math.round(Math.abs(shifted));
  const result = Number(`${rounded}e-${digits}`);
  return result === 0 ? 0 : result;
}

/** Amounts of every size, and many exactly on or next to a half of the last digit. */
const amount = fc.oneof(
  fc.double({ min: -1e7, max: 1e7, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e-3, max: 1e-3, noNaN: true }),
  fc
    .tuple(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: 0, max: 6 }))
    .map(([n, d]) => (n + 0.5) / 10 ** d),
  fc
    .tuple(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: -3, max: 3 }),
    )
    .map(([n, d, ulps]) => {
      let x = (n + 0.5) / 10 ** d;
      for (let k = 0; k < Math.abs(ulps); k++) x = ulps > 0 ? nextUp(x) : nextDown(x);
      return x;
    }),
  fc.constantFrom(1.005, 2.675, 1.115, -1.005, 0.285, 1e-7, -1e-7, 8.345, 1234.5675, 0),
);

function nextUp(x: number): number {
  const b = new Float64Array([x]);
  const u = new BigInt64Array(b.buffer);
  if (x === 0) return Number.MIN_VALUE;
  u[0] = x > 0 ? u[0]! + 1n : u[0]! - 1n;
  return b[0]!;
}
const nextDown = (x: number) => -nextUp(-x);

describe('rounding fast path', () => {
  it('toMinor agrees with the decimal method for every amount and currency precision', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 8 }), (a, d) => {
        const expected = toMinorByText(a, d);
        if (!Number.isSafeInteger(expected)) return;
        expect(Object.is(toMinor(a, d), expected)).toBe(true);
      }),
      { numRuns: 50_000 },
    );
  });

  it('roundToDigits agrees with the decimal method, sign of zero included', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 15 }), (v, d) => {
        expect(Object.is(roundToDigits(v, d), roundByText(v, d))).toBe(true);
      }),
      { numRuns: 50_000 },
    );
  });

  it('fromMinor agrees with parsing the decimal text', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 8 }), (m, d) => {
        expect(Object.is(fromMinor(m, d), Number(`${m}e-${d}`))).toBe(true);
      }),
      { numRuns: 30_000 },
    );
  });

  it('keeps the worked cases of binary noise', () => {
    expect(toMinor(1.005, 2)).toBe(101);
    expect(toMinor(-1.005, 2)).toBe(-101);
    expect(roundToDigits(2.675, 2)).toBe(2.68);
    expect(roundToDigits(1.0000005, 6)).toBe(1.000001);
  });
});
