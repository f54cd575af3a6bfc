import type { ProfitProfile, ScenarioInputs, ScenarioSplits } from '@tradedesk/contract';
import type { WinRateInputs, WinRateReach } from '@tradedesk/domain';

/** A number field as Mantine gives it: a number, or '' while the field is empty. */
export type Field = number | '';

export type SplitKey = keyof ScenarioSplits;

export interface WinRateForm {
  growthGoal: number;
  riskPerTrade: number;
  numTrades: Field;
  profile: string;
  splits: Record<SplitKey, Field>;
}

/** Spec section 9: growth goal 10, risk 0.5, 30 trades, Intraday, 40/30/30 at 1/2/3R, quantities 100/0/0. */
export const DEFAULT_FORM: WinRateForm = {
  growthGoal: 10,
  riskPerTrade: 0.5,
  numTrades: 30,
  profile: 'Intraday',
  splits: { w1: 40, w2: 30, w3: 30, R1: 1, R2: 2, R3: 3, q1: 100, q2: 0, q3: 0 },
};

/** An empty field becomes NaN, which the domain reports as a problem instead of reading it as 0. */
const num = (f: Field): number => (f === '' ? Number.NaN : f);

export function toDomainInputs(f: WinRateForm): WinRateInputs {
  const s = f.splits;
  return {
    growthGoal: f.growthGoal,
    riskPerTrade: f.riskPerTrade,
    numTrades: num(f.numTrades),
    splits: {
      w1: num(s.w1),
      w2: num(s.w2),
      w3: num(s.w3),
      R1: num(s.R1),
      R2: num(s.R2),
      R3: num(s.R3),
      q1: num(s.q1),
      q2: num(s.q2),
      q3: num(s.q3),
    },
  };
}

/** The scenario body for the current inputs; only called when they are valid. */
export function toScenarioInputs(f: WinRateForm): ScenarioInputs {
  const d = toDomainInputs(f);
  return {
    growthGoal: d.growthGoal,
    riskPerTrade: d.riskPerTrade,
    numTrades: d.numTrades,
    profile: f.profile,
    splits: d.splits,
  };
}

export function fromScenarioInputs(i: ScenarioInputs): WinRateForm {
  return {
    growthGoal: i.growthGoal,
    riskPerTrade: i.riskPerTrade,
    numTrades: i.numTrades,
    profile: i.profile,
    splits: { ...i.splits },
  };
}

/**
 * A profile's first three partial targets become the three splits (size_pct → size, r_multiple → R);
 * missing targets are 0. The outcome quantities are the trader's own and stay as they are.
 */
export function splitsFromProfile(p: ProfitProfile, current: WinRateForm['splits']): WinRateForm['splits'] {
  const t = p.partial_targets;
  return {
    ...current,
    w1: t[0]?.size_pct ?? 0,
    w2: t[1]?.size_pct ?? 0,
    w3: t[2]?.size_pct ?? 0,
    R1: t[0]?.r_multiple ?? 0,
    R2: t[1]?.r_multiple ?? 0,
    R3: t[2]?.r_multiple ?? 0,
  };
}

/** The splits as profile targets: targets with no size are left out (a profile's sizes are positive). */
export function profileTargetsFromSplits(
  s: WinRateForm['splits'],
): Array<{ r_multiple: number; size_pct: number }> {
  return ([1, 2, 3] as const)
    .map((i) => ({ size_pct: num(s[`w${i}`]), r_multiple: num(s[`R${i}`]) }))
    .filter((t) => !(t.size_pct === 0));
}

export const describeTargets = (p: ProfitProfile): string =>
  p.partial_targets.map((t) => `${t.size_pct}% at ${t.r_multiple}R`).join(' · ');

/**
 * The plan a link from an analysis proposes (`/win-rate?r=2&hit=41.5`, from an ATR scenario cell): one
 * target taking the whole position at `r` R, every winner reaching it. The observed hit rate comes
 * back for comparison with the required one. Anything else in the link is ignored.
 */
export function formFromLink(params: URLSearchParams): { form: WinRateForm; observedHitRate: number } | null {
  const r = Number(params.get('r'));
  const hit = Number(params.get('hit'));
  if (!params.has('r') || !params.has('hit') || !(r > 0) || !(hit >= 0 && hit <= 100)) return null;
  return {
    form: {
      ...DEFAULT_FORM,
      splits: { ...DEFAULT_FORM.splits, w1: 100, w2: 0, w3: 0, R1: r, q1: 100, q2: 0, q3: 0 },
    },
    observedHitRate: hit,
  };
}

/** The one-line hint under an out-of-reach chart: where the goal becomes reachable (domain winRateReach). */
export function reachHint(
  reach: WinRateReach | null,
  inputs: Pick<WinRateInputs, 'riskPerTrade' | 'numTrades'>,
): string | null {
  if (!reach || reach.reachable) return null;
  const risk = `${inputs.riskPerTrade.toFixed(2)}%`;
  if (reach.minRiskPct === null && reach.minTrades === null)
    return 'Out of reach at any risk and number of trades: no winner closes above 0R.';
  const ways = [
    reach.minRiskPct !== null ? `from ${reach.minRiskPct.toFixed(2)}% risk per trade` : null,
    reach.minTrades !== null ? `with ${reach.minTrades} trades at ${risk}` : null,
  ].filter(Boolean);
  return `Out of reach at ${risk} risk over ${inputs.numTrades} trades: reachable ${ways.join(', or ')}.`;
}
