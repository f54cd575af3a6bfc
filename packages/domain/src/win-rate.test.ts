import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CHART_POINTS,
  computeWinRate,
  requiredWinRate,
  validateWinRateInputs,
  WIN_RATE_MESSAGES,
  winnerBreakdown,
  winRateSeries,
  type Splits,
  type WinRateInputs,
} from './win-rate';

const DEFAULT_SPLITS: Splits = { w1: 40, w2: 30, w3: 30, R1: 1, R2: 2, R3: 3, q1: 100, q2: 0, q3: 0 };
const SINGLE_TARGET = (R: number): Splits => ({
  w1: 100,
  w2: 0,
  w3: 0,
  R1: R,
  R2: 0,
  R3: 0,
  q1: 100,
  q2: 0,
  q3: 0,
});
const inputs = (over: Partial<WinRateInputs> = {}): WinRateInputs => ({
  growthGoal: 10,
  riskPerTrade: 0.5,
  numTrades: 30,
  splits: DEFAULT_SPLITS,
  ...over,
});

function valid(i: WinRateInputs) {
  const r = computeWinRate(i);
  if (!r.valid) throw new Error(`expected valid inputs, got ${JSON.stringify(r.issues)}`);
  return r;
}

describe('average RR and contributions', () => {
  it('40/30/30 at 1/2/3R with outcomes 50/30/20: contributions 0.4·1·1=0.4, 0.3·2·0.5=0.3, 0.3·3·0.2=0.18, A=0.88', () => {
    const b = winnerBreakdown({ ...DEFAULT_SPLITS, q1: 50, q2: 30, q3: 20 });
    expect(b.contributions[0]).toBeCloseTo(0.4, 12);
    expect(b.contributions[1]).toBeCloseTo(0.3, 12);
    expect(b.contributions[2]).toBeCloseTo(0.18, 12);
    // A by outcome: 0.5·0.4 + 0.3·(0.4+0.6) + 0.2·(0.4+0.6+0.9) = 0.2 + 0.3 + 0.38
    expect(b.averageRR).toBeCloseTo(0.88, 12);
  });

  it('defaults (40/30/30 at 1/2/3R, outcomes 100/0/0): only target 1 is ever reached, A = 0.4·1 = 0.4', () => {
    const b = winnerBreakdown(DEFAULT_SPLITS);
    expect(b.contributions).toEqual([0.4, 0, 0]);
    expect(b.averageRR).toBeCloseTo(0.4, 12);
  });

  it('every winner reaching target 3 at 40/30/30 and 1/2/3R: A = 0.4 + 0.6 + 0.9 = 1.9', () => {
    const b = winnerBreakdown({ ...DEFAULT_SPLITS, q1: 0, q2: 0, q3: 100 });
    expect(b.averageRR).toBeCloseTo(1.9, 12);
    expect(b.contributions.map((c) => Number(c.toFixed(12)))).toEqual([0.4, 0.6, 0.9]);
  });
});

