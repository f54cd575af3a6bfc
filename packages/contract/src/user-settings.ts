import { z } from 'zod';
import { isKnownTimeZone } from '@tradedesk/domain';

/** Longest zone name quoted back in an error (the IANA names are at most 32 characters). */
const QUOTE_MAX = 64;

export const USER_SETTINGS_MESSAGES = {
  unknownTimeZone: (zone: string) =>
    `"${zone.length > QUOTE_MAX ? `${zone.slice(0, QUOTE_MAX)}…` : zone}" is not a known time zone.`,
  fetchFailed: 'Failed to fetch your settings',
  updateFailed: 'Failed to save the time zone',
  updated: 'Time zone saved.',
} as const;

/**
 * `GET /api/users/me/settings/`: the signed-in user's own settings. `time_zone` is the trader's IANA
 * zone (null: none saved). Reports and the account strip read days, weekdays and hours in it when a
 * request sends no `tz`, and in UTC when neither is there.
 */
export const userSettings = z.object({
  time_zone: z.string().nullable(),
});
export type UserSettings = z.infer<typeof userSettings>;

/**
 * `PATCH /api/users/me/settings/`: the fields sent change, the others stay. `time_zone` must be one
 * of the runtime's IANA names (`Intl.supportedValuesOf('timeZone')`) or "UTC"; null clears it.
 */
export const userSettingsUpdate = z.object({
  time_zone: z
    .string()
    .refine(isKnownTimeZone, { error: (iss) => USER_SETTINGS_MESSAGES.unknownTimeZone(String(iss.input)) })
    .nullable()
    .optional(),
});
export type UserSettingsUpdate = z.infer<typeof userSettingsUpdate>;
