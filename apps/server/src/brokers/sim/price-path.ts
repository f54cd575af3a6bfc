import { hash5, normal, stringId } from './noise';
import { sessionTable, type SessionTable } from './sessions';
import type { SimSymbolDef } from './symbols';

/**
 * The price path: log(mid) as a pure function of (seed, symbol, instant).
 *
 * Time is cut into a fine grid of GRID_MS (250 ms); the price is constant within a grid step.
 * Grid steps are grouped into blocks of 2^29 steps (about 4.25 years). At every block boundary the
 * log price is "pinned" to anchor + N(0, s_long^2), which keeps prices near current-era levels for
 * ever (a random walk would wander off over decades). Inside a block the path is a Brownian bridge
 * refined dyadically (29 levels) down to the grid: the midpoint of a node is drawn from the exact
 * conditional law given its two ends, with a normal deviate hashed from (seed, symbol, level, block,
 * node index). The bridge runs in the session table's variance time, so quiet sessions move less,
 * a closed market does not move at all and the reopening carries the weekend gap.
 *
 * Computing one instant costs 29 refinement steps (a few microseconds); a contiguous range at any
 * level is produced by one descent of the tree, O(points) with no replay of history.
 */

export const GRID_MS = 250;
export const TOP_LEVEL = 29;
const BLOCK = 2 ** TOP_LEVEL;
const PIN_SALT = 1000;
/** Long-run dispersion of the block pins, as a fraction of one year's volatility. */
const PIN_DISPERSION = 0.6;

export interface LogPricePath {
  /** log(mid) at grid index k (k = floor(t / GRID_MS)). */
  logMid(k: number): number;
  /** log(mid) at grid indices m * 2^level for m = mFrom..mTo. */
  fill(level: number, mFrom: number, mTo: number): Float64Array;
}

export class PrimaryPath implements LogPricePath {
  private readonly symId: number;
  private readonly logAnchor: number;
  private readonly sigma2: number;
  private readonly sLong: number;
  private readonly table: SessionTable;

  constructor(
    private readonly seed: number,
    def: SimSymbolDef,
  ) {
    this.symId = stringId(def.symbol);
    this.logAnchor = Math.log(def.anchor_price);
    this.sigma2 = def.annual_vol * def.annual_vol;
    this.sLong = PIN_DISPERSION * def.annual_vol;
    this.table = sessionTable(def.profile);
  }

  private pin(block: number): number {
    return this.logAnchor + this.sLong * normal(hash5(this.seed, this.symId, PIN_SALT, 0, block));
  }

  private tauAt(k: number): number {
    return this.table.tau(k * GRID_MS);
  }

  /** Midpoint of a node [ta..tb] given its ends: exact Brownian-bridge conditional draw. */
  private mid(
    xa: number,
    xb: number,
    ta: number,
    tm: number,
    tb: number,
    level: number,
    block: number,
    j: number,
  ) {
    const span = tb - ta;
    if (span <= 0) return xa;
    const left = tm - ta;
    if (left <= 0) return xa;
    const right = tb - tm;
    if (right <= 0) return xb;
    const z = normal(hash5(this.seed, this.symId, level, block, j));
    return xa + (xb - xa) * (left / span) + Math.sqrt((this.sigma2 * left * right) / span) * z;
  }

  logMid(k: number): number {
    const block = Math.floor(k / BLOCK);
    const base = block * BLOCK;
    const i = k - base;
    let xa = this.pin(block);
    if (i === 0) return xa;
    let xb = this.pin(block + 1);
    let ta = this.tauAt(base);
    let tb = this.tauAt(base + BLOCK);
    let lo = 0;
    for (let level = TOP_LEVEL; level > 0; level--) {
      const half = 2 ** (level - 1);
      const m = lo + half;
      const tm = this.tauAt(base + m);
      const xm = this.mid(xa, xb, ta, tm, tb, level, block, lo / (half * 2));
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

  fill(level: number, mFrom: number, mTo: number): Float64Array {
    const out = new Float64Array(Math.max(0, mTo - mFrom + 1));
    if (out.length === 0) return out;
    const step = 2 ** level;
    const kFrom = mFrom * step;
    const kTo = mTo * step;
    const put = (k: number, x: number) => {
      if (k >= kFrom && k <= kTo && k % step === 0) out[k / step - mFrom] = x;
    };
    const descend = (
      lvl: number,
      j: number,
      block: number,
      base: number,
      xa: number,
      xb: number,
      ta: number,
      tb: number,
    ): void => {
      const size = 2 ** lvl;
      const lo = base + j * size;
      const hi = lo + size;
      if (hi < kFrom || lo > kTo) return;
      if (lvl === level) {
        put(lo, xa);
        put(hi, xb);
        return;
      }
      if (tb <= ta) {
        // Closed market: the whole node holds the same price.
        const first = Math.max(kFrom, Math.ceil(lo / step) * step);
        const last = Math.min(kTo, hi);
        for (let k = first; k <= last; k += step) out[k / step - mFrom] = k === hi ? xb : xa;
        return;
      }
      const half = size / 2;
      const tm = this.tauAt(lo + half);
      const xm = this.mid(xa, xb, ta, tm, tb, lvl, block, j);
      descend(lvl - 1, 2 * j, block, base, xa, xm, ta, tm);
      descend(lvl - 1, 2 * j + 1, block, base, xm, xb, tm, tb);
    };
    const bFrom = Math.floor(kFrom / BLOCK);
    const bTo = Math.floor(kTo / BLOCK);
    for (let b = bFrom; b <= bTo; b++) {
      const base = b * BLOCK;
      descend(
        TOP_LEVEL,
        0,
        b,
        base,
        this.pin(b),
        this.pin(b + 1),
        this.tauAt(base),
        this.tauAt(base + BLOCK),
      );
    }
    return out;
  }
}

/** A cross rate: the product of its legs (e.g. EURJPY = EURUSD x USDJPY), so it always agrees with them. */
export class CrossPath implements LogPricePath {
  constructor(private readonly legs: { path: LogPricePath; power: number }[]) {}

  logMid(k: number): number {
    let x = 0;
    for (const l of this.legs) x += l.power * l.path.logMid(k);
    return x;
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