describe('minimum win rate, worked cases', () => {
  it('G=0, r=1%, one target at 2R: p = −ln 0.99 / (ln 1.02 − ln 0.99) = 0.010050 / 0.029853 ≈ 33.666%', () => {
    const r = valid(inputs({ growthGoal: 0, riskPerTrade: 1, numTrades: 10, splits: SINGLE_TARGET(2) }));
    expect(r.reachable).toBe(true);
    expect(r.minWinRate).toBeCloseTo(0.33666, 5);
  });

  it('G=10%, r=1%, N=100, A=2: p = (ln 1.1/100 + 0.010050) / 0.029853 = 0.011003 / 0.029853 ≈ 36.859%', () => {
    const r = valid(inputs({ growthGoal: 10, riskPerTrade: 1, numTrades: 100, splits: SINGLE_TARGET(2) }));
    expect(r.minWinRate).toBeCloseTo(0.36859, 5);
  });

  it('G=10%, r=1%, N=50, outcomes 50/30/20 (A=0.88): p = (0.0019062 + 0.0100503) / (0.0087615 + 0.0100503) ≈ 63.559%', () => {
    const r = valid(
      inputs({ riskPerTrade: 1, numTrades: 50, splits: { ...DEFAULT_SPLITS, q1: 50, q2: 30, q3: 20 } }),
    );
    expect(r.averageRR).toBeCloseTo(0.88, 12);
    expect(r.minWinRate).toBeCloseTo(0.63559, 5);
  });

  it('G=100%, r=5%, N=10, A=3: p = (ln 2/10 − ln 0.95) / (ln 1.15 − ln 0.95) = 0.120608 / 0.191055 ≈ 63.127%', () => {
    const r = valid(inputs({ growthGoal: 100, riskPerTrade: 5, numTrades: 10, splits: SINGLE_TARGET(3) }));
    expect(r.minWinRate).toBeCloseTo(0.63127, 5);
  });

  it('the spec defaults (G=10, r=0.5, N=30, A=0.4) need p = 0.0081895 / 0.0070105 ≈ 116.8%: out of reach, no number', () => {
    const r = valid(inputs());
    expect(r.requiredWinRate).toBeCloseTo(1.16818, 5);
    expect(r.reachable).toBe(false);
    expect(r.minWinRate).toBeNull();
  });
});

describe('edge cases', () => {
  it('r = 0 with G = 0: equity never moves, so any win rate (p = 0) keeps it', () => {
    const r = valid(inputs({ growthGoal: 0, riskPerTrade: 0 }));
    expect(r.reachable).toBe(true);
    expect(r.minWinRate).toBe(0);
  });

  it('r = 0 with G > 0: nothing ever grows, the goal is out of reach', () => {
    const r = valid(inputs({ riskPerTrade: 0 }));
    expect(r.reachable).toBe(false);
    expect(r.requiredWinRate).toBe(Infinity);
    expect(r.minWinRate).toBeNull();
  });

  it('A = 0 (every R is 0) with G = 0: only never losing keeps equity, p = 100% exactly', () => {
    const r = valid(inputs({ growthGoal: 0, splits: { ...DEFAULT_SPLITS, R1: 0, R2: 0, R3: 0 } }));
    expect(r.averageRR).toBe(0);
    expect(r.reachable).toBe(true);
    expect(r.minWinRate).toBe(1);
  });

  it('A = 0 with G > 0: wins earn nothing, the goal is out of reach', () => {
    const r = valid(inputs({ splits: { ...DEFAULT_SPLITS, R1: 0, R2: 0, R3: 0 } }));
    expect(r.reachable).toBe(false);
    expect(r.minWinRate).toBeNull();
  });

  it('sizes of 90 in total are refused with their sum in the message', () => {
    const r = computeWinRate(inputs({ splits: { ...DEFAULT_SPLITS, w3: 20 } }));
    expect(r).toEqual({
      valid: false,
      issues: [{ field: 'sizes', message: 'Sizes must add up to 100% (now 90%).' }],
    });
  });

  it('quantities of 80 in total are refused with their sum in the message', () => {
    const r = computeWinRate(inputs({ splits: { ...DEFAULT_SPLITS, q1: 80 } }));
    expect(r).toEqual({
      valid: false,
      issues: [{ field: 'quantities', message: 'Quantities must add up to 100% (now 80%).' }],
    });
  });

  it('33.3 + 33.3 + 33.4 counts as 100 despite float noise', () => {
    expect(
      validateWinRateInputs(inputs({ splits: { ...DEFAULT_SPLITS, w1: 33.3, w2: 33.3, w3: 33.4 } })),
    ).toEqual([]);
  });

  it.each([
    ['a negative growth goal', { growthGoal: -1 }, 'growthGoal'],
    ['a risk of 100% (one loss wipes the account)', { riskPerTrade: 100 }, 'riskPerTrade'],
    ['a negative risk', { riskPerTrade: -0.5 }, 'riskPerTrade'],
    ['zero trades', { numTrades: 0 }, 'numTrades'],
    ['a fractional trade count', { numTrades: 2.5 }, 'numTrades'],
    ['an empty (NaN) growth goal', { growthGoal: Number.NaN }, 'growthGoal'],
    ['a negative size', { splits: { ...DEFAULT_SPLITS, w1: -10, w2: 80 } }, 'sizes'],
    ['a negative R multiple', { splits: { ...DEFAULT_SPLITS, R2: -1 } }, 'rMultiples'],
    ['a negative quantity', { splits: { ...DEFAULT_SPLITS, q1: 120, q2: -20 } }, 'quantities'],
    ['an empty (NaN) size', { splits: { ...DEFAULT_SPLITS, w2: Number.NaN } }, 'sizes'],
  ] as const)('refuses %s', (_label, over, field) => {
    const r = computeWinRate(inputs(over as Partial<WinRateInputs>));
    expect(r.valid).toBe(false);
    if (!r.valid) expect(r.issues.map((i) => i.field)).toEqual([field]);
    expect(winRateSeries(inputs(over as Partial<WinRateInputs>))).toEqual([]);
  });

  it('messages stay readable when a sum is not a number', () => {
    expect(WIN_RATE_MESSAGES.sizes(Number.NaN)).toBe('Sizes must add up to 100% (now ?%).');
  });
});

