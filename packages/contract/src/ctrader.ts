import { z } from 'zod';
import { text } from './common';

/** `GET /api/ctrader/api/ctrader/redirect/?account_id=` */
export const ctraderRedirectQuery = z.object({ account_id: text().min(1).max(64) });
export const ctraderRedirectResponse = z.object({ redirect_url: z.string() });
export type CTraderRedirectResponse = z.infer<typeof ctraderRedirectResponse>;

/** What cTrader's consent page appends to our redirect URI. */
export const ctraderCallbackQuery = z.object({
  code: text().max(2000).optional(),
  state: text().max(4000).optional(),
  error: text().max(500).optional(),
  error_description: text().max(2000).optional(),
});

/** One entry of the `accounts` JSON the callback hands to /select-ctrader-account. */
export const ctraderAccountChoice = z.object({
  accountId: z.number(),
  accountNumber: z.number().nullable(),
  brokerName: z.string(),
  currency: z.string(),
  balance: z.number().nullable(),
  isLive: z.boolean(),
});
export type CTraderAccountChoice = z.infer<typeof ctraderAccountChoice>;

/**
 * `POST /api/ctrader/api/ctrader/select-account/`: `accountId` is the ctidTraderAccountId chosen on the
 * selection page; `account_id` (optional) is our trading account to bind it to, by default the
 * caller's most recently authorised cTrader account.
 */
export const ctraderSelectAccount = z.object({
  accountId: z.union([z.number().int().positive(), text().regex(/^\d{1,18}$/)]),
  account_id: text().min(1).max(64).optional(),
});
export type CTraderSelectAccount = z.infer<typeof ctraderSelectAccount>;
export const ctraderMessage = z.object({ message: z.string() });

/** `GET /api/ctrader/api/ctrader/account/{id}/`: the bound cTrader account, live from the Open API. */
export const ctraderAccountStatus = z.object({
  id: z.string(),
  ctid_trader_account_id: z.number(),
  is_live: z.boolean(),
  connection_state: z.string(),
  balance: z.number(),
  equity: z.number(),
  margin: z.number(),
  free_margin: z.number(),
  currency: z.string(),
  leverage: z.number(),
});
export type CTraderAccountStatus = z.infer<typeof ctraderAccountStatus>;

export const CTRADER_MESSAGES = {
  selected: 'Account selected and stored!',
  notConfigured:
    'cTrader is not configured on this server: set CTRADER_CLIENT_ID, CTRADER_CLIENT_SECRET and CTRADER_REDIRECT_URI (see docs/ctrader.md).',
  notCTrader: 'This account is not a cTrader account.',
  badState: 'The cTrader authorisation link is invalid or has expired. Please use Connect again.',
  missingCode: 'cTrader did not return an authorisation code.',
  noAuthorisedAccount: 'No authorised cTrader account: use Connect on a cTrader account first.',
  notGranted: 'This cTrader account was not granted to the app. Please use Connect again.',
  notBound: 'This cTrader account is not connected yet: use Connect and select a cTrader account.',
} as const;
