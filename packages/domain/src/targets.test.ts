import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_TARGETS,
  PROFILE_FALLBACK_TARGETS,
  SHARE_TOLERANCE,
  resolveTargets,
  splitVolume,
  targetErrors,
  targetsFromProfile,
  type TargetSpec,
} from './targets';
import type { PriceContext } from './stops';

const eurBuy: PriceContext = { side: 'BUY', entry: 1.1, pip_size: 0.0001, digits: 5 };
const eurSell: PriceContext = { ...eurBuy, side: 'SELL' };

function resolve(targets: readonly TargetSpec[], volume: number, ctx = eurBuy, atr: number | null = null) {
  return resolveTargets({ targets, ctx, slDistance: 0.002, atr, volume, volumeStep: 0.01 });
}

describe('default plans', () => {
  it('default multi-TP: two targets at 50% with 1.5R and 3R', () => {
    expect(DEFAULT_TARGETS.map((t) => [t.share, t.tp_type, t.rr])).toEqual([
      [0.5, 'RR', 1.5],
      [0.5, 'RR', 3],
    ]);
  });

  it('profile fallback: three at 30/30/40% with 1.25R, 2.5R, 4R', () => {
    expect(PROFILE_FALLBACK_TARGETS.map((t) => [t.share, t.tp_type, t.rr])).toEqual([
      [0.3, 'RR', 1.25],
      [0.3, 'RR', 2.5],
      [0.4, 'RR', 4],
    ]);
  });

  it('BUY 1.00 lot at 1.10000, SL 0.0020, default plan: 0.50 at 1.10300 (1.5R), 0.50 at 1.10600 (3R)', () => {
    expect(resolve(DEFAULT_TARGETS, 1).map((t) => [t.rank, t.price, t.volume, t.r_multiple])).toEqual([
      [1, 1.103, 0.5, 1.5],
      [2, 1.106, 0.5, 3],
    ]);
  });

  it('SELL 1.00 lot at 1.10000, SL 0.0020, fallback: 0.30 at 1.09750 (1.25R), 0.30 at 1.09500 (2.5R), 0.40 at 1.09200 (4R)', () => {
    expect(
      resolve(PROFILE_FALLBACK_TARGETS, 1, eurSell).map((t) => [t.price, t.volume, t.r_multiple]),
    ).toEqual([
      [1.0975, 0.3, 1.25],
      [1.095, 0.3, 2.5],
      [1.092, 0.4, 4],
    ]);
  });
});

describe('volume split', () => {
  it.each([
    [
      '0.05 lots at 30/30/40%: 0.015 → 0.01, 0.015 → 0.01, remainder 0.03 to the last',
      0.05,
      [0.3, 0.3, 0.4],
      [0.01, 0.01, 0.03],
    ],
    ['1.00 lot in thirds: 0.33, 0.33, remainder 0.34', 1, [1 / 3, 1 / 3, 1 / 3], [0.33, 0.33, 0.34]],
    ['0.01 lot at 50/50%: 0.005 → 0, remainder 0.01 to the last', 0.01, [0.5, 0.5], [0, 0.01]],
    ['0.30 lots (0.1 + 0.2) at 50/50%: 0.15 and 0.15', 0.1 + 0.2, [0.5, 0.5], [0.15, 0.15]],
    ['0.07 lots at 70/30%: 0.049 → 0.04, remainder 0.03', 0.07, [0.7, 0.3], [0.04, 0.03]],
  ])('%s', (_name, volume, shares, expected) => {
    expect(splitVolume(volume, shares, 0.01)).toEqual(expected);
  });

  it('refuses a volume off the step grid', () => {
    expect(() => splitVolume(0.015, [1], 0.01)).toThrow(
      'Volume 0.015 is not a multiple of the volume step 0.01.',
    );
  });

  it.each([
    ['0.20 lots at 50 % (a rest): 0.10, the other 0.10 stays open', 0.2, [0.5], 0, [0.1]],
    ['0.07 lots at 30/30 % (a rest): 0.021 → 0.02 each, 0.03 stays open', 0.07, [0.3, 0.3], 0, [0.02, 0.02]],
    [
      '0.20 lots at 30/30/40 %, minimum 0.10: 0.06 merges into the second (0.12), the last takes 0.08',
      0.2,
      [0.3, 0.3, 0.4],
      0.1,
      [0, 0.12, 0.08],
    ],
    [
      '0.20 lots at 30/30 % (a rest), minimum 0.10: 0.06 merges into 0.12; nothing merges past the last',
      0.2,
      [0.3, 0.3],
      0.1,
      [0, 0.12],
    ],
    [
      '0.25 lots at 20/20 % (a rest), minimum 0.10: 0.05 + 0.05 = 0.10, 0.15 stays open',
      0.25,
      [0.2, 0.2],
      0.1,
      [0, 0.1],
    ],
  ])('%s', (_name, volume, shares, volumeMin, expected) => {
    expect(splitVolume(volume, shares, 0.01, volumeMin)).toEqual(expected);
  });
});

