import { bucketStart, type CandleTimeframe } from './timeframes';

/** One bar as a chart draws it: open time (epoch ms, UTC) and bid prices. */
export interface LiveBar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * A live price folded into the last bar of a chart: the same bar while the tick falls in its bucket
 * (high, low and close move), a new bar opening at the tick's bucket when it falls in a later one, and
 * null for a tick older than the last bar (a late or replayed message), which must not repaint history.
 */
export function applyTick(
  last: LiveBar | null,
  tf: CandleTimeframe,
  timeMs: number,
  price: number,
): LiveBar | null {
  if (!Number.isFinite(price) || !Number.isFinite(timeMs)) return null;
  const start = bucketStart(tf, timeMs);
  if (!last || start > last.time) return { time: start, open: price, high: price, low: price, close: price };
  if (start < last.time) return null;
  return {
    time: last.time,
    open: last.open,
    high: Math.max(last.high, price),
    low: Math.min(last.low, price),
    close: price,
  };
}
