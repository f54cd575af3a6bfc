import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { planTrade, type PlanSymbol, type TradePlanInput } from './trade-plan';
import { DEFAULT_TARGETS, PROFILE_FALLBACK_TARGETS } from './targets';

const EURUSD: PlanSymbol = {
  digits: 5,
  pip_size: 0.0001,
  contract_size: 100_000,
  volume_min: 0.01,
  volume_step: 0.01,
  volume_max: 100,
};
const USDJPY: PlanSymbol = { ...EURUSD, digits: 3, pip_size: 0.01 };

const base: TradePlanInput = {
  side: 'BUY',
  entry: 1.1,
  symbol: EURUSD,
  account: { equity: 10_000, currency: 'USD' },
  riskPercent: 1,
  quoteToAccountRate: 1,
  stopLoss: { mode: 'distance', pips: 20 },
  profit: { mode: 'single', takeProfit: { mode: 'rr_ratio', rr: 2 } },
};

describe('planTrade: worked cases', () => {
  it('EURUSD BUY 1.10000, 1% of 10,000, SL 20 pips, TP 2R: 0.50 lots, SL 1.09800, TP 1.10400, loss 100.00, profit 200.00', () => {
    const p = planTrade(base);
    expect(p.volume).toBe(0.5);
    expect(p.stopLoss.price).toBe(1.098);
    expect(p.takeProfit?.price).toBe(1.104);
    expect(p.targets).toBeNull();
    expect([p.projectedLoss, p.projectedProfit, p.rrRatio, p.riskPercentActual]).toEqual([100, 200, 2, 1]);
  });

  it('same with the default multi plan: 0.25 at 1.10300 (+75.00) and 0.25 at 1.10600 (+150.00) = 225.00, RR 2.25', () => {
    const p = planTrade({ ...base, profit: { mode: 'multi', targets: DEFAULT_TARGETS } });
    expect(p.targets?.map((t) => [t.price, t.volume])).toEqual([
      [1.103, 0.25],
      [1.106, 0.25],
    ]);
    expect([p.projectedLoss, p.projectedProfit, p.rrRatio]).toEqual([100, 225, 2.25]);
  });

  it("a plan with a rest (a bot strategy's targets at 50 % only): 0.25 at 1.10300 (+75.00), the other 0.25 has no target; RR (0.25 × 0.0030) ÷ (0.50 × 0.0020) = 0.75", () => {
    const p = planTrade({
      ...base,
      profit: { mode: 'multi', targets: [{ rank: 1, share: 0.5, tp_type: 'RR', rr: 1.5 }], rest: true },
    });
    expect(p.volume).toBe(0.5);
    expect(p.targets?.map((t) => [t.price, t.volume])).toEqual([[1.103, 0.25]]);
    expect([p.projectedLoss, p.projectedProfit, p.rrRatio]).toEqual([100, 75, 0.75]);
    // Without the rest allowed, 50 % is refused as for a person's request.
    expect(() =>
      planTrade({
        ...base,
        profit: { mode: 'multi', targets: [{ rank: 1, share: 0.5, tp_type: 'RR', rr: 1.5 }] },
      }),
    ).toThrow('Target shares must sum to 100%, they sum to 50%.');
  });

  it('fallback plan on 0.33 lots (SL 30 pips): 0.09 at 1.10375 (+33.75), 0.09 at 1.10750 (+67.50), 0.15 at 1.11200 (+180.00) = 281.25, RR 0.0028125 ÷ 0.00099 = 2.84', () => {
    const p = planTrade({
      ...base,
      stopLoss: { mode: 'distance', pips: 30 },
      profit: { mode: 'multi', targets: PROFILE_FALLBACK_TARGETS },
    });
    expect(p.volume).toBe(0.33);
    expect(p.targets?.map((t) => [t.price, t.volume])).toEqual([
      [1.10375, 0.09],
      [1.1075, 0.09],
      [1.112, 0.15],
    ]);
    expect([p.projectedLoss, p.projectedProfit, p.rrRatio, p.riskPercentActual]).toEqual([
      99, 281.25, 2.84, 0.99,
    ]);
  });

  it('USDJPY SELL 150.000 on USD, 0.5% of 10,000 = 50, SL ATR 0.20 × 1.5 = 0.30 → 150.300, 200 USD/lot → 0.25 lots; TP 60 pips → 149.400, profit 100.00, 2R', () => {
    const p = planTrade({
      ...base,
      side: 'SELL',
      entry: 150,
      symbol: USDJPY,
      riskPercent: 0.5,
      quoteToAccountRate: 1 / 150,
      stopLoss: { mode: 'atr', atr: 0.2 },
      profit: { mode: 'single', takeProfit: { mode: 'distance', pips: 60 } },
    });
    expect([p.volume, p.stopLoss.price, p.takeProfit?.price]).toEqual([0.25, 150.3, 149.4]);
    expect([p.projectedLoss, p.projectedProfit, p.rrRatio]).toEqual([50, 100, 2]);
  });

  it('min volume forcing extra risk is carried through: 500 × 0.5% = 2.50 but 0.01 lot at 50 pips risks 5.00', () => {
    const p = planTrade({
      ...base,
      account: { equity: 500, currency: 'USD' },
      riskPercent: 0.5,
      stopLoss: { mode: 'distance', pips: 50 },
    });
    expect(p.volume).toBe(0.01);
    expect(p.lot.exceedsRequestedRisk).toBe(true);
    expect(p.projectedLoss).toBe(5);
    expect(p.riskPercentActual).toBe(1);
  });

  it('account max_lot_size caps the plan and the targets split the capped volume', () => {
    const p = planTrade({
      ...base,
      account: { equity: 100_000, currency: 'USD', max_lot_size: 1 },
      profit: { mode: 'multi', targets: DEFAULT_TARGETS },
    });
    expect(p.volume).toBe(1);
    expect(p.targets?.map((t) => t.volume)).toEqual([0.5, 0.5]);
    expect(p.projectedLoss).toBe(200);
  });
});

describe('planTrade: properties', () => {
  it('projected loss never exceeds the requested risk unless flagged, and target volumes sum to the position', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 1_000_000 }),
        fc.integer({ min: 1, max: 300 }).map((n) => n / 100),
        fc.integer({ min: 5, max: 500 }),
        fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
        fc.constantFrom(DEFAULT_TARGETS, PROFILE_FALLBACK_TARGETS),
        (equity, riskPercent, pips, side, targets) => {
          const p = planTrade({
            ...base,
            side,
            account: { equity, currency: 'USD' },
            riskPercent,
            stopLoss: { mode: 'distance', pips },
            profit: { mode: 'multi', targets },
          });
          const requested = Math.round(equity * riskPercent) / 100;
          if (!p.lot.exceedsRequestedRisk) expect(p.projectedLoss).toBeLessThanOrEqual(requested);
          const sum = (p.targets ?? []).reduce((a, t) => a + Math.round(t.volume * 100), 0);
          expect(sum).toBe(Math.round(p.volume * 100));
        },
      ),
    );
  });
});
