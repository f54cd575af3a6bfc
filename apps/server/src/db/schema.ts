/**
 * Row types of every table. Booleans are stored as integers (0/1) and instants as ISO 8601 text,
 * so that one set of queries runs unchanged on SQLite and PostgreSQL.
 */
import type {
  BotsTable,
  BotVersionsTable,
  BacktestConfigsTable,
  BacktestRunsTable,
  CandleChunksTable,
  JobsTable,
  ChartSnapshotConfigsTable,
  SnapshotTasksTable,
  AnalysisInstrumentsTable,
} from './schema-work';
export type {
  BotsTable,
  BotVersionsTable,
  BacktestConfigsTable,
  BacktestRunsTable,
  CandleChunksTable,
  JobsTable,
  ChartSnapshotConfigsTable,
  SnapshotTasksTable,
  AnalysisInstrumentsTable,
} from './schema-work';
import type { LiveRunLogsTable, LiveRunsTable, LiveRunTradesTable } from './schema-live-runs';
export type { LiveRunLogsTable, LiveRunsTable, LiveRunTradesTable } from './schema-live-runs';
import type { ReportExcursionsTable, ReportFactsTable } from './schema-reports';
export type { ReportExcursionsTable, ReportFactsTable } from './schema-reports';
export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username, unique (migration 0060). */
  username_key: string | null;
  password_hash: string;
  is_staff: number;
  created_at: string;
}

/** A user's own settings; a user without a row has the defaults (migration 0098). */
export interface UserSettingsTable {
  user_id: string;
  /** IANA zone name or 'UTC'; null: none chosen (reports and the account strip use UTC). */
  time_zone: string | null;
  updated_at: string;
}

/** Login attempts per key in fixed one-minute windows (migration 0060). */
export interface LoginAttemptsTable {
  key: string;
  window_start: number;
  count: number;
}

/** Refresh tokens by SHA-256 hash, in rotation families (migration 0060). */
export interface RefreshTokensTable {
  id: string;
  token_hash: string;
  family_id: string;
  user_id: string;
  expires_at: number;
  used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** One row once the first user exists; its primary key admits exactly one bootstrap (migration 0060). */
export interface BootstrapMarkerTable {
  id: string;
  user_id: string | null;
  created_at: string;
}

export interface WatchlistItemsTable {
  id: string;
  user_id: string;
  scope: string;
  instrument: string;
  exchange: string;
  is_global: number;
  created_at: string;
}

export interface TradingAccountsTable {
  id: string;
  user_id: string;
  name: string;
  broker: string;
  platform: 'SIM' | 'MT5' | 'cTrader';
  username: string;
  password_enc: string | null;
  account_number: string | null;
  broker_server: string | null;
  currency: string;
  leverage: number;
  meta: string;
  created_at: string;
  updated_at: string;
}

/** Simulated broker state (migration 0003): money in integer minor units of the account currency. */
export interface SimAccountsTable {
  account_id: string;
  user_id: string;
  balance_minor: number;
  created_at: string;
  updated_at: string;
}

export interface SimBalanceHistoryTable {
  id: string;
  account_id: string;
  user_id: string;
  time: string;
  delta_minor: number;
  balance_minor: number;
  reason: 'DEPOSIT' | 'DEAL';
  deal_id: string | null;
}

export interface SimOrdersTable {
  id: string;
  account_id: string;
  user_id: string;
  client_order_id: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  kind: 'MARKET' | 'LIMIT';
  volume: number;
  limit_price: number | null;
  stop_loss: number | null;
  take_profit: number | null;
  stop_loss_distance: number | null;
  take_profit_distance: number | null;
  comment: string;
  status: 'PENDING' | 'FILLED' | 'CANCELLED';
  position_id: string | null;
  fill_price: number | null;
  filled_at: string | null;
  created_at: string;
}

export interface SimPositionsTable {
  id: string;
  account_id: string;
  user_id: string;
  order_id: string;
  client_order_id: string | null;
  symbol: string;
  side: 'BUY' | 'SELL';
  volume: number;
  entry_price: number;
  stop_loss: number | null;
  take_profit: number | null;
  commission_minor: number;
  swap_minor: number;
  opened_at: string;
}

export interface SimDealsTable {
  id: string;
  account_id: string;
  user_id: string;
  order_id: string;
  position_id: string;
  symbol: string;
  side: 'BUY' | 'SELL';
  entry: 'IN' | 'OUT';
  volume: number;
  price: number;
  profit_minor: number;
  commission_minor: number;
  swap_minor: number;
  reason: string;
  time: string;
}

/** Win-rate calculator and profit profiles (migration 0010), risk settings (migration 0011). */
export interface ProfitProfilesTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  /** JSON array of {r_multiple, size_pct}. */
  partial_targets: string;
  is_default: number;
  created_at: string;
  updated_at: string;
}

export interface WinRateScenariosTable {
  id: string;
  user_id: string;
  name: string;
  name_key: string;
  /** JSON of the calculator inputs. */
  inputs: string;
  created_at: string;
  updated_at: string;
}

