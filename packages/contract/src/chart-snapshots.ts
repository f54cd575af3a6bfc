import { z } from 'zod';
import { CHART_TIMEFRAME_NAMES } from './candles';
import { journalAttachment } from './journal';

/**
 * Chart snapshot templates ("Indicator template" in the spec) and snapshot tasks.
 *
 * `indicator_settings` holds the spec's six indicators and a VWAP overlay. Anything left out takes the default,
 * so `{}` is a complete template; a numeric field sent as null (an emptied form input) is kept as null
 * and drawn with the default. Colours are stored as `rgb(r, g, b)` (the form edits them as hex).
 */

export const SNAPSHOT_MESSAGES = {
  symbolRequired: 'Symbol is required for automated snapshot when a configuration is selected.',
  timeframeRequired: 'At least one timeframe must be selected for automated snapshot.',
  tooManyTimeframes: 'No more than 5 timeframes can be selected for automated snapshot.',
  maxHint: 'Maximum 5 timeframes selected.',
  noneHint: 'Please select at least one timeframe.',
  deleted: 'Configuration deleted successfully',
  nameRequired: 'Template name is required.',
  colour: 'Use a colour written as rgb(r, g, b).',
  notOwner: 'Only the owner of this template may change or delete it.',
  notFound: 'Configuration not found.',
  journalNotFound: 'Journal entry not found.',
  noAccount: 'You have no trading account to draw the chart from.',
  noCandles: 'No candles for this symbol and timeframe.',
} as const;

/** The spec's snapshot timeframes are its chart timeframes, in its order; some are ticked by default. */
export const SNAPSHOT_TIMEFRAMES = CHART_TIMEFRAME_NAMES;
export const snapshotTimeframe = z.enum(SNAPSHOT_TIMEFRAMES);
export type SnapshotTimeframe = z.infer<typeof snapshotTimeframe>;
export const DEFAULT_SNAPSHOT_TIMEFRAMES: SnapshotTimeframe[] = ['5m', '15m', '1h', '4h', '1D'];
export const DEFAULT_SNAPSHOT_SYMBOLS = ['USDJPY', 'AUDUSD', 'EURUSD', 'GBPUSD', 'XAUUSD', 'US100'];
export const MAX_SNAPSHOT_TIMEFRAMES = 5;

export const SNAPSHOT_PRICE_SOURCES = ['open', 'high', 'low', 'close', 'hl2', 'hlc3', 'ohlc4'] as const;
export const priceSourceName = z.enum(SNAPSHOT_PRICE_SOURCES);
export const RSI_SMOOTHING = ['SMA', 'EMA', 'WMA'] as const;

const RGB = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(?:0|1|0?\.\d+)\s*)?\)$/;
export const rgbColour = z
  .string()
  .max(40)
  .refine((s) => {
    const m = RGB.exec(s);
    return !!m && [m[1], m[2], m[3]].every((v) => Number(v) <= 255);
  }, SNAPSHOT_MESSAGES.colour);

/** `rgb(r, g, b)` to `#rrggbb` for a colour input; null when the text is not an rgb colour. */
export function rgbToHex(rgb: string): string | null {
  const m = RGB.exec(rgb.trim());
  if (!m) return null;
  return `#${[m[1], m[2], m[3]].map((v) => Math.min(255, Number(v)).toString(16).padStart(2, '0')).join('')}`;
}

/** `#rrggbb` (or `#rgb`) to the stored `rgb(r, g, b)`; null when the text is not a hex colour. */
export function hexToRgb(hex: string): string | null {
  let h = hex.trim().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/i.test(h)) h = [...h].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}$/i.test(h)) return null;
  const n = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  return `rgb(${n.join(', ')})`;
}

/** A length in bars: a whole number, or null to draw with the default. */
const length = (def: number) => z.number().int().min(1).max(500).nullable().default(def);
const lineWidth = (def: number) => z.number().min(0).max(10).nullable().default(def);
const level = (def: number) => z.number().min(0).max(100).nullable().default(def);
const colour = (def: string) => rgbColour.default(def);
const visible = (def: boolean) => z.boolean().default(def);

/** The default colour of the n-th EMA line (cycled). */
export const EMA_COLOURS = [
  'rgb(41, 98, 255)',
  'rgb(255, 109, 0)',
  'rgb(156, 39, 176)',
  'rgb(0, 150, 136)',
  'rgb(233, 30, 99)',
  'rgb(121, 85, 72)',
];
export const DEFAULT_EMA_PERIODS = [21, 50, 100];

