/**
 * Row types of every table. Booleans are stored as integers (0/1) and instants as ISO 8601 text,
 * so that one set of queries runs unchanged on SQLite and PostgreSQL.
 */
export interface UsersTable {
  id: string;
  username: string;
  password_hash: string;
  is_staff: number;
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

export interface Database {
  users: UsersTable;
  watchlist_items: WatchlistItemsTable;
  trading_accounts: TradingAccountsTable;
}
