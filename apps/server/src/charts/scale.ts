/** A linear map from values to pixels (y grows downwards, so max maps to `top`). */
export interface YScale {
  min: number;
  max: number;
  y(v: number): number;
}

export function yScale(min: number, max: number, top: number, bottom: number): YScale {
  const span = max - min || Math.abs(max) || 1;
  const lo = max - min ? min : min - span / 2;
  const hi = max - min ? max : max + span / 2;
  return { min: lo, max: hi, y: (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top) };
}

/** Round tick values (1, 2, 2.5, 5 × 10^k) covering [min, max] with about `count` steps. */
export function niceTicks(min: number, max: number, count: number): number[] {
  const span = max - min;
  if (!(span > 0) || !Number.isFinite(span)) return [min];
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
}

/** Min and max of the finite values of some columns between two indexes. */
export function extent(columns: Float64Array[], from: number, to: number): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const c of columns) {
    for (let i = from; i < to; i++) {
      const v = c[i]!;
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return Number.isFinite(lo) ? [lo, hi] : [0, 1];
}
