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

export interface Database {
  users: UsersTable;
  watchlist_items: WatchlistItemsTable;
}
