/**
 * Candle timeframes and their buckets (UTC). Minutes and hours are cut from the epoch (so H2 opens at
 * even hours, M3 at every third minute), days at midnight, months by calendar, and weeks at Sunday
 * 22:00 UTC, when the FX week opens: every FX weekly bar then holds one whole trading week.
 */
export const CANDLE_TIMEFRAMES = [
  'M1',
  'M3',
  'M5',
  'M15',
  'M30',
  'H1',
  'H2',
  'H4',
  'D1',
  'W1',
  'MN1',
] as const;
export type CandleTimeframe = (typeof CANDLE_TIMEFRAMES)[number];

/** The product spec's chart timeframe choices and the timeframe each one means. */
export const CHART_TIMEFRAMES = {
  '1m': 'M1',
  '3m': 'M3',
  '5m': 'M5',
  '15m': 'M15',
  '30m': 'M30',
  '1h': 'H1',
  '2h': 'H2',
  '4h': 'H4',
  '1D': 'D1',
  '1W': 'W1',
  '1M': 'MN1',
} as const satisfies Record<string, CandleTimeframe>;
export type ChartTimeframe = keyof typeof CHART_TIMEFRAMES;

const MINUTE_MS = 60_000;
export const WEEK_MS = 7 * 86_400_000;
/** Sunday 1970-01-04 22:00 UTC: the FX week opens on Sunday at 22:00 UTC. */
export const FX_WEEK_ORIGIN_MS = Date.UTC(1970, 0, 4, 22);

/** Length of the timeframes whose buckets all have the same length (all but MN1). */
export const TIMEFRAME_MS: Record<Exclude<CandleTimeframe, 'MN1'>, number> = {
  M1: MINUTE_MS,
  M3: 3 * MINUTE_MS,
  M5: 5 * MINUTE_MS,
  M15: 15 * MINUTE_MS,
  M30: 30 * MINUTE_MS,
  H1: 60 * MINUTE_MS,
  H2: 120 * MINUTE_MS,
  H4: 240 * MINUTE_MS,
  D1: 1440 * MINUTE_MS,
  W1: WEEK_MS,
};

export function isCandleTimeframe(v: string): v is CandleTimeframe {
  return (CANDLE_TIMEFRAMES as readonly string[]).includes(v);
}

/** First instant of the calendar month (UTC) containing t. */
export function monthStartOf(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** First instant of the calendar month after the one starting at (or containing) t. */
export function nextMonthStart(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** Open time of the `tf` bucket containing t. */
export function bucketStart(tf: CandleTimeframe, t: number): number {
  if (tf === 'MN1') return monthStartOf(t);
  if (tf === 'W1') return FX_WEEK_ORIGIN_MS + Math.floor((t - FX_WEEK_ORIGIN_MS) / WEEK_MS) * WEEK_MS;
  const len = TIMEFRAME_MS[tf];
  return Math.floor(t / len) * len;
}

/** Open time of the bucket after the one opening at `start`. */
export function bucketEnd(tf: CandleTimeframe, start: number): number {
  return tf === 'MN1' ? nextMonthStart(start) : start + TIMEFRAME_MS[tf];
}
