/** Shared argument checks for the indicator kernels: one message shape for every bad parameter. */

/** Throws RangeError unless `value` is a positive integer; `name` says which parameter it was. */
export function assertPeriod(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${name} must be a positive integer, got ${value}.`);
}
