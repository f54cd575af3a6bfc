import { z } from 'zod';
import { text } from './common';

/**
 * `POST /api/mt5/connect/`: either the three MT5 details, or `account_id` of a stored MT5 account whose
 * details are used. Fields are optional in the schema so that the service answers with the spec's message.
 */
export const mt5ConnectRequest = z.object({
  account_id: text().max(64).optional().nullable(),
  account_number: z
    .union([text().max(32), z.number().int().nonnegative()])
    .optional()
    .nullable(),
  password: text().max(256).optional().nullable(),
  broker_server: text().max(128).optional().nullable(),
});
export type Mt5ConnectRequest = z.infer<typeof mt5ConnectRequest>;

/** An MT5 account as the bridge reports it (never the password). */
export const mt5AccountInfo = z.object({
  /** Our account id when the account is stored, null for a connect with raw details. */
  account_id: z.string().nullable(),
  login: z.number().int(),
  server: z.string(),
  name: z.string(),
  company: z.string(),
  currency: z.string(),
  leverage: z.number(),
  balance: z.number(),
  equity: z.number(),
  margin: z.number(),
  free_margin: z.number(),
  margin_level: z.number().nullable(),
  trade_mode: z.enum(['demo', 'contest', 'real']),
  margin_mode: z.enum(['hedging', 'netting']),
  connection_state: z.enum(['disconnected', 'connecting', 'connected', 'reconnecting', 'error']),
});
export type Mt5AccountInfo = z.infer<typeof mt5AccountInfo>;

export const mt5ConnectResponse = mt5AccountInfo.extend({ message: z.string() });
export type Mt5ConnectResponse = z.infer<typeof mt5ConnectResponse>;

export const MT5_MESSAGES = {
  incomplete: 'MT5 account details are incomplete.',
  connected: 'Connected to MT5.',
  connectFailed: 'Failed to connect to MT5.',
  detailsFailed: 'Failed to retrieve MT5 account details.',
  notConfigured: 'MT5 is not available: no MT5 bridge is configured on this server (MT5_BRIDGE_URL).',
  passwordUnreadable: 'The stored MT5 password cannot be read; save the account with its password again.',
} as const;