describe('target kinds', () => {
  it('ATR target: SELL at 1.10000 with ATR 0.0020 × 2 = 0.0040 → 1.09600 (2R)', () => {
    const [t] = resolve([{ rank: 1, share: 1, tp_type: 'ATR', atr_multiplier: 2 }], 0.1, eurSell, 0.002);
    expect([t?.price, t?.r_multiple, t?.volume]).toEqual([1.096, 2, 0.1]);
  });

  it('ATR target without multiplier uses 1.5: BUY 1.10000 + 0.0020 × 1.5 → 1.10300', () => {
    const [t] = resolve([{ rank: 1, share: 1, tp_type: 'ATR' }], 0.1, eurBuy, 0.002);
    expect(t?.price).toBe(1.103);
  });

  it('PRICE target: BUY 1.10500 → 2.5R', () => {
    const [t] = resolve([{ rank: 1, share: 1, tp_type: 'PRICE', price: 1.105 }], 0.1);
    expect([t?.price, t?.r_multiple]).toEqual([1.105, 2.5]);
  });

  it('a PRICE target on the wrong side names the target', () => {
    expect(() =>
      resolve(
        [
          { rank: 1, share: 0.5, tp_type: 'RR', rr: 1 },
          { rank: 2, share: 0.5, tp_type: 'PRICE', price: 1.09 },
        ],
        1,
      ),
    ).toThrow(
      'Target 2: Take profit must be above the entry price for a BUY (take profit 1.09000, entry price 1.10000).',
    );
  });

  it('an ATR target needs the ATR', () => {
    expect(() => resolve([{ rank: 1, share: 1, tp_type: 'ATR', atr_multiplier: 2 }], 1)).toThrow(
      'Target 1 is ATR-based but no ATR value is available.',
    );
  });

  it('targets are resolved in rank order whatever the input order', () => {
    const out = resolve([DEFAULT_TARGETS[1]!, DEFAULT_TARGETS[0]!], 1);
    expect(out.map((t) => t.rank)).toEqual([1, 2]);
  });
});

describe('validation', () => {
  it.each([
    [
      'shares 50% + 40% = 90%',
      [
        { rank: 1, share: 0.5, tp_type: 'RR', rr: 1 },
        { rank: 2, share: 0.4, tp_type: 'RR', rr: 2 },
      ],
      'Target shares must sum to 100%, they sum to 90%.',
    ],
    ['no target', [], 'At least one target is required.'],
    [
      'a zero share',
      [{ rank: 1, share: 0, tp_type: 'RR', rr: 1 }],
      'Target 1: share must be greater than 0 and at most 1, got 0.',
    ],
    [
      'a duplicate rank',
      [
        { rank: 1, share: 0.5, tp_type: 'RR', rr: 1 },
        { rank: 1, share: 0.5, tp_type: 'RR', rr: 2 },
      ],
      'Target rank 1 appears more than once.',
    ],
    [
      'an RR target without rr',
      [{ rank: 1, share: 1, tp_type: 'RR' }],
      'Target 1: an RR target needs a positive rr.',
    ],
    [
      'a PRICE target without price',
      [{ rank: 1, share: 1, tp_type: 'PRICE', price: null }],
      'Target 1: a PRICE target needs a positive price.',
    ],
  ] as const)('refuses %s', (_name, targets, message) => {
    expect(targetErrors(targets as readonly TargetSpec[])).toContain(message);
  });

  it('with a rest (bot strategies), shares may sum to less than 100 %, never to more', () => {
    const t = (share: number, rank: number): TargetSpec => ({ rank, share, tp_type: 'RR', rr: rank });
    expect(targetErrors([t(0.5, 1), t(0.4, 2)], { rest: true })).toEqual([]);
    expect(targetErrors([t(0.5, 1), t(0.4, 2)])).toEqual([
      'Target shares must sum to 100%, they sum to 90%.',
    ]);
    expect(targetErrors([t(0.6, 1), t(0.6, 2)], { rest: true })).toEqual([
      'Target shares must sum to at most 100%, they sum to 120%.',
    ]);
  });

  it('accepts 33.3/33.3/33.4% and 1/3 each (within the tolerance)', () => {
    const t = (share: number, rank: number): TargetSpec => ({ rank, share, tp_type: 'RR', rr: rank });
    expect(targetErrors([t(0.333, 1), t(0.333, 2), t(0.334, 3)])).toEqual([]);
    expect(targetErrors([t(1 / 3, 1), t(1 / 3, 2), t(1 / 3, 3)])).toEqual([]);
  });
});

