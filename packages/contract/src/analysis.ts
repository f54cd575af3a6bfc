import { z } from 'zod';

export const INSTRUMENT_DATA_STATUSES = [
  'PENDING_INITIAL_DOWNLOAD',
  'AVAILABLE',
  'UPDATING',
  'ERROR',
] as const;
export type InstrumentDataStatus = (typeof INSTRUMENT_DATA_STATUSES)[number];

export const ANALYSIS_TYPES = ['TREND_CONTINUATION', 'VWAP_CONDITIONAL', 'ATR_SCENARIO'] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

export const ANALYSIS_TIMEFRAMES = ['M1', 'M5', 'M15', 'H1', 'H4', 'D1', 'W1', 'MN1'] as const;
export type AnalysisTimeframe = (typeof ANALYSIS_TIMEFRAMES)[number];

export const ANALYSIS_JOB_STATUSES = [
  'PENDING',
  'FETCHING_DATA',
  'RESAMPLING_DATA',
  'CALCULATING_INDICATORS',
  'RUNNING_ANALYSIS',
  'COMPLETED_SUCCESS',
  'COMPLETED_FAIL',
] as const;
export type AnalysisJobStatus = (typeof ANALYSIS_JOB_STATUSES)[number];

export const analysisInstrument = z.object({
  symbol: z.string(),
  exchange: z.string(),
  data_status: z.enum(INSTRUMENT_DATA_STATUSES),
  base_timeframe: z.string(),
  last_updated: z.string().nullable(),
  /** Why the last download failed (data_status ERROR). */
  error_message: z.string().nullable(),
});
export type AnalysisInstrument = z.infer<typeof analysisInstrument>;

/** Optional fields so that the service answers with the spec's own message. */
export const analysisInstrumentCreate = z.object({
  symbol: z.string().max(40).optional().nullable(),
  /** The trading account whose platform supplies the history; the simulator by default. */
  account_id: z.string().max(64).optional().nullable(),
  /** `csv`: the M1 candles the user imported for the symbol (POST /api/market/candles/import/). */
  source: z.enum(['csv']).optional().nullable(),
});
export type AnalysisInstrumentCreate = z.infer<typeof analysisInstrumentCreate>;

export const sessionWindowInput = z.object({
  name: z.string().trim().min(1).max(40),
  start_hour: z.number().min(0).max(24),
  end_hour: z.number().min(0).max(24),
});

export const analysisParameters = z
  .object({
    /** Trading sessions (UTC hours), replacing Asia 0–7, London 7–14, New York 14–23. */
    sessions: z.array(sessionWindowInput).min(2).max(6).optional(),
  })
  .strict();
export type AnalysisParameters = z.infer<typeof analysisParameters>;

export const analyzeRequest = z.object({
  instrument_symbol: z.string().max(40).optional().nullable(),
  analysis_type: z.string().max(40).optional().nullable(),
  target_timeframe: z.string().max(8).optional().nullable(),
  /** ISO 8601 date (YYYY-MM-DD, midnight UTC) or instant. */
  start_date: z.string().max(40).optional().nullable(),
  end_date: z.string().max(40).optional().nullable(),
  parameters: analysisParameters.optional().nullable(),
});
export type AnalyzeRequest = z.infer<typeof analyzeRequest>;

export const analysisJob = z.object({
  job_id: z.string(),
  analysis_type: z.enum(ANALYSIS_TYPES),
  instrument_symbol: z.string(),
  target_timeframe: z.enum(ANALYSIS_TIMEFRAMES),
  start_date: z.string(),
  end_date: z.string(),
  status: z.enum(ANALYSIS_JOB_STATUSES),
  /** 0–100 */
  progress: z.number(),
  error_message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AnalysisJob = z.infer<typeof analysisJob>;

export const analysisJobStatus = analysisJob.pick({
  job_id: true,
  status: true,
  progress: true,
  error_message: true,
  updated_at: true,
});
export type AnalysisJobStatusBody = z.infer<typeof analysisJobStatus>;

/** A table cell: a number, a text, nothing, or a link inside the app (`href` a path such as /win-rate?...). */
export const tableCell = z.union([
  z.number(),
  z.string(),
  z.null(),
  z.object({ text: z.string(), href: z.string().regex(/^\/(?!\/)/) }),
]);
export type TableCell = z.infer<typeof tableCell>;

export const tableComponent = z.object({
  type: z.literal('table'),
  title: z.string(),
  data: z.object({
    columns: z.array(z.object({ key: z.string(), label: z.string() })),
    rows: z.array(z.record(z.string(), tableCell)),
  }),
});
export const keyValueComponent = z.object({
  type: z.literal('key_value_pairs'),
  title: z.string(),
  data: z.array(z.object({ key: z.string(), value: z.union([z.string(), z.number(), z.null()]) })),
});
export const svgComponent = z.object({
  type: z.literal('image_svg'),
  title: z.string(),
  data: z.object({ svg_content: z.string() }),
});
export const resultComponent = z.discriminatedUnion('type', [
  tableComponent,
  keyValueComponent,
  svgComponent,
]);
export type ResultComponent = z.infer<typeof resultComponent>;
export type TableComponent = z.infer<typeof tableComponent>;
export type KeyValueComponent = z.infer<typeof keyValueComponent>;

export const analysisResult = z.object({
  generated_at: z.string(),
  analysis_display_name: z.string(),
  result_data: z.object({ components: z.array(resultComponent) }),
});
export type AnalysisResult = z.infer<typeof analysisResult>;

export const ANALYSIS_MESSAGES = {
  symbolRequired: 'Instrument symbol is required.',
  allFieldsRequired: 'All fields are required.',
  endAfterStart: 'End date must be after start date.',
  jobNotFound: 'Job Not Found.',
} as const;

export const ANALYSIS_DISPLAY_NAMES: Record<AnalysisType, string> = {
  TREND_CONTINUATION: 'Trend Continuation',
  VWAP_CONDITIONAL: 'VWAP Conditional',
  ATR_SCENARIO: 'ATR Scenario',
};
