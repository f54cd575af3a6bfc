/**
 * Counter-based, seeded noise for the market simulator: every random number is a pure function of
 * its coordinates (seed, symbol, level, index, ...), so any instant can be recomputed on demand,
 * on any node and after a restart, without replaying a stream of draws.
 */

/** 32-bit finaliser ("lowbias32" by Chris Wellons): good avalanche, a few integer multiplies. Returns an int32. */
export function mix32(x: number): number {
  x |= 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x | 0;
}

/** Hash of up to five integer coordinates (each taken modulo 2^32, so large or negative numbers are fine). */
export function hash5(a: number, b: number, c: number, d: number, e: number): number {
  let h = mix32(a ^ 0x9e3779b9);
  h = mix32(h ^ lo32(b));
  h = mix32(h ^ Math.imul(lo32(c), 0x85ebca6b));
  h = mix32(h ^ Math.imul(lo32(d), 0xc2b2ae35));
  h = mix32(h ^ lo32(e));
  // A number above 2^32 contributes its high part too, so block indices far from 1970 stay distinct.
  if (e >= 0 && e < 4294967296) return h;
  return mix32(h ^ mix32(lo32(Math.floor(e / 4294967296)) + 0x27d4eb2f));
}

/** Low 32 bits of an integer-valued double (ToInt32 is exactly "modulo 2^32", negatives included). */
function lo32(n: number): number {
  return n | 0;
}

/**
 * Hash of a precomputed key (see `hash5`, or any mix32 output) and one integer index, which may
 * exceed 2^32: the cheap per-point hash of the price path and the spread jitter.
 */
export function hashIndex(key: number, index: number): number {
  const h = mix32(mix32(key ^ (index | 0)) + 0x68e31da4);
  if (index >= 0 && index < 4294967296) return h;
  return mix32(h ^ (Math.floor(index / 4294967296) | 0));
}

/** Uniform in the open interval (0, 1) from a 32-bit hash. */
export function uniform(h: number): number {
  return ((h >>> 0) + 0.5) / 4294967296;
}

/** Standard normal deviate from a 32-bit hash, by inverse CDF (Acklam's rational approximation). */
export function normal(h: number): number {
  return invNorm(uniform(h));
}

const P_LOW = 0.02425;

/** Inverse of the standard normal CDF (Acklam's rational approximation, relative error below 1.2e-9). */
export function invNorm(p: number): number {
  if (p < P_LOW) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - P_LOW) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((-39.69683028665376 * r + 220.9460984245205) * r - 275.9285104469687) * r + 138.357751867269) * r -
      30.66479806614716) *
      r +
      2.506628277459239) *
      q) /
    (((((-54.47609879822406 * r + 161.5858368580409) * r - 155.6989798598866) * r + 66.80131188771972) * r -
      13.28068155288572) *
      r +
      1)
  );
}

function tail(q: number): number {
  return (
    (((((-0.007784894002430293 * q - 0.3223964580411365) * q - 2.400758277161838) * q - 2.549732539343734) *
      q +
      4.374664141464968) *
      q +
      2.938163982698783) /
    ((((0.007784695709041462 * q + 0.3224671290700398) * q + 2.445134137142996) * q + 3.754408661907416) * q +
      1)
  );
}

/** Stable 32-bit id of a string (FNV-1a then mixed), used to give each symbol its own noise. */
export function stringId(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}
