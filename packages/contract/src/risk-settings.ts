import { z } from 'zod';
import { text } from './common';
import { profitProfile } from './win-rate';

/** 'HH:MM:SS': hours 00-99, minutes and seconds 00-59. */
export const COOLDOWN_PATTERN = /^\d{2}:[0-5]\d:[0-5]\d$/;

/** Days after a change during which risk settings are read-only (spec: editable once per 7 days). */
export const RISK_SETTINGS_LOCK_DAYS = 7;

/** Defaults of an account whose settings were never saved: only the sizing default is set, no rule refuses. */
export const RISK_SETTINGS_DEFAULTS = {
  max_daily_loss: null,
  risk_percent: 0.5,
  max_trade_risk: null,
  max_open_positions: null,
  enforce_cooldowns: false,
  consecutive_loss_limit: 3,
  cooldown_period: '01:00:00',
  max_lot_size: null,
  max_open_trades_same_symbol: null,
} as const;

export const RISK_SETTINGS_MESSAGES = {
  cooldownFormat: 'Cooldown period must be in HH:MM:SS format.',
  locked: (until: string) =>
    `Risk settings can only be changed once every ${RISK_SETTINGS_LOCK_DAYS} days. They can be changed again after ${until}.`,
  profileNotFound: 'Profit profile not found.',
  fetchFailed: 'Failed to fetch risk settings',
  updateFailed: 'Failed to update risk settings',
  updated: 'Risk settings updated successfully.',
} as const;

const percent = z.number().finite().gt(0, 'Must be greater than 0.').max(100, 'Must be at most 100.');
const count = z.number().int('Must be a whole number.').min(0, 'Must be 0 or more.').max(1000);

/** The editable fields; a null limit switches that rule off. */
export const riskSettingsUpdate = z.object({
  max_daily_loss: percent.nullable(),
  risk_percent: percent,
  max_trade_risk: percent.nullable(),
  max_open_positions: count.nullable(),
  enforce_cooldowns: z.boolean(),
  consecutive_loss_limit: count.nullable(),
  cooldown_period: text().regex(COOLDOWN_PATTERN, RISK_SETTINGS_MESSAGES.cooldownFormat),
  max_lot_size: z.number().finite().gt(0, 'Must be greater than 0.').max(1_000_000).nullable(),
  max_open_trades_same_symbol: count.nullable(),
});
export type RiskSettingsUpdate = z.infer<typeof riskSettingsUpdate>;

export const riskSettingsPatch = z.object({
  /** The account's default take-profit profile; null clears it. */
  default_tp_profile_id: text().max(64).nullable(),
});
export type RiskSettingsPatch = z.infer<typeof riskSettingsPatch>;

export const riskSettings = riskSettingsUpdate.extend({
  account: z.string(),
  /** Last change of the editable fields (null: never changed); read-only for 7 days after. */
  last_updated: z.string().nullable(),
  /** When the settings become editable again, or null when they are editable now. */
  locked_until: z.string().nullable(),
  default_tp_profile_id: z.string().nullable(),
  default_tp_profile: profitProfile.nullable(),
});
export type RiskSettings = z.infer<typeof riskSettings>;
