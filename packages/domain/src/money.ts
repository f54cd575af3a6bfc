/**
 * Money in integer minor units (DESIGN.md §5.3): amounts are converted to integers (cents, yen, …)
 * at the edges, summed as integers, and converted back only for display or for the wire.
 * Integers are plain `number`s, exact up to Number.MAX_SAFE_INTEGER (about 9 × 10^15 minor units);
 * every helper refuses a result beyond that rather than silently losing precision.
 */

import { POW10, roundShifted } from './rounding';

/** ISO 4217 currencies whose minor unit is not 2 decimals. Everything else has 2. */
const MINOR_UNIT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
};

/** Number of decimals of a currency's minor unit (JPY 0, USD 2, KWD 3); unknown codes get 2. */
export function currencyDecimals(currency: string): number {
  return MINOR_UNIT_EXCEPTIONS[currency.trim().toUpperCase()] ?? 2;
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 8) {
    throw new RangeError(`Currency decimals must be an integer from 0 to 8, got ${decimals}.`);
  }
}

function assertSafe(minor: number, what: string): number {
  if (!Number.isSafeInteger(minor)) {
    throw new RangeError(`${what} is not a safe integer number of minor units: ${minor}.`);
  }
  return minor;
}

/**
 * Decimal amount → integer minor units, rounding half away from zero.
 * Robust to binary float noise: `toMinor(1.005, 2)` is 101 (1.005 * 100 is 100.49999… in floating point).
 */
export function toMinor(amount: number, decimals: number): number {
  assertDecimals(decimals);
  if (!Number.isFinite(amount)) throw new RangeError(`Amount must be a finite number, got ${amount}.`);
  const fast = roundShifted(amount, decimals);
  if (fast !== undefined) return assertSafe(fast, 'Amount');
  // Shift the decimal point in the decimal representation instead of multiplying in binary.
  // 15 significant digits is what a double represents faithfully.
  const text = String(Number(amount.toPrecision(15)));
  const shifted = text.includes('e') ? Number(text) * 10 ** decimals : Number(`${text}e${decimals}`);
  const minor = Math.sign(shifted) * Math.round(Math.abs(shifted));
  return assertSafe(minor === 0 ? 0 : minor, 'Amount');
}

/** Integer minor units → decimal amount (exact to the currency's decimals). */
export function fromMinor(minor: number, decimals: number): number {
  assertDecimals(decimals);
  assertSafe(minor, 'Minor amount');
  // Both this and parsing `${minor}e-${decimals}` give the double nearest to the exact quotient.
  return minor / POW10[decimals]!;
}

/** Exact sum of integer minor amounts. */
export function sumMinor(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) {
    assertSafe(v, 'Minor amount');
    total = assertSafe(total + v, 'Sum');
  }
  return total;
}

/** Sum decimal money amounts through minor units, so that 0.1 + 0.2 is 0.3, not 0.30000000000000004. */
export function sumMoney(amounts: Iterable<number>, decimals: number): number {
  const minors: number[] = [];
  for (const a of amounts) minors.push(toMinor(a, decimals));
  return fromMinor(sumMinor(minors), decimals);
}

/** Round a money amount to its currency's minor unit (half away from zero). */
export function roundMoney(amount: number, decimals: number): number {
  return fromMinor(toMinor(amount, decimals), decimals);
}

/** "120.00 USD": an amount with exactly its currency's decimals, for messages. */
export function formatMoney(amount: number, currency: string): string {
  const decimals = currencyDecimals(currency);
  return `${roundMoney(amount, decimals).toFixed(decimals)} ${currency.toUpperCase()}`;
}
