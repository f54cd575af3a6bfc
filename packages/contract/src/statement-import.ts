import { z } from 'zod';
import { text } from './common';

/**
 * POST /api/history/accounts/{id}/import/ — a broker statement into the account's history.
 *
 * multipart/form-data with one "file" (at most STATEMENT_MAX_BYTES), its format recognised from
 * its content (STATEMENT_FORMATS). Query: `dry_run=1` answers the preview and writes nothing;
 * `time_zone` is the zone of the statement's times (the broker server's clock: an IANA name or
 * 'FX', New York + 7 h, the clock of most MT4/MT5 brokers); without it the statement's own zone
 * when it states one (cTrader's "(UTC+3)" headers), else 'FX' for MetaTrader and 'UTC' for cTrader.
 * The preview and the import answer the same StatementImport; `imported` is null on a dry run.
 * Trades and deals are matched by the broker's ids: importing the same statement again changes
 * nothing. A file of no accepted format answers 400 naming the accepted formats.
 */

export const STATEMENT_MAX_BYTES = 20 * 1024 * 1024;

export const STATEMENT_FORMATS = {
  mt5_report_html: 'MT5 terminal Report (HTML, Positions/Orders/Deals)',
  mt5_report_xlsx: 'MT5 terminal Report (XLSX)',
  mt5_deals_csv: 'MT5 Deals CSV (terminal script export)',
  mt4_statement_html: 'MT4 Detailed Statement (HTML)',
  ctrader_history_csv: 'cTrader History (CSV)',
  ctrader_history_xlsx: 'cTrader History (XLSX)',
} as const;
export type StatementFormat = keyof typeof STATEMENT_FORMATS;
const formatNames = Object.keys(STATEMENT_FORMATS) as [StatementFormat, ...StatementFormat[]];

/** The zones the import screen offers; any IANA zone is accepted. */
export const STATEMENT_TIME_ZONES = [
  { value: 'FX', label: 'Broker server time: UTC+2, UTC+3 in US summer (most MT brokers)' },
  { value: 'UTC', label: 'UTC' },
  { value: 'Etc/GMT-2', label: 'UTC+2 all year' },
  { value: 'Etc/GMT-3', label: 'UTC+3 all year' },
  { value: 'Europe/Athens', label: 'Eastern European Time (EET/EEST)' },
  { value: 'Europe/London', label: 'London (GMT/BST)' },
  { value: 'Europe/Berlin', label: 'Central European Time (CET/CEST)' },
  { value: 'America/New_York', label: 'New York (EST/EDT)' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
  { value: 'Australia/Sydney', label: 'Sydney' },
] as const;

export const STATEMENT_MESSAGES = {
  notMultipart: 'Send the statement as multipart/form-data with a "file" field.',
  noFile: 'Choose a statement file to import.',
  tooLarge: `The statement is larger than ${STATEMENT_MAX_BYTES / 1024 / 1024} MB.`,
  unknownFormat: `This file is not a statement we can read. Accepted formats: ${Object.values(STATEMENT_FORMATS).join('; ')}.`,
  badZone: 'Unknown time zone.',
  noTrades: 'The statement holds no deals to import.',
} as const;

export const statementImportQuery = z.object({
  dry_run: z.enum(['0', '1', 'true', 'false']).optional(),
  time_zone: text().min(1).max(64).optional(),
});
export type StatementImportQuery = z.infer<typeof statementImportQuery>;

/** The multipart/form-data body of an import, for the OpenAPI document. */
export const statementImportForm = z.object({
  file: z.file().meta({
    description: `At most ${STATEMENT_MAX_BYTES / 1024 / 1024} MB: ${Object.values(STATEMENT_FORMATS).join('; ')}. The format is recognised from the content.`,
  }),
});

/** One trade as the statement gives it (times in UTC with the zone applied). */
export const statementRow = z.object({
  position_id: z.string(),
  /** The symbol as filed (the account's spelling) and as the statement wrote it. */
  instrument: z.string(),
  statement_symbol: z.string(),
  direction: z.enum(['BUY', 'SELL']),
  lot_size: z.number(),
  entry_price: z.number(),
  close_price: z.number().nullable(),
  opened_at: z.string(),
  closed_at: z.string().nullable(),
  /** Profit + commission + swap, account currency. */
  profit_loss: z.number(),
  commission: z.number(),
  swap: z.number(),
  deals: z.number().int(),
  /** 'new', 'known' (already in the history: nothing changes) or 'open' (left to the broker sync). */
  status: z.enum(['new', 'known', 'open']),
});
export type StatementRow = z.infer<typeof statementRow>;

export const statementImport = z.object({
  dry_run: z.boolean(),
  format: z.enum(formatNames),
  format_label: z.string(),
  /** The zone the times were read in, and the one the statement states itself, if any. */
  time_zone: z.string(),
  detected_time_zone: z.string().nullable(),
  /** First and last deal (UTC), null when the statement has none. */
  from: z.string().nullable(),
  to: z.string().nullable(),
  counts: z.object({
    /** Closed trades in the statement, of which `new_trades` are not in the history yet. */
    trades: z.number().int(),
    new_trades: z.number().int(),
    known_trades: z.number().int(),
    /** Positions still open at the statement's end: not imported, the broker sync files them. */
    open_positions: z.number().int(),
    deals: z.number().int(),
    deposits: z.number().int(),
    withdrawals: z.number().int(),
  }),
  /** Money moved in and out of the account (never trades), account currency. */
  deposits_total: z.number(),
  withdrawals_total: z.number(),
  /** The first rows, oldest first (at most STATEMENT_PREVIEW_ROWS). */
  rows: z.array(statementRow),
  warnings: z.array(z.string()),
  /** What the import wrote; null on a dry run. */
  imported: z
    .object({
      new_trades: z.number().int(),
      new_deals: z.number().int(),
      updated_trades: z.number().int(),
    })
    .nullable(),
});
export type StatementImport = z.infer<typeof statementImport>;

export const STATEMENT_PREVIEW_ROWS = 10;
