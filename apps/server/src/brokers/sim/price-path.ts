import { hash5, hashIndex, invNorm, stringId } from './noise';
import { sessionTable, type SessionTable } from './sessions';
import type { SimSymbolDef } from './symbols';

/**
 * The price path: log(mid) as a pure function of (seed, symbol, instant).
 *
 * Time is cut into a fine grid of GRID_MS (250 ms); the price is constant within a grid step.
 * Grid steps are grouped into blocks of 2^25 steps (about 97 days). At every block boundary the
 * log price is "pinned" to anchor + N(0, s_long^2), which keeps prices near current-era levels for
 * ever (a random walk would wander off over decades). Inside a block the path is a Brownian bridge
 * refined dyadically (25 levels) down to the grid: the midpoint of a node is drawn from the exact
 * conditional law given its two ends, with a normal deviate hashed from (seed, symbol, level, block,
 * node index). The bridge runs in the session table's variance time, so quiet sessions move less,
 * a closed market does not move at all and the reopening carries the weekend gap.
 *
 * Computing one instant costs 25 refinement steps (a few microseconds); a contiguous range at any
 * level is produced by one descent of the tree, O(points) with no replay of history.
 */

export const GRID_MS = 250;
export const TOP_LEVEL = 25;
const BLOCK = 2 ** TOP_LEVEL;
const PIN_SALT = 1000;
/** Long-run dispersion of the block pins, as a fraction of one year's volatility. */
const PIN_DISPERSION = 0.15;
const TWO32 = 4294967296;

export interface LogPricePath {
  /** log(mid) at grid index k (k = floor(t / GRID_MS)). */
  logMid(k: number): number;
  /** log(mid) at grid indices m * 2^level for m = mFrom..mTo. */
  fill(level: number, mFrom: number, mTo: number): Float64Array;
  /**
   * Same as `fill`, plus log(mid) at the extra grid indices `points` (any order), each computed by
   * refining only the level-`level` node that contains it, which is much cheaper than `logMid`.
   */
  fillWithPoints(
    level: number,
    mFrom: number,
    mTo: number,
    points: number[],
  ): { grid: Float64Array; points: Float64Array };
}

export class PrimaryPath implements LogPricePath {
  private readonly symId: number;
  private readonly logAnchor: number;
  private readonly sigma2: number;
  private readonly sLong: number;
  private readonly table: SessionTable;
  /** Hash keys of (seed, symbol, level, block) for the block last used, per level. */
  private readonly keys = new Int32Array(TOP_LEVEL + 1);
  private keysBlock = Number.NaN;

  constructor(
    private readonly seed: number,
    def: Pick<SimSymbolDef, 'symbol' | 'anchor_price' | 'annual_vol' | 'profile'>,
  ) {
    this.symId = stringId(def.symbol);
    this.logAnchor = Math.log(def.anchor_price);
    this.sigma2 = def.annual_vol * def.annual_vol;
    this.sLong = PIN_DISPERSION * def.annual_vol;
    this.table = sessionTable(def.profile);
  }

  private pin(block: number): number {
    return this.logAnchor + this.sLong * invNorm(unit(hash5(this.seed, this.symId, PIN_SALT, 0, block)));
  }

  private keysFor(block: number): Int32Array {
    if (this.keysBlock !== block) {
      for (let l = 1; l <= TOP_LEVEL; l++) this.keys[l] = hash5(this.seed, this.symId, l, 0, block);
      this.keysBlock = block;
    }
    return this.keys;
  }

  logMid(k: number): number {
    const block = Math.floor(k / BLOCK);
    const base = block * BLOCK;
    if (k === base) return this.pin(block);
    // The whole block is the top-level node: descend it from its two pinned ends.
    return this.refine(k, TOP_LEVEL, base, this.pin(block), this.pin(block + 1));
  }

