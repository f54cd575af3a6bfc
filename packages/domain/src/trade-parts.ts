/**
 * A trade's volume over its life: the lots it opened with, the parts closed since (partial closes,
 * targets, the final close) and what is still open. History shows the opening lots as the trade's
 * lot size; this says how much of it was closed when, so a 0.10 trade cut to 0.06 reads as such.
 */

export interface TradeFill {
  /** IN opens (or adds to) the position, OUT closes it fully or partly. */
  entry: 'IN' | 'OUT';
  volume: number;
  price: number;
  profit: number;
  time: string;
  reason: string;
}

export interface ClosedPart {
  lots: number;
  price: number;
  profit: number;
  time: string;
  reason: string;
  /** Lots still open after this part. */
  lotsLeft: number;
}

export interface TradeParts {
  initialLots: number;
  closedLots: number;
  openLots: number;
  /** OUT fills in time order. */
  parts: ClosedPart[];
  /** Closed in more than one part, or partly closed and still open. */
  partiallyClosed: boolean;
}

/** Lots are stepped at 0.01 or coarser: 8 decimals remove float noise (0.1 − 0.04 = 0.06000000000000001). */
const lots8 = (x: number) => Math.round(x * 1e8) / 1e8;

export function tradeParts(initialLots: number, fills: readonly TradeFill[]): TradeParts {
  const outs = fills.filter((f) => f.entry === 'OUT').sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  let left = initialLots;
  const parts = outs.map((f) => {
    left = lots8(Math.max(0, left - f.volume));
    return {
      lots: f.volume,
      price: f.price,
      profit: f.profit,
      time: f.time,
      reason: f.reason,
      lotsLeft: left,
    };
  });
  const closedLots = lots8(outs.reduce((sum, f) => sum + f.volume, 0));
  const openLots = lots8(Math.max(0, initialLots - closedLots));
  return {
    initialLots,
    closedLots,
    openLots,
    parts,
    partiallyClosed: parts.length > 1 || (parts.length === 1 && openLots > 0),
  };
}