export const emaOverride = z.object({
  'Plot.color': colour(EMA_COLOURS[0]!),
  'Plot.linewidth': lineWidth(1),
});
export type EmaOverride = z.infer<typeof emaOverride>;
export const defaultEmaOverride = (index: number): EmaOverride => ({
  'Plot.color': EMA_COLOURS[index % EMA_COLOURS.length]!,
  'Plot.linewidth': 1,
});

export const emaSettings = z.object({
  enabled: z.boolean().default(true),
  periods: z.array(z.number().int().min(1).max(500).nullable()).max(10).default(DEFAULT_EMA_PERIODS),
  source: priceSourceName.default('close'),
  /** One per period, in the same order; missing ones take the default colour of their place. */
  overrides: z.array(emaOverride).max(10).optional(),
});

export const dmiSettings = z.object({
  enabled: z.boolean().default(true),
  di_length: length(14),
  adx_smoothing: length(14),
  overrides: z
    .object({
      '+DI.color': colour('rgb(0, 150, 136)'),
      '+DI.linewidth': lineWidth(1),
      '+DI.visible': visible(true),
      '-DI.color': colour('rgb(244, 67, 54)'),
      '-DI.linewidth': lineWidth(1),
      '-DI.visible': visible(true),
      'ADX.color': colour('rgb(255, 152, 0)'),
      'ADX.linewidth': lineWidth(1.5),
      'ADX.visible': visible(true),
    })
    .prefault({}),
});

export const stochRsiSettings = z.object({
  enabled: z.boolean().default(true),
  rsi_length: length(14),
  stoch_length: length(14),
  k_smooth: length(3),
  d_smooth: length(3),
  overrides: z
    .object({
      '%K.color': colour('rgb(41, 98, 255)'),
      '%K.linewidth': lineWidth(1),
      '%D.color': colour('rgb(255, 109, 0)'),
      '%D.linewidth': lineWidth(1),
      'UpperLimit.value': level(80),
      'LowerLimit.value': level(20),
    })
    .prefault({}),
});

export const rsiSettings = z.object({
  enabled: z.boolean().default(false),
  length: length(14),
  smoothingLine: z.enum(RSI_SMOOTHING).default('SMA'),
  smoothingLength: length(14),
  overrides: z
    .object({
      'Plot.color': colour('rgb(126, 87, 194)'),
      'Plot.linewidth': lineWidth(1),
      'UpperLimit.value': level(70),
      'LowerLimit.value': level(30),
      'MiddleLimit.value': level(50),
      'MiddleLimit.visible': visible(false),
    })
    .prefault({}),
});

export const macdSettings = z.object({
  enabled: z.boolean().default(false),
  fast_length: length(12),
  slow_length: length(26),
  signal_length: length(9),
  source: priceSourceName.default('close'),
  overrides: z
    .object({
      'MACD.color': colour('rgb(41, 98, 255)'),
      'MACD.linewidth': lineWidth(1),
      'Signal.color': colour('rgb(255, 109, 0)'),
      'Signal.linewidth': lineWidth(1),
      'Histogram.color': colour('rgb(38, 166, 154)'),
    })
    .prefault({}),
});

export const cmfSettings = z.object({
  enabled: z.boolean().default(false),
  length: length(20),
  overrides: z
    .object({
      'Plot.color': colour('rgb(67, 160, 71)'),
      'Plot.linewidth': lineWidth(1),
    })
    .prefault({}),
});

/** Where the VWAP restarts: the trading day (00:00 UTC, as D1 bars), the FX week (Sunday 22:00 UTC, as W1 bars) or the calendar month. */
export const VWAP_ANCHORS = ['Session', 'Week', 'Month'] as const;
export const vwapAnchor = z.enum(VWAP_ANCHORS);
export type VwapAnchor = z.infer<typeof vwapAnchor>;
/** A multiple of σ for one VWAP band. */
const bandMultiple = (def: number) => z.number().min(0).max(10).nullable().default(def);

/**
 * Session-anchored VWAP on the price pane, with up to three σ bands (TradingView's VWAP indicator,
 * "Standard Deviation" bands). Not among the spec's indicators, so it is off by default: a template
 * saved before it existed, or one that leaves it out, draws exactly what it drew before.
 */