  fill(level: number, mFrom: number, mTo: number): Float64Array {
    const n = Math.max(0, mTo - mFrom + 1);
    const out = new Float64Array(n);
    if (n === 0) return out;
    const step = 2 ** level;
    const kFrom = mFrom * step;
    const kTo = mTo * step;
    const table = this.table;
    // Breadth-first refinement, level by level, of only the nodes that cover [kFrom, kTo]:
    // two ping-pong buffers of values and variance times, large enough for the target level.
    const [x0, t0, x20, t20] = scratch(n + 4);
    let x = x0;
    let t = t0;
    let x2 = x20;
    let t2 = t20;
    const bFrom = Math.floor(kFrom / BLOCK);
    const bTo = Math.floor(kTo / BLOCK);
    for (let b = bFrom; b <= bTo; b++) {
      const base = b * BLOCK;
      const lf = Math.max(kFrom, base) - base;
      const lt = Math.min(kTo, base + BLOCK) - base;
      const keys = this.keysFor(b);
      // Top level: the block's two pins.
      x[0] = this.pin(b);
      x[1] = this.pin(b + 1);
      t[0] = table.tau(base * GRID_MS);
      t[1] = table.tau((base + BLOCK) * GRID_MS);
      let s0 = 0; // index (in units of 2^lvl) of x[0]
      for (let lvl = TOP_LEVEL; lvl > level; lvl--) {
        const half = 2 ** (lvl - 1);
        const n0 = Math.floor(lf / half);
        const n1 = Math.ceil(lt / half);
        this.refineLevel(lvl, n0, n1, s0, base, keys[lvl]!, x, t, x2, t2);
        [x, x2] = [x2, x];
        [t, t2] = [t2, t];
        s0 = n0;
      }
      // x now holds the target level from local index s0.
      const mA = Math.max(mFrom, (base + lf) / step);
      const mB = Math.min(mTo, (base + lt) / step);
      for (let m = mA; m <= mB; m++) out[m - mFrom] = x[m - base / step - s0]!;
    }
    return out;
  }

  /**
   * One breadth-first step: from the values/times `x`, `t` at level `lvl` (x[0] at index s0) to
   * level lvl - 1 for indices n0..n1 into `x2`, `t2`. (A function of its own so that V8 optimises it
   * as a whole rather than as an on-stack-replaced inner loop.)
   */
  private refineLevel(
    lvl: number,
    n0: number,
    n1: number,
    s0: number,
    base: number,
    key: number,
    x: Float64Array,
    t: Float64Array,
    x2: Float64Array,
    t2: Float64Array,
  ): void {
    const table = this.table;
    const sigma2 = this.sigma2;
    const half = 2 ** (lvl - 1);
    for (let nn = n0; nn <= n1; nn++) {
      const i = nn - n0;
      if ((nn & 1) === 0) {
        x2[i] = x[nn / 2 - s0]!;
        t2[i] = t[nn / 2 - s0]!;
        continue;
      }
      const j = (nn - 1) / 2;
      const xa = x[j - s0]!;
      const xb = x[j + 1 - s0]!;
      const ta = t[j - s0]!;
      const tb = t[j + 1 - s0]!;
      const tm = tb > ta ? table.tau((base + nn * half) * GRID_MS) : ta;
      x2[i] = bridgeMid(xa, xb, tm - ta, tb - tm, sigma2, key, j);
      t2[i] = tm;
    }
  }

  fillWithPoints(level: number, mFrom: number, mTo: number, points: number[]) {
    const grid = this.fill(level, mFrom, mTo);
    const step = 2 ** level;
    const values = new Float64Array(points.length);
    for (let p = 0; p < points.length; p++) {
      const k = points[p]!;
      const m = Math.floor(k / step);
      const r = k - m * step;
      if (r === 0 && m >= mFrom && m <= mTo) values[p] = grid[m - mFrom]!;
      else if (r !== 0 && m >= mFrom && m + 1 <= mTo) {
        // Level-`level` nodes never straddle a block (blocks are 2^TOP_LEVEL steps and candle levels are at most 16), so refining is exact.
        values[p] = this.refine(k, level, m * step, grid[m - mFrom]!, grid[m + 1 - mFrom]!);
      } else values[p] = this.logMid(k);
    }
    return { grid, points: values };
  }

