import { z } from 'zod';
import { CANDLE_TIMEFRAMES, CHART_TIMEFRAMES, type ChartTimeframe } from '@tradedesk/domain';

/**
 * Candle store API. Timeframes are the store's names (M1 … MN1) or the spec's chart choices
 * (1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 1D, 1W, 1M). Weekly bars open on Sunday 22:00 UTC (the FX week),
 * monthly bars on the 1st (UTC); gaps (weekends, daily breaks) stay gaps.
 *
 * `GET /api/market/candles/?account=<id>&symbol=EURUSD&timeframe=H1&from=<ISO>&to=<ISO>` reads the
 * bars opening in [from, to) of an account's broker (a simulated account reads the simulator), or of
 * the caller's imported files with `source=csv` instead of `account`. Missing months are fetched from
 * the broker and kept. The answer is columnar: `time` holds each bar's open instant in epoch
 * milliseconds (UTC), the other arrays the bid prices and the volume of the same bars.
 *
 * `POST /api/market/candles/import/`: multipart/form-data with `symbol`, `file` (an M1 CSV file in
 * one of CANDLE_CSV_FORMATS, recognised by its header and shape; at most 10 MB) and optionally
 * `utc_offset_minutes`, the zone of the file's times (default: UTC for MT5 and Dukascopy, -300 for
 * HistData, whose times are EST all year). An import replaces the stored bars from its first to its
 * last minute (a minute the file lacks is then lacking in the store too); bars before and after stay.
 * Imports are read back with `source=csv` and are the importing user's alone. Answers 201 with
 * CandleImportResult; a file of no accepted format answers 400 naming the accepted formats.
 */

/** The store's timeframe names and the spec's chart choices: the domain's own lists. */
export const CANDLE_TIMEFRAME_NAMES = CANDLE_TIMEFRAMES;
export const CHART_TIMEFRAME_NAMES = Object.keys(CHART_TIMEFRAMES) as [ChartTimeframe, ...ChartTimeframe[]];

/** Most bars one HTTP read returns (the service itself reads more for analyses and backtests). */
export const CANDLES_HTTP_MAX_BARS = 50_000;

export const candleSymbol = z
  .string()
  .trim()
  .min(1, 'This field is required.')
  .max(40)
  .regex(/^[A-Za-z0-9._#-]*$/, 'A symbol is letters, digits and . _ # - only.');

export const candlesQuery = z
  .object({
    account: z.string().min(1).max(64).optional(),
    source: z.enum(['csv']).optional(),
    symbol: candleSymbol,
    timeframe: z.enum([...CANDLE_TIMEFRAME_NAMES, ...CHART_TIMEFRAME_NAMES]),
    from: z.iso.datetime({ offset: true }),
    to: z.iso.datetime({ offset: true }),
  })
  .refine((q) => (q.account === undefined) !== (q.source === undefined), {
    message: 'Give either account or source=csv.',
    path: ['account'],
  });
export type CandlesQuery = z.infer<typeof candlesQuery>;

export const candlesResponse = z.object({
  symbol: z.string(),
  timeframe: z.enum(CANDLE_TIMEFRAME_NAMES),
  time: z.array(z.number()),
  open: z.array(z.number()),
  high: z.array(z.number()),
  low: z.array(z.number()),
  close: z.array(z.number()),
  volume: z.array(z.number()),
});
export type CandlesResponse = z.infer<typeof candlesResponse>;

/** The M1 CSV formats the import recognises. */
export const CANDLE_CSV_FORMATS = {
  mt5: 'MT5 "Export bars" CSV (<DATE> <TIME> <OPEN> <HIGH> <LOW> <CLOSE> <TICKVOL> <VOL> <SPREAD>, tab-separated)',
  histdata: 'HistData ASCII M1 (YYYYMMDD HHMMSS;open;high;low;close;volume, no header)',
  dukascopy: 'Dukascopy CSV (Gmt time,Open,High,Low,Close,Volume with DD.MM.YYYY HH:mm:ss.SSS)',
} as const;
export type CandleCsvFormat = keyof typeof CANDLE_CSV_FORMATS;

/** The form fields of an import besides the file. */
export const candleImportFields = z.object({
  symbol: candleSymbol,
  utc_offset_minutes: z.coerce.number().int().min(-720).max(840).optional(),
});
export type CandleImportFields = z.infer<typeof candleImportFields>;

/** The whole multipart/form-data body of an import, for the OpenAPI document. */
export const candleImportForm = candleImportFields.extend({
  utc_offset_minutes: candleImportFields.shape.utc_offset_minutes.meta({
    description:
      "The zone of the file's times in minutes from UTC (-300: EST); by default UTC for MT5 and Dukascopy, -300 for HistData.",
  }),
  file: z.file().meta({
    description: `M1 bars, at most 10 MB: ${Object.values(CANDLE_CSV_FORMATS).join('; ')}.`,
  }),
});

export const candleImportResult = z.object({
  symbol: z.string(),
  format: z.enum(['mt5', 'histdata', 'dukascopy']),
  bars: z.number().int(),
  /** First and last bar's open instant. */
  first: z.string(),
  last: z.string(),
  /** Months ('YYYY-MM') written. */
  months: z.array(z.string()),
});
export type CandleImportResult = z.infer<typeof candleImportResult>;
