import { z } from 'zod';
import { isTimeZone } from '@tradedesk/domain';
import { connectionState } from './accounts';

export const ACCOUNT_SUMMARY_MESSAGES = {
  badTimeZone: 'Time zone must be an IANA name such as Europe/Berlin or UTC.',
} as const;

/**
 * `GET /api/accounts/{id}/summary/?tz=Europe/Berlin`: the dashboard's account strip. `tz` is the
 * trader's time zone (without it, the zone saved at `/api/users/me/settings/`, else UTC); "today" is
 * the calendar day in it that contains `as_of`.
 */
export const accountSummaryQuery = z.object({
  tz: z
    .string()
    .max(64, ACCOUNT_SUMMARY_MESSAGES.badTimeZone)
    .refine(isTimeZone, ACCOUNT_SUMMARY_MESSAGES.badTimeZone)
    .optional(),
});
export type AccountSummaryQuery = z.infer<typeof accountSummaryQuery>;

/**
 * Figures of one account in its currency (domain `accountFigures`): balance, equity and margin as the
 * broker reports them; free margin = equity − margin; margin level = equity ÷ margin × 100 (null
 * without margin in use); open P/L = equity − balance; realised P/L today = profit, commission and
 * swap of every fill since `day_start`. `as_of` is the broker's clock (the simulator's for a SIM
 * account), which a chart uses as "now".
 */
export const accountSummary = z.object({
  id: z.string(),
  currency: z.string(),
  balance: z.number(),
  equity: z.number(),
  margin: z.number(),
  free_margin: z.number(),
  margin_level: z.number().nullable(),
  open_pl: z.number(),
  realised_pl_today: z.number(),
  open_positions: z.number().int(),
  day_start: z.string(),
  as_of: z.string(),
  connection_state: connectionState,
});
export type AccountSummary = z.infer<typeof accountSummary>;
