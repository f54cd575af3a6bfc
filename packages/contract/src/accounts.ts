import { z } from 'zod';
import { text } from './common';

export const platform = z.enum(['MT5', 'cTrader', 'SIM']);
export type PlatformName = z.infer<typeof platform>;

export const connectionState = z.enum(['disconnected', 'connecting', 'connected', 'reconnecting', 'error']);

/** A trading account as every endpoint returns it: the password is write-only and never appears. */
export const tradingAccount = z.object({
  id: z.string(),
  name: z.string(),
  broker: z.string(),
  platform,
  username: z.string(),
  account_number: z.string().nullable(),
  broker_server: z.string().nullable(),
  currency: z.string(),
  leverage: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TradingAccount = z.infer<typeof tradingAccount>;

/** Fields are optional so that the service answers with the spec's own messages. */
export const accountCreate = z.object({
  name: text().max(100).optional().nullable(),
  platform,
  broker: text().max(100).optional().nullable(),
  username: text().max(100).optional().nullable(),
  password: text().max(200).optional().nullable(),
  account_number: z
    .union([text().max(40), z.number().int().nonnegative()])
    .optional()
    .nullable(),
  broker_server: text().max(200).optional().nullable(),
  /** SIM only: account currency (default USD), opening balance (default 10000) and leverage (default 100). */
  currency: text().max(10).optional().nullable(),
  balance: z.number().positive().max(1_000_000_000).optional().nullable(),
  leverage: z.number().int().min(1).max(1000).optional().nullable(),
});
export type AccountCreate = z.infer<typeof accountCreate>;

/** A blank or missing password keeps the stored one. */
export const accountUpdate = z.object({
  name: text().max(100).optional().nullable(),
  broker: text().max(100).optional().nullable(),
  username: text().max(100).optional().nullable(),
  password: text().max(200).optional().nullable(),
  account_number: z
    .union([text().max(40), z.number().int().nonnegative()])
    .optional()
    .nullable(),
  broker_server: text().max(200).optional().nullable(),
});
export type AccountUpdate = z.infer<typeof accountUpdate>;

export const accountDetails = z.object({
  id: z.string(),
  balance: z.number(),
  equity: z.number(),
  margin: z.number(),
  free_margin: z.number(),
  currency: z.string(),
  leverage: z.number(),
  connection_state: connectionState,
});
export type AccountDetails = z.infer<typeof accountDetails>;

export const mt5AccountDetails = z.object({
  account_number: z.string().nullable(),
  broker_server: z.string().nullable(),
  username: z.string(),
});
export type Mt5AccountDetails = z.infer<typeof mt5AccountDetails>;

/**
 * Whether the symbol's market is open now, as the broker's timetable says (the simulator knows it;
 * other platforms may not, and then send nothing). Instants are UTC ISO-8601: while closed,
 * `next_open` is when it opens again; while open, `next_close` is when it next closes (null: never).
 */
export const marketSession = z.object({
  open: z.boolean(),
  next_open: z.string().nullable(),
  next_close: z.string().nullable(),
});
export type MarketSessionBody = z.infer<typeof marketSession>;

export const symbolInfo = z.object({
  symbol: z.string(),
  description: z.string(),
  digits: z.number().int(),
  pip_size: z.number(),
  tick_size: z.number(),
  contract_size: z.number(),
  base_currency: z.string(),
  quote_currency: z.string(),
  volume_min: z.number(),
  volume_step: z.number(),
  volume_max: z.number(),
  /** The market's session now (`GET /trades/symbol-info/...` only, when the broker knows it). */
  market: marketSession.optional(),
});
export type SymbolInfoBody = z.infer<typeof symbolInfo>;

/** `GET /api/trades/symbols/{account}/`: every symbol the account's broker trades. */
export const symbolList = z.array(symbolInfo);
export type SymbolList = z.infer<typeof symbolList>;

/** One message of the `/ws/prices/{account}/{symbol}` stream. */
export const priceMessage = z.object({
  bid: z.number(),
  ask: z.number(),
  time: z.string(),
  /** The market's session when the quote was sent; a message also comes when the market closes. */
  market: marketSession.optional(),
});
export type PriceMessage = z.infer<typeof priceMessage>;

/**
 * Close codes of the price WebSocket: 4401 no or bad token, 4404 not your account or unknown symbol,
 * 4502 broker down, 1012 the account's broker link was replaced or removed (reconnect to get the new one).
 */
export const WS_CLOSE = {
  unauthorized: 4401,
  notFound: 4404,
  brokerDown: 4502,
  accountChanged: 1012,
} as const;

export const ACCOUNT_MESSAGES = {
  nameRequired: 'This field is required.',
  mt5Incomplete: 'MT5 account details are incomplete.',
  createFailed: 'Failed to create account.',
  mt5DetailsFailed: 'Failed to retrieve MT5 account details.',
  notMt5: 'This is not an MT5 account.',
  unknownCurrency: 'Unsupported account currency.',
  defaultSimName: 'Demo',
} as const;
