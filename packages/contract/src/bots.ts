import { z } from 'zod';

/** Bots, strategy versions, backtest configs and runs (spec sections 3 and 7, "Bots"). */
export const BOT_MESSAGES = {
  required: 'This field is required.',
  paramsJson: 'Invalid JSON in Parameters field. Please correct it.',
  riskJson: 'Invalid JSON in Risk JSON field. Please correct it.',
  windowRequired: 'Start and End dates are required.',
  windowOrder: 'The end of the data window must be after its start.',
  unknownTemplate: 'Unknown strategy template.',
  botNotFound: 'Bot not found.',
  versionNotFound: 'Bot version not found.',
  configNotFound: 'Backtest config not found.',
  runNotFound: 'Backtest run not found.',
  configVersionMismatch: 'The backtest config does not belong to this bot version.',
} as const;

export const bot = z.object({
  id: z.string(),
  name: z.string(),
  account_id: z.string(),
  strategy_template: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Bot = z.infer<typeof bot>;

/** Optional in the schema so that the service answers with field messages. */
export const botCreate = z.object({
  name: z.string().max(200).nullish(),
  account_id: z.string().max(64).nullish(),
  strategy_template: z.string().max(200).nullish(),
});

export const strategyTemplate = z.object({
  filename: z.string(),
  display_name: z.string(),
  content: z.string(),
  default_params: z.record(z.string(), z.number()),
});

export const botVersion = z.object({
  id: z.string(),
  bot: z.string(),
  bot_id: z.string(),
  strategy_file_content: z.string(),
  params: z.unknown(),
  notes: z.string(),
  code_hash: z.string(),
  created_at: z.string(),
});
export type BotVersion = z.infer<typeof botVersion>;

export const botVersionCreate = z.object({
  bot_id: z.string().max(64).nullish(),
  strategy_file_content: z.string().max(200_000).nullish(),
  /** A JSON object, or its text. */
  params: z.unknown().optional(),
  notes: z.string().max(10_000).nullish(),
});

export const TIMEFRAMES = ['M1', 'M5', 'M15', 'M30', 'H1', 'H4', 'D1'] as const;

/** risk_json: every field optional, defaults documented in docs/backtests.md. */
export const riskJson = z
  .object({
    symbol: z.string().min(1).max(40).default('EURUSD'),
    timeframe: z.enum(TIMEFRAMES).default('H1'),
    initial_balance: z.number().positive().max(1e12).default(10_000),
    currency: z.string().length(3).default('USD'),
    risk_per_trade_pct: z.number().positive().max(100).default(0.5),
    max_open_positions: z.number().int().min(1).max(100).default(1),
    commission_per_lot: z.number().min(0).max(10_000).default(0),
    spread_model: z
      .object({ type: z.literal('fixed'), pips: z.number().min(0).max(10_000) })
      .default({ type: 'fixed', pips: 1 }),
    leverage: z.number().positive().max(10_000).default(30),
  })
  .strict();
export type RiskJson = z.infer<typeof riskJson>;

export const backtestConfig = z.object({
  id: z.string(),
  bot_version: z.string(),
  label: z.string(),
  risk_json: z.unknown(),
  slippage_ms: z.number().int(),
  slippage_r: z.number(),
});
export type BacktestConfig = z.infer<typeof backtestConfig>;

export const backtestConfigWrite = z.object({
  bot_version: z.string().max(64).nullish(),
  label: z.string().max(200).nullish(),
  risk_json: z.unknown().optional(),
  slippage_ms: z.union([z.number(), z.string()]).nullish(),
  slippage_r: z.union([z.number(), z.string()]).nullish(),
});

export const backtestLaunch = z.object({
  bot_version_id: z.string().max(64).nullish(),
  backtest_config_id: z.string().max(64).nullish(),
  data_window_start: z.string().max(40).nullish(),
  data_window_end: z.string().max(40).nullish(),
});

export const RUN_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED'] as const;

/** One closing fill of a backtest trade closed in parts (targets, then the rest). */
export const backtestTradePart = z.object({
  exit_time: z.string(),
  exit_price: z.number(),
  volume: z.number(),
  pnl: z.number(),
  commission: z.number(),
  r: z.number(),
  exit_reason: z.enum(['sl', 'tp', 'signal', 'end']),
});

/**
 * One entry of a backtest: a trade closed in parts has its total pnl, commission and r, its last
 * part's exit, and `parts` (absent when it closed at once).
 */
export const backtestTrade = z.object({
  side: z.enum(['buy', 'sell']),
  entry_time: z.string(),
  entry_price: z.number(),
  exit_time: z.string(),
  exit_price: z.number(),
  volume: z.number(),
  sl: z.number().nullable(),
  tp: z.number().nullable(),
  pnl: z.number(),
  commission: z.number(),
  r: z.number(),
  exit_reason: z.enum(['sl', 'tp', 'signal', 'end']),
  entry_bar_exit: z.boolean(),
  parts: z.array(backtestTradePart).optional(),
});

export const backtestRun = z.object({
  id: z.string(),
  status: z.enum(RUN_STATUSES),
  bot_version: z.string(),
  bot_version_details: z.object({ bot_id: z.string() }),
  backtest_config: z.string(),
  backtest_config_details: z.object({ label: z.string() }),
  data_window_start: z.string(),
  data_window_end: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  error_message: z.string().nullable(),
  progress: z.number(),
  stats: z.record(z.string(), z.union([z.number(), z.string(), z.null()])).nullable(),
  equity_curve: z.array(z.object({ timestamp: z.string(), equity: z.number() })),
  timings: z.record(z.string(), z.number()).nullable(),
  warnings: z.record(z.string(), z.number()).nullable(),
});
export type BacktestRun = z.infer<typeof backtestRun>;

export const backtestRunDetail = backtestRun.extend({ trades: z.array(backtestTrade) });
export type BacktestRunDetail = z.infer<typeof backtestRunDetail>;
