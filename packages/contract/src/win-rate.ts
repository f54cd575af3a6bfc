import { z } from 'zod';
import { text } from './common';

/* ---------- Profit profiles: GET/POST /api/accounts/profit-profiles/ ---------- */

export const partialTarget = z.object({
  r_multiple: z.number(),
  size_pct: z.number(),
});
export type PartialTargetBody = z.infer<typeof partialTarget>;

export const profitProfile = z.object({
  id: z.string(),
  name: z.string(),
  partial_targets: z.array(partialTarget),
  is_default: z.boolean(),
  created_at: z.string(),
});
export type ProfitProfile = z.infer<typeof profitProfile>;

/**
 * Types only; the service checks the values so that it can answer with one clear detail
 * (sizes positive and adding up to 100, R multiples positive).
 */
export const profitProfileCreate = z.object({
  name: text().max(100).optional().nullable(),
  partial_targets: z.array(partialTarget).max(10, 'A profile has at most 10 targets.').optional().nullable(),
  is_default: z.boolean().optional(),
});
export type ProfitProfileCreate = z.infer<typeof profitProfileCreate>;

export const PROFIT_PROFILE_MESSAGES = {
  nameRequired: 'A profile needs a name.',
  targetsRequired: 'A profile needs at least one partial target.',
  sizePositive: "Each target's size_pct must be a positive number.",
  sizesSum: (sum: number) =>
    `The size_pct values must add up to 100 (they add up to ${Math.round(sum * 1e6) / 1e6}).`,
  rPositive: "Each target's r_multiple must be a positive number.",
  duplicateName: 'You already have a profit profile with this name.',
  saveFailed: 'Failed to save profile.',
  applyFailed: 'Failed to apply profile—please try again',
  selectAccount: 'Please select at least one account.',
  accountsFailed: 'Could not load your accounts.',
} as const;

/* ---------- Win-rate scenarios: GET/POST /api/user/scenarios/ ---------- */

const finite = z.number().finite();

export const scenarioSplits = z.object({
  w1: finite.min(0).max(100),
  w2: finite.min(0).max(100),
  w3: finite.min(0).max(100),
  R1: finite.min(0).max(100),
  R2: finite.min(0).max(100),
  R3: finite.min(0).max(100),
  q1: finite.min(0).max(100),
  q2: finite.min(0).max(100),
  q3: finite.min(0).max(100),
});
export type ScenarioSplits = z.infer<typeof scenarioSplits>;

/** Limits of the screen's controls (spec section 9), so a loaded scenario always fits them. */
export const WIN_RATE_LIMITS = {
  growthGoal: { min: 0, max: 100, step: 0.1 },
  riskPerTrade: { min: 0.1, max: 5, step: 0.1 },
  numTrades: { min: 1, max: 10_000 },
} as const;

export const WIN_RATE_PROFILES = ['Scalping', 'Intraday', 'Swing', 'Position'] as const;

export const scenarioInputs = z.object({
  growthGoal: finite.min(WIN_RATE_LIMITS.growthGoal.min).max(WIN_RATE_LIMITS.growthGoal.max),
  riskPerTrade: finite.min(WIN_RATE_LIMITS.riskPerTrade.min).max(WIN_RATE_LIMITS.riskPerTrade.max),
  numTrades: z.number().int().min(WIN_RATE_LIMITS.numTrades.min).max(WIN_RATE_LIMITS.numTrades.max),
  profile: text().trim().min(1).max(50),
  splits: scenarioSplits,
});
export type ScenarioInputs = z.infer<typeof scenarioInputs>;

export const scenario = z.object({
  id: z.string(),
  name: z.string(),
  inputs: scenarioInputs,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Scenario = z.infer<typeof scenario>;

export const scenarioCreate = z.object({
  name: text().trim().min(1, 'A scenario needs a name.').max(100),
  inputs: scenarioInputs,
});
export type ScenarioCreate = z.infer<typeof scenarioCreate>;

export const SCENARIO_MESSAGES = {
  saveFailed: 'Failed to save scenario.',
  loadFailed: 'Could not load your scenarios.',
} as const;
