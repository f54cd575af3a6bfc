import { describe, expect, it } from 'vitest';
import { computeWinRate } from '@tradedesk/domain';
import type { ProfitProfile } from '@tradedesk/contract';
import {
  DEFAULT_FORM,
  describeTargets,
  formFromLink,
  fromScenarioInputs,
  profileTargetsFromSplits,
  reachHint,
  splitsFromProfile,
  toDomainInputs,
  toScenarioInputs,
} from './winRateForm';

const profile = (targets: Array<[number, number]>): ProfitProfile => ({
  id: 'p1',
  name: 'P',
  is_default: false,
  created_at: '2026-01-01T00:00:00.000Z',
  partial_targets: targets.map(([size_pct, r_multiple]) => ({ size_pct, r_multiple })),
});

describe('win-rate form', () => {
  it('starts at the spec defaults: 10 %, 0.5 %, 30 trades, Intraday, 40/30/30 at 1/2/3R, quantities 100/0/0', () => {
    expect(toScenarioInputs(DEFAULT_FORM)).toEqual({
      growthGoal: 10,
      riskPerTrade: 0.5,
      numTrades: 30,
      profile: 'Intraday',
      splits: { w1: 40, w2: 30, w3: 30, R1: 1, R2: 2, R3: 3, q1: 100, q2: 0, q3: 0 },
    });
  });

  it('an emptied field is a problem to report, never a silent 0', () => {
    const r = computeWinRate(toDomainInputs({ ...DEFAULT_FORM, splits: { ...DEFAULT_FORM.splits, w3: '' } }));
    expect(r.valid).toBe(false);
    const trades = computeWinRate(toDomainInputs({ ...DEFAULT_FORM, numTrades: '' }));
    expect(trades.valid ? [] : trades.issues.map((i) => i.field)).toEqual(['numTrades']);
  });

  it('a profile fills sizes and R multiples from its first three targets and keeps the quantities', () => {
    const splits = splitsFromProfile(
      profile([
        [30, 1.25],
        [30, 2.5],
        [40, 4],
      ]),
      { ...DEFAULT_FORM.splits, q1: 50, q2: 50 },
    );
    expect(splits).toEqual({ w1: 30, w2: 30, w3: 40, R1: 1.25, R2: 2.5, R3: 4, q1: 50, q2: 50, q3: 0 });
  });

  it('a two-target profile leaves the third target empty (0 %, 0R)', () => {
    const splits = splitsFromProfile(
      profile([
        [50, 1.5],
        [50, 3],
      ]),
      DEFAULT_FORM.splits,
    );
    expect(splits).toMatchObject({ w3: 0, R3: 0 });
    expect(computeWinRate(toDomainInputs({ ...DEFAULT_FORM, splits })).valid).toBe(true);
  });

  it('saving splits as a profile leaves out targets with no size', () => {
    expect(profileTargetsFromSplits({ ...DEFAULT_FORM.splits, w1: 70, w3: 0 })).toEqual([
      { size_pct: 70, r_multiple: 1 },
      { size_pct: 30, r_multiple: 2 },
    ]);
  });

  it('a scenario round-trips through the form', () => {
    const inputs = { ...toScenarioInputs(DEFAULT_FORM), growthGoal: 25.5, profile: 'Swing' };
    expect(toScenarioInputs(fromScenarioInputs(inputs))).toEqual(inputs);
  });

  it('describes a profile as size at R, in order', () => {
    expect(
      describeTargets(
        profile([
          [50, 1.5],
          [50, 3],
        ]),
      ),
    ).toBe('50% at 1.5R · 50% at 3R');
  });
});

describe('formFromLink', () => {
  it('fills one target at the linked R with the observed hit rate kept for comparison', () => {
    const linked = formFromLink(new URLSearchParams('r=2.5&hit=41.5'));
    expect(linked?.observedHitRate).toBe(41.5);
    expect(linked?.form.splits).toMatchObject({ w1: 100, w2: 0, w3: 0, R1: 2.5, q1: 100, q2: 0, q3: 0 });
    expect(linked?.form.growthGoal).toBe(DEFAULT_FORM.growthGoal);
  });

  it('ignores a link without both numbers or with impossible ones', () => {
    expect(formFromLink(new URLSearchParams('r=2'))).toBeNull();
    expect(formFromLink(new URLSearchParams('r=-1&hit=50'))).toBeNull();
    expect(formFromLink(new URLSearchParams('r=2&hit=150'))).toBeNull();
  });
});

describe('reachHint', () => {
  it('says where the spec defaults become reachable (0.80 % risk or 48 trades, domain winRateReach)', () => {
    expect(
      reachHint({ reachable: false, minRiskPct: 0.8, minTrades: 48 }, { riskPerTrade: 0.5, numTrades: 30 }),
    ).toBe(
      'Out of reach at 0.50% risk over 30 trades: reachable from 0.80% risk per trade, or with 48 trades at 0.50%.',
    );
  });
  it('is silent when reachable, and says so when nothing reaches it', () => {
    expect(
      reachHint({ reachable: true, minRiskPct: 0.2, minTrades: 10 }, { riskPerTrade: 1, numTrades: 30 }),
    ).toBeNull();
    expect(reachHint(null, { riskPerTrade: 1, numTrades: 30 })).toBeNull();
    expect(
      reachHint({ reachable: false, minRiskPct: null, minTrades: null }, { riskPerTrade: 1, numTrades: 30 }),
    ).toBe('Out of reach at any risk and number of trades: no winner closes above 0R.');
  });
});
