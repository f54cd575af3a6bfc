/** Rolling-window kernels shared by the oscillators. */
import { chunkEnd } from './chunks';

const RESYNC_MASK = 1023;

/**
 * The stochastic of one series and its two smoothings, in one pass (Stoch RSI's lines):
 *   stochastic = 100 × (x − lowest) ÷ (highest − lowest) over the last `period` values (Pine's
 *   `ta.stoch(x, x, x, period)`), NaN while fewer than `period` finite values follow the last NaN and
 *   NaN when the window is flat;
 *   %K = its SMA over `kLength` values, %D = the SMA of %K over `dLength` values, each restarting its
 *   warm-up after a NaN, with the running sums recomputed from the window every 1,024 values, exactly
 *   as `sma` computes them.
 * The window's highest and lowest are tracked by bar and rescanned only when the one held leaves the
 * window: about one pass for a wandering series, `period` reads per bar for a monotonic one. (A
 * monotonic deque bounds that worst case but measured 4× slower on RSI values, its branches being
 * unpredictable.) The window lives in a small ring, so `dOut` may be `values` itself: each value is
 * read before %D is written over it.
 */
export function smoothedStochastic(
  values: Float64Array,
  period: number,
  kLength: number,
  dLength: number,
  kOut: Float64Array,
  dOut: Float64Array,
): void {
  const n = values.length;
  // The window's values in a ring of a power of two ≥ period slots (bar j in slot j & mask).
  let slots = 1;
  while (slots < period) slots *= 2;
  const scratch: Scratch = {
    ring: new Float64Array(slots),
    kRing: new Float64Array(kLength), // the last kLength stochastics, for the dropped one
    dRing: new Float64Array(dLength), // the last dLength %K values
    state: new Float64Array(STATE_SIZE),
  };
  for (let i = 0; i < n; i = chunkEnd(i, n))
    stochasticChunk(values, period, kLength, dLength, kOut, dOut, scratch, i, chunkEnd(i, n));
}

interface Scratch {
  ring: Float64Array;
  kRing: Float64Array;
  dRing: Float64Array;
  state: Float64Array;
}

// What `stochasticChunk` carries from one chunk to the next (see ./chunks), by slot of `state`:
// the %K and %D sums, the window's highest and lowest values and their bars, and the counters.
const K_SUM = 0;
const D_SUM = 1;
const HIGH = 2;
const LOW = 3;
const HIGH_BAR = 4;
const LOW_BAR = 5;
const COUNT = 6;
const K_COUNT = 7;
const D_COUNT = 8;
const K_SLOT = 9;
const D_SLOT = 10;
const STATE_SIZE = 11;

/** Bars [from, to) of `smoothedStochastic`. */
function stochasticChunk(
  values: Float64Array,
  period: number,
  kLength: number,
  dLength: number,
  kOut: Float64Array,
  dOut: Float64Array,
  { ring, kRing, dRing, state }: Scratch,
  from: number,
  to: number,
): void {
  const mask = ring.length - 1;
  const kInverse = 1 / kLength;
  const dInverse = 1 / dLength;
  let kSum = state[K_SUM]!;
  let dSum = state[D_SUM]!;
  let high = state[HIGH]!;
  let low = state[LOW]!;
  let count = state[COUNT]! | 0;
  let highBar = state[HIGH_BAR]! | 0;
  let lowBar = state[LOW_BAR]! | 0;
  let kCount = state[K_COUNT]! | 0;
  let dCount = state[D_COUNT]! | 0;
  let kSlot = state[K_SLOT]! | 0;
  let dSlot = state[D_SLOT]! | 0;
  for (let i = from; i < to; i++) {
    const v = values[i]!;
    let stoch = NaN;
    if (Number.isNaN(v)) {
      count = 0;
    } else {
      ring[i & mask] = v;
      count++;
      const first = i - (count < period ? count : period) + 1;
      if (count === 1) {
        highBar = lowBar = i;
        high = low = v;
      } else {
        if (highBar < first) {
          highBar = first;
          high = ring[first & mask]!;
          for (let j = first + 1; j <= i; j++) {
            const x = ring[j & mask]!;
            if (x >= high) {
              high = x;
              highBar = j;
            }
          }
        } else if (v >= high) {
          high = v;
          highBar = i;
        }
        if (lowBar < first) {
          lowBar = first;
          low = ring[first & mask]!;
          for (let j = first + 1; j <= i; j++) {
            const x = ring[j & mask]!;
            if (x <= low) {
              low = x;
              lowBar = j;
            }
          }
        } else if (v <= low) {
          low = v;
          lowBar = i;
        }
      }
      if (count >= period) {
        const range = high - low;
        if (range !== 0) stoch = (100 * (v - low)) / range;
      }
    }
    let k = NaN;
    if (Number.isNaN(stoch)) {
      kCount = 0;
      kSum = 0;
    } else {
      kCount++;
      const dropped = kRing[kSlot]!;
      kRing[kSlot] = stoch;
      kSlot = kSlot + 1 === kLength ? 0 : kSlot + 1;
      kSum += kCount <= kLength ? stoch : stoch - dropped;
      if (kCount >= kLength) {
        if ((kCount & RESYNC_MASK) === 0) {
          kSum = 0; // the window again, oldest first: the order `sma` resyncs in
          for (let j = kSlot; j < kLength; j++) kSum += kRing[j]!;
          for (let j = 0; j < kSlot; j++) kSum += kRing[j]!;
        }
        k = kSum * kInverse;
      }
    }
    kOut[i] = k;
    let d = NaN;
    if (Number.isNaN(k)) {
      dCount = 0;
      dSum = 0;
    } else {
      dCount++;
      const dropped = dRing[dSlot]!;
      dRing[dSlot] = k;
      dSlot = dSlot + 1 === dLength ? 0 : dSlot + 1;
      dSum += dCount <= dLength ? k : k - dropped;
      if (dCount >= dLength) {
        if ((dCount & RESYNC_MASK) === 0) {
          dSum = 0;
          for (let j = dSlot; j < dLength; j++) dSum += dRing[j]!;
          for (let j = 0; j < dSlot; j++) dSum += dRing[j]!;
        }
        d = dSum * dInverse;
      }
    }
    dOut[i] = d;
  }
  state[K_SUM] = kSum;
  state[D_SUM] = dSum;
  state[HIGH] = high;
  state[LOW] = low;
  state[COUNT] = count;
  state[HIGH_BAR] = highBar;
  state[LOW_BAR] = lowBar;
  state[K_COUNT] = kCount;
  state[D_COUNT] = dCount;
  state[K_SLOT] = kSlot;
  state[D_SLOT] = dSlot;
}
