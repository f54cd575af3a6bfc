/** Row types of the reports' copy of closed trades (migration 0096). Same storage rules as schema.ts. */
export interface ReportFactsTable {
  account_id: string;
  /** 'YYYY-MM' = substr(closed_at, 1, 7). */
  month: string;
  /** Raised by triggers on every write a report reads; the default 1 on insert. */
  version?: number;
  /** The version `data` and `trade_data` were built from (0: never built). */
  built_version?: number;
  /** See modules/reports/reports.facts-codec.ts. */
  data: Uint8Array | null;
  trade_data: Uint8Array | null;
}

export interface ReportExcursionsTable {
  account_id: string;
  month: string;
  /** The report_facts built_version the month's trades were read at. */
  facts_version: number;
  /** The candle months (source, version) the trades were measured on. */
  candles_key: string;
  /** See modules/reports/reports.excursions-codec.ts. */
  data: Uint8Array;
}