export const vwapSettings = z.object({
  enabled: z.boolean().default(false),
  anchor: vwapAnchor.default('Session'),
  source: priceSourceName.default('hlc3'),
  band_1_multiplier: bandMultiple(1),
  band_2_multiplier: bandMultiple(2),
  band_3_multiplier: bandMultiple(3),
  overrides: z
    .object({
      'VWAP.color': colour('rgb(0, 151, 167)'),
      'VWAP.linewidth': lineWidth(1.5),
      'Band #1.visible': visible(false),
      'Band #1.color': colour('rgb(76, 175, 80)'),
      'Band #2.visible': visible(false),
      'Band #2.color': colour('rgb(128, 128, 0)'),
      'Band #3.visible': visible(false),
      'Band #3.color': colour('rgb(0, 137, 123)'),
      'Bands.linewidth': lineWidth(1),
    })
    .prefault({}),
});
export type VwapSettings = z.infer<typeof vwapSettings>;

export const indicatorSettings = z.object({
  emas: emaSettings.prefault({}),
  dmi: dmiSettings.prefault({}),
  stoch_rsi: stochRsiSettings.prefault({}),
  rsi: rsiSettings.prefault({}),
  macd: macdSettings.prefault({}),
  cmf: cmfSettings.prefault({}),
  vwap: vwapSettings.prefault({}),
});
export type IndicatorSettings = z.infer<typeof indicatorSettings>;
export type IndicatorSettingsInput = z.input<typeof indicatorSettings>;

/** The spec's defaults: what `{}` becomes. */
export const defaultIndicatorSettings = (): IndicatorSettings =>
  normalizeIndicatorSettings(indicatorSettings.parse({}));

/** Keeps the EMA overrides in step with the periods: one per period, missing ones defaulted. */
export function normalizeIndicatorSettings(s: IndicatorSettings): IndicatorSettings {
  const given = s.emas.overrides ?? [];
  const overrides = s.emas.periods.map((_, i) => given[i] ?? defaultEmaOverride(i));
  return { ...s, emas: { ...s.emas, overrides } };
}

export const snapshotConfigWrite = z.object({
  name: z.string().max(100).nullable().optional(),
  is_global: z.boolean().default(false),
  indicator_settings: indicatorSettings.prefault({}),
});
export type SnapshotConfigWrite = z.input<typeof snapshotConfigWrite>;

export const snapshotConfig = z.object({
  id: z.string(),
  name: z.string(),
  is_global: z.boolean(),
  /** The owner's user id. */
  user: z.string(),
  indicator_settings: indicatorSettings,
  created_at: z.string(),
  updated_at: z.string(),
});
export type SnapshotConfig = z.infer<typeof snapshotConfig>;

export const CHART_THEMES = ['light', 'dark'] as const;
export const chartTheme = z.enum(CHART_THEMES);
export type ChartTheme = z.infer<typeof chartTheme>;

export const snapshotExecute = z.object({
  symbol: z.string().trim().min(1).max(40),
  timeframe: snapshotTimeframe,
  theme: chartTheme.default('light'),
});
export type SnapshotExecute = z.input<typeof snapshotExecute>;

/** Loose fields so that the service answers with the spec's own messages. */
export const snapshotRequest = z.object({
  journal_entry_id: z.string().min(1).max(64),
  config_id: z.string().min(1).max(64),
  symbol: z.string().max(40).nullable().optional(),
  timeframes: z.array(snapshotTimeframe).max(20).default([]),
  theme: chartTheme.default('light'),
});
export type SnapshotRequest = z.input<typeof snapshotRequest>;

export const snapshotRequestAccepted = z.object({ task_id: z.string() });

export const SNAPSHOT_TASK_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const;
export const snapshotTaskStatus = z.enum(SNAPSHOT_TASK_STATUSES);
export type SnapshotTaskStatus = z.infer<typeof snapshotTaskStatus>;

export const snapshotTask = z.object({
  task_id: z.string(),
  status: snapshotTaskStatus,
  error: z.string().nullable(),
  journal_entry_id: z.string(),
  symbol: z.string(),
  timeframes: z.array(snapshotTimeframe),
  attachments: z.array(journalAttachment),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SnapshotTask = z.infer<typeof snapshotTask>;