export interface RiskSettingsTable {
  account_id: string;
  user_id: string;
  max_daily_loss: number | null;
  risk_percent: number;
  max_trade_risk: number | null;
  max_open_positions: number | null;
  enforce_cooldowns: number;
  consecutive_loss_limit: number | null;
  cooldown_period: string;
  max_lot_size: number | null;
  max_open_trades_same_symbol: number | null;
  default_tp_profile_id: string | null;
  last_updated: string | null;
  created_at: string;
  updated_at: string;
}

/** Trades, their deals and the execute idempotency ledger (migration 0030); journals (0031). */
export interface TradesTable {
  id: string;
  user_id: string;
  account_id: string;
  /** 'import': filed from a broker statement (modules/statement-import). */
  source: 'app' | 'external' | 'import';
  client_order_id: string;
  order_id: string | null;
  position_id: string | null;
  symbol: string;
  direction: 'BUY' | 'SELL';
  order_type: 'MARKET' | 'LIMIT';
  /** 'submitting' from just before the order leaves until the broker answered (or a reconcile settled it). */
  status: 'submitting' | 'pending' | 'open' | 'closed' | 'cancelled';
  volume: number;
  remaining_volume: number;
  limit_price: number | null;
  entry_price: number | null;
  stop_loss: number | null;
  take_profit: number | null;
  sl_distance: number | null;
  initial_risk_minor: number | null;
  risk_percent: number | null;
  rr_ratio: number | null;
  projected_profit_minor: number | null;
  projected_loss_minor: number | null;
  atr_multiplier: number | null;
  reason: string;
  trader: string;
  timeframe: string;
  /** JSON array of ManagedTarget, null for single-TP trades. */
  targets: string | null;
  currency: string;
  created_at: string;
  opened_at: string | null;
  closed_at: string | null;
  actual_pl_minor: number | null;
  updated_at: string;
}

export interface TradeDealsTable {
  id: string;
  trade_id: string;
  user_id: string;
  account_id: string;
  broker_deal_id: string;
  order_id: string | null;
  position_id: string | null;
  filled_at: string;
  order_type: string;
  direction: 'BUY' | 'SELL';
  entry: 'IN' | 'OUT';
  filled_price: number;
  filled_volume: number;
  profit_minor: number;
  commission_minor: number;
  swap_minor: number;
  deal_reason: string;
}

export interface TradeRequestsTable {
  user_id: string;
  idempotency_key: string;
  status: 'pending' | 'done';
  status_code: number | null;
  response: string | null;
  created_at: string;
  /** SHA-256 of the request body the key came with (migration 0050); null on older rows. */
  body_hash: string | null;
}

export interface TradeJournalsTable {
  id: string;
  user_id: string;
  trade_id: string;
  action: string;
  trade_timeframe: string;
  reason: string;
  details: string;
  strategy_tag: string;
  emotional_state: string;
  market_condition: string;
  created_at: string;
}

export interface JournalAttachmentsTable {
  id: string;
  user_id: string;
  journal_id: string;
  stored_name: string;
  original_name: string;
  content_type: string;
  size: number;
  created_at: string;
}

/** Per-account progress of the history sync (migration 0040). */
export interface HistorySyncStateTable {
  account_id: string;
  user_id: string;
  synced_to: string | null;
  last_run_at: string | null;
  last_error: string | null;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  user_settings: UserSettingsTable;
  watchlist_items: WatchlistItemsTable;
  trading_accounts: TradingAccountsTable;
  profit_profiles: ProfitProfilesTable;
  win_rate_scenarios: WinRateScenariosTable;
  risk_settings: RiskSettingsTable;
  sim_accounts: SimAccountsTable;
  sim_balance_history: SimBalanceHistoryTable;
  sim_orders: SimOrdersTable;
  sim_positions: SimPositionsTable;
  sim_deals: SimDealsTable;
  trades: TradesTable;
  trade_deals: TradeDealsTable;
  trade_requests: TradeRequestsTable;
  trade_journals: TradeJournalsTable;
  journal_attachments: JournalAttachmentsTable;
  history_sync_state: HistorySyncStateTable;
  bots: BotsTable;
  bot_versions: BotVersionsTable;
  backtest_configs: BacktestConfigsTable;
  backtest_runs: BacktestRunsTable;
  live_runs: LiveRunsTable;
  live_run_logs: LiveRunLogsTable;
  live_run_trades: LiveRunTradesTable;
  candle_chunks: CandleChunksTable;
  report_facts: ReportFactsTable;
  report_excursions: ReportExcursionsTable;
  jobs: JobsTable;
  chart_snapshot_configs: ChartSnapshotConfigsTable;
  snapshot_tasks: SnapshotTasksTable;
  analysis_instruments: AnalysisInstrumentsTable;
  login_attempts: LoginAttemptsTable;
  refresh_tokens: RefreshTokensTable;
  bootstrap_marker: BootstrapMarkerTable;
}
