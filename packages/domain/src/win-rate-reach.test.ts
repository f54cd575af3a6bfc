import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { computeWinRate, type WinRateInputs } from './win-rate';
import { winRateChart, winRateReach } from './win-rate-reach';

/** The spec's defaults: +10 % in 30 trades at 0.5 % risk, 40/30/30 at 1/2/3 R, all winners stop at target 1. */
const DEFAULTS: WinRateInputs = {
  growthGoal: 10,
  riskPerTrade: 0.5,
  numTrades: 30,
  splits: { w1: 40, w2: 30, w3: 30, R1: 1, R2: 2, R3: 3, q1: 100, q2: 0, q3: 0 },
};

describe('winRateReach', () => {
  it('finds where the defaults become reachable (worked by hand)', () => {
    // A = 0.4 × 1 = 0.4R. r* = (1.1^(1/30) − 1) / 0.4 = 0.0031820 / 0.4 = 0.795 % → 0.80 %.
    // N* = ⌈ln 1.1 / ln(1 + 0.005 × 0.4)⌉ = ⌈0.0953102 / 0.0019980⌉ = ⌈47.70⌉ = 48.
    expect(winRateReach(DEFAULTS)).toEqual({ reachable: false, minRiskPct: 0.8, minTrades: 48 });
  });

  it.each([
    // One target at 2R for all: A = 2. r* = (1.1^(1/30) − 1)/2 = 0.159 % → 0.16 %; N* = ⌈0.09531/ln 1.01⌉ = ⌈9.58⌉ = 10.
    [{ w1: 100, w2: 0, w3: 0, R1: 2, R2: 0, R3: 0, q1: 100, q2: 0, q3: 0 }, 10, 0.5, 30, true, 0.16, 10],
    // A goal of 0 % is reached with no risk and one trade.
    [{ w1: 100, w2: 0, w3: 0, R1: 1, R2: 0, R3: 0, q1: 100, q2: 0, q3: 0 }, 0, 0.5, 30, true, 0, 1],
    // Every winner closes at 0R: nothing reaches a positive goal.
    [{ w1: 100, w2: 0, w3: 0, R1: 0, R2: 0, R3: 0, q1: 100, q2: 0, q3: 0 }, 10, 0.5, 30, false, null, null],
    // +100 % in 2 trades at 1R needs r* = √2 − 1 = 41.43 % → 41.43 (rounded up to 0.01).
    [{ w1: 100, w2: 0, w3: 0, R1: 1, R2: 0, R3: 0, q1: 100, q2: 0, q3: 0 }, 100, 1, 2, false, 41.43, 70],
  ] as const)(
    'splits %o, G %s %%, r %s %%, N %s',
    (splits, growthGoal, riskPerTrade, numTrades, reachable, minRiskPct, minTrades) => {
      expect(winRateReach({ growthGoal, riskPerTrade, numTrades, splits: { ...splits } })).toEqual({
        reachable,
        minRiskPct,
        minTrades,
      });
    },
  );

  it('is null for invalid inputs', () => {
    expect(winRateReach({ ...DEFAULTS, numTrades: 0 })).toBeNull();
  });

  it('agrees with the solver: reachable at the minimum risk and trade count, not just below', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 200, noNaN: true }),
        fc.double({ min: 0.05, max: 5, noNaN: true }),
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: 0.1, max: 5, noNaN: true }),
        (growthGoal, riskPerTrade, numTrades, R1) => {
          const inputs: WinRateInputs = {
            growthGoal,
            riskPerTrade,
            numTrades,
            splits: { w1: 100, w2: 0, w3: 0, R1, R2: 0, R3: 0, q1: 100, q2: 0, q3: 0 },
          };
          const reach = winRateReach(inputs)!;
          expect(reach.reachable).toBe((computeWinRate(inputs) as { reachable: boolean }).reachable);
          if (reach.minTrades !== null) {
            const at = computeWinRate({ ...inputs, numTrades: reach.minTrades });
            expect(at.valid && at.reachable).toBe(true);
            if (reach.minTrades > 1) {
              const below = computeWinRate({ ...inputs, numTrades: reach.minTrades - 1 });
              expect(below.valid && below.reachable).toBe(false);
            }
          }
          if (reach.minRiskPct !== null) {
            const at = computeWinRate({ ...inputs, riskPerTrade: reach.minRiskPct });
            expect(at.valid && at.reachable).toBe(true);
            const below = computeWinRate({ ...inputs, riskPerTrade: Math.max(0, reach.minRiskPct - 0.011) });
            expect(below.valid && below.reachable).toBe(false);
          }
        },
      ),
    );
  });
});

describe('winRateChart', () => {
  it('keeps the spec range (0.1 % to the risk) when the goal is reachable there', () => {
    const chart = winRateChart({ ...DEFAULTS, riskPerTrade: 2 });
    expect(chart.extended).toBe(false);
    expect(chart.points).toHaveLength(20);
    expect(chart.points.at(-1)).toMatchObject({ riskPerTrade: 2 });
  });

  it('stretches an all-gaps chart to twice the reaching risk, so the line appears from 0.80 %', () => {
    const chart = winRateChart(DEFAULTS);
    expect(chart.extended).toBe(true);
    expect(chart.points).toHaveLength(20);
    expect(chart.points[0]!.riskPerTrade).toBeCloseTo(0.1, 12);
    expect(chart.points.at(-1)!.riskPerTrade).toBe(1.6);
    const firstReached = chart.points.find((p) => p.minWinRate !== null)!;
    expect(firstReached.riskPerTrade).toBeGreaterThanOrEqual(0.795);
    expect(firstReached.riskPerTrade).toBeLessThan(0.9);
    // At 1.6 %: p = (ln 1.1/30 − ln 0.984) / (ln 1.0064 − ln 0.984) = 0.019307 / 0.022508 = 0.8578.
    expect(chart.points.at(-1)!.minWinRate).toBeCloseTo(0.8578, 3);
    // Below r* the line has gaps, above it none.
    for (const p of chart.points) expect(p.minWinRate === null).toBe(p.riskPerTrade < 0.7955);
  });

  it('leaves the chart alone when nothing reaches the goal (every winner at 0R)', () => {
    const zero = { ...DEFAULTS, splits: { ...DEFAULTS.splits, R1: 0 } };
    expect(winRateChart(zero).extended).toBe(false);
  });
});