describe('chart series', () => {
  it('20 evenly spaced risks from 0.1 to the current risk (1.05): step (1.05 − 0.1) / 19 = 0.05', () => {
    const s = winRateSeries(inputs({ riskPerTrade: 1.05, splits: SINGLE_TARGET(2) }));
    expect(s).toHaveLength(CHART_POINTS);
    s.forEach((pt, j) => expect(pt.riskPerTrade).toBeCloseTo(0.1 + 0.05 * j, 12));
    expect(s[CHART_POINTS - 1]!.riskPerTrade).toBe(1.05);
  });

  it('the last point is the result at the current risk', () => {
    const i = inputs({ riskPerTrade: 2.3, splits: { ...DEFAULT_SPLITS, q1: 20, q2: 30, q3: 50 } });
    expect(winRateSeries(i).at(-1)!.minWinRate).toBe(valid(i).minWinRate);
  });

  it('points where the goal is out of reach are null (a gap), not a value above 100%', () => {
    // A = 0.4 and G = 10 over 30 trades: out of reach at every risk (p ≈ 117% at 0.5%).
    const s = winRateSeries(inputs());
    expect(s).toHaveLength(CHART_POINTS);
    expect(s.every((p) => p.minWinRate === null)).toBe(true);
  });

  it('at a risk of 0.1% or less there is no range: a single point at the risk itself', () => {
    expect(
      winRateSeries(inputs({ riskPerTrade: 0.1, splits: SINGLE_TARGET(2) })).map((p) => p.riskPerTrade),
    ).toEqual([0.1]);
  });
});

