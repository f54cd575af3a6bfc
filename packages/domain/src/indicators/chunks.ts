/**
 * How the kernels loop: each one's per-bar loop is a function over bars [from, to) that loads the
 * numbers it carries from bar to bar out of a small Float64Array and stores them back at the end,
 * and the kernel calls it once per chunk of `CHUNK` bars.
 *
 * Why: over a year of M1 a kernel is one call with one long loop, which V8 compiles while it runs
 * (on-stack replacement). In that code the carried numbers enter untyped, so V8 keeps them boxed for
 * as long as the loop runs: one heap number per bar and carried number, i.e. megabytes per call and
 * a young-generation collection every few milliseconds (DMI allocated 30 MB per call this way). A
 * loop nested in the kernel instead (an outer loop over chunks) is no cure: V8's first optimising
 * tier leaves its on-stack code at every exit of an inner loop, i.e. at every chunk. A function
 * called ~90 times per year of M1 is compiled as a function, its numbers typed (loaded from the
 * Float64Array) and kept in registers; at most the first chunk of a call runs boxed.
 */
export const CHUNK = 4096;

/** End (exclusive) of the chunk that starts at bar `i` of `n`. */
export function chunkEnd(i: number, n: number): number {
  return n - i > CHUNK ? i + CHUNK : n;
}
