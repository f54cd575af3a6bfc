/**
 * Row types of the long-task and market-data tables: candle chunks, jobs, chart snapshots, analysis
 * instruments, bots and backtests. Same storage rules as schema.ts (0/1 booleans, ISO text instants).
 */
/** Trading bots (migration 0090); JSON columns hold text. */
export interface BotsTable {
  id: string;
  user_id: string;
  name: string;
  account_id: string;
  strategy_template: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface BotVersionsTable {
  id: string;
  user_id: string;
  bot_id: string;
  strategy_file_content: string;
  params: string;
  notes: string;
  code_hash: string;
  created_at: string;
}

export interface BacktestConfigsTable {
  id: string;
  user_id: string;
  bot_version_id: string;
  label: string;
  risk_json: string;
  slippage_ms: number;
  slippage_r: number;
  created_at: string;
}

export interface BacktestRunsTable {
  id: string;
  user_id: string;
  bot_version_id: string;
  backtest_config_id: string;
  status: 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  data_window_start: string;
  data_window_end: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  error_message: string | null;
  progress: number;
  stats: string | null;
  equity_curve: string | null;
  trades: string | null;
  timings: string | null;
  warnings: string | null;
}

/** The candle store (migration 0070): one month of one source, symbol and timeframe per row. */
export interface CandleChunksTable {
  source: string;
  symbol: string;
  timeframe: string;
  month: string;
  user_id: string | null;
  account_id: string | null;
  bar_count: number;
  covered_from: number;
  covered_to: number;
  data: Uint8Array;
  updated_at: string;
  /** Writes of the month so far, counted by the database (migration 0096): absent on insert. */
  version?: number;
}

/** Long tasks of every kind (migration 0080); see apps/server/src/jobs/. */
export interface JobsTable {
  id: string;
  kind: string;
  user_id: string;
  /** JSON */
  payload: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  stage: string | null;
  progress: number;
  /** JSON, set when the job succeeded */
  result: string | null;
  error: string | null;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_until: string | null;
  heartbeat_at: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Chart snapshot templates (migration 0075) and snapshot tasks (0076). */
export interface ChartSnapshotConfigsTable {
  id: string;
  user_id: string;
  name: string;
  is_global: number;
  /** JSON of the contract's IndicatorSettings. */
  indicator_settings: string;
  created_at: string;
  updated_at: string;
}

export interface SnapshotTasksTable {
  id: string;
  user_id: string;
  journal_id: string;
  account_id: string;
  config_name: string;
  indicator_settings: string;
  symbol: string;
  /** JSON array of snapshot timeframes. */
  timeframes: string;
  theme: string;
  anchor_at: string;
  /** JSON of {entry, stop_loss, take_profit, direction}. */
  levels: string;
  status: 'PENDING' | 'RUNNING' | 'COMPLETED' | 'FAILED';
  error: string | null;
  /** JSON array of the attachment ids made so far, in timeframe order. */
  attachment_ids: string;
  attempts: number;
  created_at: string;
  updated_at: string;
}

/** Instruments of the analysis screens (migration 0081). */
export interface AnalysisInstrumentsTable {
  id: string;
  user_id: string;
  symbol: string;
  exchange: string;
  source: 'sim' | 'account' | 'csv';
  account_id: string | null;
  data_status: 'PENDING_INITIAL_DOWNLOAD' | 'AVAILABLE' | 'UPDATING' | 'ERROR';
  base_timeframe: string;
  history_from: string | null;
  history_to: string | null;
  last_updated: string | null;
  error: string | null;
  created_at: string;
}
