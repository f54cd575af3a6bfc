import type { OrderTarget } from './order-targets';

/**
 * An entry as `ctx.buy` / `ctx.sell` packed it: fields 1–7 of the 8 numbers (NaN = not given), with
 * its targets from the side list. The backtest engine's pending entries and a live run's entries are
 * this shape plus their own direction field.
 */
export interface EntryFields {
  /** 0 market, 1 limit, 2 stop (`ORDER_KIND`). */
  kind: number;
  price: number;
  sl: number;
  tp: number;
  tpR: number;
  slDistance: number;
  risk: number;
  /** ctx.buy(targets=...): R multiples or prices with their shares, nearest first. */
  targets: OrderTarget[] | null;
}

/** The entry packed at offset `k` of the strategy's orders. */
export function unpackEntry(
  packed: ArrayLike<number>,
  k: number,
  targets: OrderTarget[] | null,
): EntryFields {
  return {
    kind: packed[k + 1]!,
    price: packed[k + 2]!,
    sl: packed[k + 3]!,
    tp: packed[k + 4]!,
    tpR: packed[k + 5]!,
    slDistance: packed[k + 6]!,
    risk: packed[k + 7]!,
    targets,
  };
}
