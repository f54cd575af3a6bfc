/** Small statistics shared by the analyses: proportions with intervals, quantiles, buckets. */

export interface Proportion {
  hits: number;
  total: number;
  /** hits ÷ total × 100; NaN when total is 0. */
  pct: number;
  /** Wilson score interval at 95 %, in percent; NaN when total is 0. */
  low: number;
  high: number;
}

const Z95 = 1.959963984540054;

/**
 * Wilson score interval (Wilson 1927): centre (p + z²/2n) ÷ (1 + z²/n), half-width
 * z·√(p(1−p)/n + z²/4n²) ÷ (1 + z²/n). Unlike p ± z·√(p(1−p)/n) it stays inside 0–100 % and is
 * honest for small samples and rates near 0 or 100 %.
 */
export function proportion(hits: number, total: number): Proportion {
  if (total <= 0) return { hits, total, pct: NaN, low: NaN, high: NaN };
  const p = hits / total;
  const z2 = Z95 * Z95;
  const denom = 1 + z2 / total;
  const centre = (p + z2 / (2 * total)) / denom;
  const half = (Z95 * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / denom;
  return {
    hits,
    total,
    pct: p * 100,
    // Exactly 0 and 100 at the extremes, where rounding would leave a few ulps.
    low: hits === 0 ? 0 : Math.max(0, centre - half) * 100,
    high: hits === total ? 100 : Math.min(1, centre + half) * 100,
  };
}

/** Linear-interpolation quantile (type 7, as numpy/pandas default) of sorted values; NaN if empty. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/** Index of the bucket holding x for ascending inner edges: bucket i is [edges[i−1], edges[i]). */
export function bucketOf(x: number, edges: readonly number[]): number {
  let i = 0;
  while (i < edges.length && x >= edges[i]!) i++;
  return i;
}

/** "[a, b)" labels of buckets cut by ascending edges, values formatted to `digits`. */
export function bucketLabels(edges: readonly number[], unit: string, digits = 2): string[] {
  const f = (v: number) => v.toFixed(digits);
  const labels: string[] = [];
  for (let i = 0; i <= edges.length; i++) {
    if (i === 0) labels.push(`< ${f(edges[0]!)}${unit}`);
    else if (i === edges.length) labels.push(`≥ ${f(edges[i - 1]!)}${unit}`);
    else labels.push(`${f(edges[i - 1]!)}–${f(edges[i]!)}${unit}`);
  }
  return labels;
}

export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** UTC weekday (0 = Sunday) of a day number (epoch ms ÷ one day). 1970-01-01 was a Thursday. */
export const weekdayOfDay = (day: number): number => (((day + 4) % 7) + 7) % 7;