describe('properties', () => {
  const share = fc
    .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }))
    .map(([a, b]) => [Math.min(a, b), Math.max(a, b) - Math.min(a, b), 100 - Math.max(a, b)] as const);
  const rMultiple = fc.double({ min: 0, max: 10, noNaN: true });
  const splits = fc
    .record({ w: share, q: share, R: fc.tuple(rMultiple, rMultiple, rMultiple) })
    .map(({ w, q, R }): Splits => ({
      w1: w[0],
      w2: w[1],
      w3: w[2],
      q1: q[0],
      q2: q[1],
      q3: q[2],
      R1: R[0],
      R2: R[1],
      R3: R[2],
    }));
  const goal = fc.double({ min: 0, max: 100, noNaN: true });
  const risk = fc.double({ min: 0.01, max: 20, noNaN: true });
  const trades = fc.integer({ min: 1, max: 1000 });
  const avgRR = fc.double({ min: 0, max: 10, noNaN: true });

  it('contributions add up to the average RR, which matches the outcome-by-outcome definition', () => {
    fc.assert(
      fc.property(splits, (s) => {
        const { averageRR, contributions } = winnerBreakdown(s);
        const t1 = (s.w1 / 100) * s.R1;
        const t2 = t1 + (s.w2 / 100) * s.R2;
        const t3 = t2 + (s.w3 / 100) * s.R3;
        const byOutcome = (s.q1 / 100) * t1 + (s.q2 / 100) * t2 + (s.q3 / 100) * t3;
        expect(contributions.reduce((a, b) => a + b, 0)).toBeCloseTo(averageRR, 9);
        expect(averageRR).toBeCloseTo(byOutcome, 9);
      }),
    );
  });

  it('p rises with the growth goal', () => {
    fc.assert(
      fc.property(goal, goal, risk, avgRR, trades, (g1, g2, r, A, n) => {
        const [lo, hi] = g1 <= g2 ? [g1, g2] : [g2, g1];
        expect(requiredWinRate(lo / 100, r / 100, A, n)).toBeLessThanOrEqual(
          requiredWinRate(hi / 100, r / 100, A, n),
        );
      }),
    );
  });

  it('p falls as the average RR grows', () => {
    fc.assert(
      fc.property(goal, risk, avgRR, avgRR, trades, (g, r, A1, A2, n) => {
        const [lo, hi] = A1 <= A2 ? [A1, A2] : [A2, A1];
        expect(requiredWinRate(g / 100, r / 100, hi, n)).toBeLessThanOrEqual(
          requiredWinRate(g / 100, r / 100, lo, n),
        );
      }),
    );
  });

  it('p falls as the number of trades grows', () => {
    fc.assert(
      fc.property(goal, risk, avgRR, trades, trades, (g, r, A, n1, n2) => {
        const [lo, hi] = n1 <= n2 ? [n1, n2] : [n2, n1];
        expect(requiredWinRate(g / 100, r / 100, A, hi)).toBeLessThanOrEqual(
          requiredWinRate(g / 100, r / 100, A, lo),
        );
      }),
    );
  });

  it('whenever reachable, 0 <= p <= 1 and the plan at p reaches the goal; when not, even p = 100% falls short', () => {
    fc.assert(
      fc.property(goal, risk, trades, splits, (g, r, n, s) => {
        const res = valid({ growthGoal: g, riskPerTrade: r, numTrades: n, splits: s });
        const growthLog = (p: number) =>
          n * (p * Math.log1p((r / 100) * res.averageRR) + (1 - p) * Math.log1p(-r / 100));
        if (res.reachable) {
          expect(res.minWinRate).not.toBeNull();
          expect(res.minWinRate!).toBeGreaterThanOrEqual(0);
          expect(res.minWinRate!).toBeLessThanOrEqual(1);
          expect(growthLog(res.minWinRate!)).toBeGreaterThanOrEqual(Math.log1p(g / 100) - 1e-9);
        } else {
          expect(res.minWinRate).toBeNull();
          expect(growthLog(1)).toBeLessThan(Math.log1p(g / 100) + 1e-9);
        }
      }),
    );
  });

  it('the chart series runs from 0.1 up to the risk in 20 increasing steps, each point within 0-100%', () => {
    fc.assert(
      fc.property(goal, fc.double({ min: 0.11, max: 5, noNaN: true }), trades, splits, (g, r, n, s) => {
        const pts = winRateSeries({ growthGoal: g, riskPerTrade: r, numTrades: n, splits: s });
        expect(pts).toHaveLength(CHART_POINTS);
        expect(pts[0]!.riskPerTrade).toBeCloseTo(0.1, 12);
        expect(pts.at(-1)!.riskPerTrade).toBe(r);
        for (let j = 1; j < pts.length; j++)
          expect(pts[j]!.riskPerTrade).toBeGreaterThan(pts[j - 1]!.riskPerTrade);
        for (const p of pts) if (p.minWinRate !== null) expect(p.minWinRate).toBeGreaterThanOrEqual(0);
        for (const p of pts) if (p.minWinRate !== null) expect(p.minWinRate).toBeLessThanOrEqual(1);
      }),
    );
  });
});