  /** log(mid) at k inside the level-`level` node starting at grid index `start`, whose ends are xa, xb. */
  private refine(k: number, level: number, start: number, xa: number, xb: number): number {
    const block = Math.floor(start / BLOCK);
    const base = block * BLOCK;
    const keys = this.keysFor(block);
    const table = this.table;
    const sigma2 = this.sigma2;
    let lo = start - base;
    const i = k - base;
    let ta = table.tau(start * GRID_MS);
    let tb = table.tau((start + 2 ** level) * GRID_MS);
    for (let lvl = level; lvl > 0; lvl--) {
      const half = 2 ** (lvl - 1);
      const m = lo + half;
      const tm = table.tau((base + m) * GRID_MS);
      const xm = bridgeMid(xa, xb, tm - ta, tb - tm, sigma2, keys[lvl]!, lo / (2 * half));
      if (i === m) return xm;
      if (i < m) {
        xb = xm;
        tb = tm;
      } else {
        xa = xm;
        ta = tm;
        lo = m;
      }
    }
    // At level 1 either the midpoint or the left end is i, so this is only reached for i === lo.
    return xa;
  }
}

/**
 * Work buffers shared by every fill (fills are synchronous, so one set per process is enough);
 * reusing them keeps multi-megabyte allocations, and the garbage collection they cause, off the
 * hot path.
 */
type Buffers = [Float64Array, Float64Array, Float64Array, Float64Array];
let buffers: Buffers = [new Float64Array(0), new Float64Array(0), new Float64Array(0), new Float64Array(0)];
function scratch(n: number): Buffers {
  if (buffers[0].length < n) {
    const size = Math.max(n, 2 * buffers[0].length, 4096);
    buffers = [
      new Float64Array(size),
      new Float64Array(size),
      new Float64Array(size),
      new Float64Array(size),
    ];
  }
  return buffers;
}

/**
 * Exact Brownian-bridge draw of a midpoint given both ends xa, xb, `left` and `right` of it in
 * variance time, with the normal deviate hashed from (key, index); an end with no variance between
 * it and the midpoint (a closed market) is taken as is.
 */
function bridgeMid(
  xa: number,
  xb: number,
  left: number,
  right: number,
  sigma2: number,
  key: number,
  index: number,
): number {
  if (left <= 0) return xa;
  if (right <= 0) return xb;
  const span = left + right;
  const z = invNorm(unit(hashIndex(key, index)));
  return xa + (xb - xa) * (left / span) + Math.sqrt((sigma2 * left * right) / span) * z;
}

function unit(h: number): number {
  return ((h >>> 0) + 0.5) / TWO32;
}

/**
 * A product of paths (a sum in log space): a cross rate from its legs (EURJPY = EURUSD x USDJPY, so
 * it always agrees with them), or a USD pair from its own path and the common dollar factor.
 */
export class CrossPath implements LogPricePath {
  readonly legs: { path: LogPricePath; power: number }[];

  /** Nested products are flattened and opposite terms cancel (EURUSD x USDJPY: the dollar factor drops out). */
  constructor(legs: { path: LogPricePath; power: number }[]) {
    const powers = new Map<LogPricePath, number>();
    const add = (path: LogPricePath, power: number) => {
      if (path instanceof CrossPath) for (const l of path.legs) add(l.path, power * l.power);
      else powers.set(path, (powers.get(path) ?? 0) + power);
    };
    for (const l of legs) add(l.path, l.power);
    this.legs = [...powers].filter(([, p]) => p !== 0).map(([path, power]) => ({ path, power }));
  }

  logMid(k: number): number {
    let x = 0;
    for (const l of this.legs) x += l.power * l.path.logMid(k);
    return x;
  }

  fillWithPoints(level: number, mFrom: number, mTo: number, points: number[]) {
    const grid = new Float64Array(Math.max(0, mTo - mFrom + 1));
    const values = new Float64Array(points.length);
    for (const l of this.legs) {
      const part = l.path.fillWithPoints(level, mFrom, mTo, points);
      for (let i = 0; i < grid.length; i++) grid[i]! += l.power * part.grid[i]!;
      for (let i = 0; i < values.length; i++) values[i]! += l.power * part.points[i]!;
    }
    return { grid, points: values };
  }

  fill(level: number, mFrom: number, mTo: number): Float64Array {
    const out = new Float64Array(Math.max(0, mTo - mFrom + 1));
    for (const l of this.legs) {
      const part = l.path.fill(level, mFrom, mTo);
      for (let i = 0; i < out.length; i++) out[i]! += l.power * part[i]!;
    }
    return out;
  }
}
