/**
 * Symbol-level rounding: prices to the symbol's digits, volumes to its volume step, pips to price.
 * Every helper is robust to binary float noise (0.1 + 0.2 = 0.30000000000000004).
 */

/**
 * Relative slack when counting whole steps: a quotient within this fraction of a step of the next
 * integer is float noise (29.999999999999996 steps means 30), not a real shortfall.
 * 1e-9 of one step is far below any broker's volume precision, so it never buys a real extra step.
 */
const STEP_EPSILON = 1e-9;

/** Decimals needed to write a step exactly: 0.01 → 2, 0.5 → 1, 1 → 0, 1e-7 → 7. */
export function stepDecimals(step: number): number {
  assertPositive(step, 'Step');
  for (let d = 0; d <= 12; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 12;
}

function assertPositive(value: number, what: string): void {
  if (!Number.isFinite(value) || value <= 0)
    throw new RangeError(`${what} must be a positive number, got ${value}.`);
}

function assertFinite(value: number, what: string): void {
  if (!Number.isFinite(value)) throw new RangeError(`${what} must be a finite number, got ${value}.`);
}

/** Exact powers of ten (every one up to 10^15 is a double exactly). */
export const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
] as const;

/**
 * `value` × 10^digits rounded half away from zero, computed in binary when that provably gives the
 * decimal method's answer, else undefined. The binary product differs from the decimal one by at most
 * about 5.2 × 10⁻¹⁵ of its size (15 significant digits, then one rounding), so below 10⁹ it is off by
 * less than 10⁻⁵: unless the fraction lies within 10⁻⁵ of one half, both round to the same integer.
 * Values the decimal method writes in exponent form (below 10⁻⁶) keep that method.
 */
export function roundShifted(value: number, digits: number): number | undefined {
  const a = Math.abs(value);
  if (a !== 0 && a < 1e-6) return undefined;
  const shifted = a * POW10[digits]!;
  if (!(shifted < 1e9)) return undefined;
  const whole = Math.floor(shifted);
  const fraction = shifted - whole;
  if (Math.abs(fraction - 0.5) <= 1e-5) return undefined;
  const rounded = fraction > 0.5 ? whole + 1 : whole;
  return rounded === 0 ? 0 : value < 0 ? -rounded : rounded;
}

/** Round half away from zero to `digits` decimals, via the decimal representation (1.005 → 1.01). */
export function roundToDigits(value: number, digits: number): number {
  assertFinite(value, 'Value');
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
    throw new RangeError(`Digits must be an integer from 0 to 15, got ${digits}.`);
  }
  const fast = roundShifted(value, digits);
  if (fast !== undefined) return fast / POW10[digits]!;
  const text = String(Number(value.toPrecision(15)));
  if (text.includes('e')) return Number(value.toFixed(digits));
  const shifted = Number(`${text}e${digits}`);
  const rounded = Math.sign(shifted) * Math.round(Math.abs(shifted));
  const result = Number(`${rounded}e-${digits}`);
  return result === 0 ? 0 : result;
}

/** Largest multiple of `step` not above `value` (for volumes: never rounds up). */
export function floorToStep(value: number, step: number): number {
  assertFinite(value, 'Value');
  assertPositive(step, 'Step');
  const steps = Math.floor(value / step + STEP_EPSILON);
  return roundToDigits(steps * step, stepDecimals(step));
}

/** Smallest multiple of `step` not below `value`. */
export function ceilToStep(value: number, step: number): number {
  assertFinite(value, 'Value');
  assertPositive(step, 'Step');
  const steps = Math.ceil(value / step - STEP_EPSILON);
  return roundToDigits(steps * step, stepDecimals(step));
}

/** Nearest multiple of `step` (half away from zero); e.g. a price to the tick size. */
export function roundToStep(value: number, step: number): number {
  assertFinite(value, 'Value');
  assertPositive(step, 'Step');
  const steps = roundToDigits(value / step, 6);
  return roundToDigits(Math.sign(steps) * Math.round(Math.abs(steps)) * step, stepDecimals(step));
}

/** A distance in pips → a distance in price units (EURUSD pip 0.0001: 20 pips → 0.002). */
export function pipsToPrice(pips: number, pipSize: number): number {
  assertFinite(pips, 'Pips');
  assertPositive(pipSize, 'Pip size');
  // Four decimals beyond the pip itself, so fractional pips (12.5 pips) survive the rounding.
  return roundToDigits(pips * pipSize, Math.min(15, stepDecimals(pipSize) + 4));
}

/** A distance in price units → pips (USDJPY pip 0.01: 0.35 → 35 pips). Rounded to 4 decimals of a pip. */
export function priceToPips(distance: number, pipSize: number): number {
  assertFinite(distance, 'Distance');
  assertPositive(pipSize, 'Pip size');
  return roundToDigits(distance / pipSize, 4);
}