describe('targetsFromProfile', () => {
  it('partial targets {r_multiple, size_pct} become RR targets ranked by R: 2R 60% and 1R 40% → rank 1 at 1R 0.4, rank 2 at 2R 0.6', () => {
    expect(
      targetsFromProfile([
        { r_multiple: 2, size_pct: 60 },
        { r_multiple: 1, size_pct: 40 },
      ]),
    ).toEqual([
      { rank: 1, share: 0.4, tp_type: 'RR', rr: 1 },
      { rank: 2, share: 0.6, tp_type: 'RR', rr: 2 },
    ]);
  });

  it('no profile or an empty one gives the 30/30/40% fallback', () => {
    expect(targetsFromProfile(null)).toEqual(PROFILE_FALLBACK_TARGETS);
    expect(targetsFromProfile([])).toEqual(PROFILE_FALLBACK_TARGETS);
  });

  it('refuses a profile whose sizes do not sum to 100%', () => {
    expect(() => targetsFromProfile([{ r_multiple: 1, size_pct: 50 }])).toThrow(
      'Target shares must sum to 100%, they sum to 50%.',
    );
  });
});

describe('properties', () => {
  // Shares as UI percentages: positive integers normalised to sum 100.
  const plan = fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 6 }).map((weights) => {
    const total = weights.reduce((a, b) => a + b, 0);
    return weights.map((w) => w / total);
  });

  it('generated shares sum to 1 within the tolerance and validate', () => {
    fc.assert(
      fc.property(plan, (shares) => {
        expect(Math.abs(shares.reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(SHARE_TOLERANCE);
        expect(
          targetErrors(shares.map((share, i) => ({ rank: i + 1, share, tp_type: 'RR', rr: i + 1 }))),
        ).toEqual([]);
      }),
    );
  });

  it('profile conversion keeps the shares summing to 1', () => {
    fc.assert(
      fc.property(plan, (shares) => {
        const profile = shares.map((s, i) => ({ r_multiple: i + 1, size_pct: s * 100 }));
        const total = targetsFromProfile(profile).reduce((a, t) => a + t.share, 0);
        expect(Math.abs(total - 1)).toBeLessThanOrEqual(SHARE_TOLERANCE);
      }),
    );
  });

  it('target volumes are on the step, never above their share except the last, and sum exactly to the position', () => {
    fc.assert(
      fc.property(
        plan,
        fc.integer({ min: 1, max: 10_000 }),
        fc.constantFrom(0.01, 0.1, 1),
        (shares, steps, step) => {
          const volume = Number((steps * step).toFixed(2));
          const volumes = splitVolume(volume, shares, step);
          expect(volumes).toHaveLength(shares.length);
          const stepsUsed = volumes.map((v) => Math.round(v / step));
          volumes.forEach((v, i) => {
            expect(v).toBeGreaterThanOrEqual(0);
            expect(Math.abs(v / step - Math.round(v / step))).toBeLessThan(1e-6);
            if (i < volumes.length - 1) expect(v).toBeLessThanOrEqual((shares[i] ?? 0) * volume + 1e-9);
          });
          expect(stepsUsed.reduce((a, b) => a + b, 0)).toBe(steps);
          expect(Number(volumes.reduce((a, b) => a + b, 0).toFixed(8))).toBe(volume);
        },
      ),
    );
  });

  it('resolved RR targets sit at entry ± rr × SL distance on the profit side', () => {
    fc.assert(
      fc.property(plan, fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'), (shares, side) => {
        const targets = shares.map((share, i): TargetSpec => ({
          rank: i + 1,
          share,
          tp_type: 'RR',
          rr: (i + 1) * 0.5,
        }));
        const out = resolve(targets, 1, { ...eurBuy, side });
        out.forEach((t, i) => {
          expect(side === 'BUY' ? t.price > 1.1 : t.price < 1.1).toBe(true);
          expect(t.r_multiple).toBe((i + 1) * 0.5);
        });
      }),
    );
  });
});
