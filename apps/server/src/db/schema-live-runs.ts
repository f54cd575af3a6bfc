/** Row types of bot live runs (migration 0095). Same storage rules as schema.ts. */
import type { ColumnType } from 'kysely';

export interface LiveRunsTable {
  id: string;
  user_id: string;
  bot_id: string;
  bot_version_id: string;
  account_id: string;
  /** JSON array of symbols. */
  symbols: string;
  timeframe: string;
  status: 'STARTING' | 'RUNNING' | 'STOPPING' | 'STOPPED' | 'FAILED';
  active_key: string | null;
  created_at: string;
  started_at: string | null;
  stopped_at: string | null;
  last_heartbeat: string | null;
  error_message: string | null;
  stop_reason: string | null;
  close_on_stop: number;
  /** JSON {symbol: open time ms of the last bar given to the strategy}. */
  cursor: string;
  /**
   * JSON list of the stop entries the run holds until the quote crosses them (migration 0097); '[]'
   * when an insert leaves it out.
   */
  armed_stops: ColumnType<string, string | undefined, string>;
  orders_count: number;
  refused_count: number;
  /** The server process running it, and until when its hold lasts without renewal. */
  lease_owner: string | null;
  lease_until: string | null;
}

export interface LiveRunLogsTable {
  run_id: string;
  seq: number;
  user_id: string;
  time: string;
  level: 'info' | 'warn' | 'error';
  message: string;
}

export interface LiveRunTradesTable {
  trade_id: string;
  run_id: string;
  user_id: string;
  symbol: string;
  bar_time: string;
  created_at: string;
}
