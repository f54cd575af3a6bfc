/**
 * Average True Range, Wilder's smoothing (as in "New Concepts in Technical Trading Systems", 1978):
 *   TR₁ = high − low; TRᵢ = max(high, prev close) − min(low, prev close)
 *   ATR over the first `period` candles = mean of their TRs; then ATRᵢ = (ATRᵢ₋₁ × (period − 1) + TRᵢ) ÷ period.
 * Computed with the maintained `trading-signals` ATR (DESIGN.md §1: a library where it meets the bar),
 * whose default smoothing is exactly this (WSMA seeded by an SMA). The tests pin it to hand-computed values.
 */
import { ATR } from 'trading-signals';

export interface HighLowCloseCandle {
  high: number;
  low: number;
  close: number;
}

export const DEFAULT_ATR_PERIOD = 14;

/**
 * ATR of the last candle, in price units; null when there are fewer than `period` candles.
 * Candles are in time order, oldest first. Throws RangeError for a period that is not a positive integer.
 */
export function averageTrueRange(
  candles: readonly HighLowCloseCandle[],
  period = DEFAULT_ATR_PERIOD,
): number | null {
  if (!Number.isInteger(period) || period < 1)
    throw new RangeError(`ATR period must be a positive integer, got ${period}.`);
  if (candles.length < period) return null;
  const atr = new ATR(period);
  let last: number | null = null;
  for (const c of candles) last = atr.update({ high: c.high, low: c.low, close: c.close }, false);
  return last;
}
