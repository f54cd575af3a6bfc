import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { notEnoughMarginMessage, planTrade, type PlanSymbol, type TradePlanInput } from './trade-plan';

/**
 * The margin a planned trade needs and whether it fits the free margin: what the Place a Trade modal
 * shows and refuses on (issue 9). margin = volume × contract size × entry × quote→account rate ÷
 * leverage, rounded to the account currency's minor unit; it fits when margin ≤ free margin.
 */
const FX: PlanSymbol = {
  digits: 5,
  pip_size: 0.0001,
  contract_size: 100_000,
  volume_min: 0.01,
  volume_step: 0.01,
  volume_max: 100,
};
const JPY_QUOTED: PlanSymbol = { ...FX, digits: 3, pip_size: 0.01 };

const eurusd: TradePlanInput = {
  side: 'BUY',
  entry: 1.1,
  symbol: FX,
  account: { equity: 10_000, currency: 'USD', leverage: 100, free_margin: 10_000 },
  riskPercent: 1,
  quoteToAccountRate: 1,
  stopLoss: { mode: 'distance', pips: 20 },
  profit: { mode: 'single', takeProfit: { mode: 'rr_ratio', rr: 2 } },
};
const withAccount = (account: Partial<TradePlanInput['account']>, input = eurusd): TradePlanInput => ({
  ...input,
  account: { ...input.account, ...account },
});

describe('planTrade: margin and whether it fits, worked cases', () => {
  it('EURUSD 0.50 lots at 1.10000 on USD at 1:100: 0.5 × 100,000 × 1.1 ÷ 100 = 550.00 USD', () => {
    const p = planTrade(eurusd);
    expect(p.volume).toBe(0.5);
    expect(p.margin).toBe(550);
    expect(p.marginFits).toBe(true);
  });

  it('fits with exactly the margin free, and not with one cent less', () => {
    expect(planTrade(withAccount({ free_margin: 550 })).marginFits).toBe(true);
    expect(planTrade(withAccount({ free_margin: 549.99 })).marginFits).toBe(false);
    expect(planTrade(withAccount({ free_margin: 0 })).marginFits).toBe(false);
    // A negative free margin (an account under water) never fits.
    expect(planTrade(withAccount({ free_margin: -10 })).marginFits).toBe(false);
  });

  it('the leverage divides the margin: 1:30 needs 0.5 × 110,000 ÷ 30 = 1833.33 USD', () => {
    const p = planTrade(withAccount({ leverage: 30, free_margin: 1833.33 }));
    expect(p.margin).toBe(1833.33);
    expect(p.marginFits).toBe(true);
    expect(planTrade(withAccount({ leverage: 30, free_margin: 1833.32 })).marginFits).toBe(false);
  });

  it('EURUSD on a EUR account (rate 1/1.1): the margin is the EUR notional ÷ leverage = 500.00 EUR', () => {
    const p = planTrade({
      ...withAccount({ currency: 'EUR', free_margin: 499.99 }),
      quoteToAccountRate: 1 / 1.1,
    });
    // 1 % of 10,000 EUR over 20 pips worth 18.18 EUR a lot → 0.55 lots; 0.55 × 100,000 EUR ÷ 100.
    expect(p.volume).toBe(0.55);
    expect(p.margin).toBe(550);
    expect(p.marginFits).toBe(false);
  });

  it('USDJPY 150.000 on USD at 1:100: 0.75 lots × 100,000 × 150 × (1/150) ÷ 100 = 750.00 USD', () => {
    const p = planTrade({
      ...withAccount({ free_margin: 749.99 }),
      symbol: JPY_QUOTED,
      entry: 150,
      quoteToAccountRate: 1 / 150,
    });
    // 100 USD over 20 pips (0.20 JPY × 100,000 = 20,000 JPY = 133.33 USD a lot) → 0.75 lots.
    expect(p.volume).toBe(0.75);
    expect(p.margin).toBe(750);
    expect(p.marginFits).toBe(false);
  });

  it('EURJPY 160.123 on a JPY account at 1:30: rounded to whole yen, 266,871.67 → 266,872 JPY', () => {
    const eurjpy = (free: number) =>
      planTrade({
        ...withAccount({ currency: 'JPY', equity: 1_000_000, leverage: 30, free_margin: free }),
        symbol: JPY_QUOTED,
        entry: 160.123,
      });
    // 1 % of 1,000,000 JPY over 20 pips (0.20 × 100,000 = 20,000 JPY a lot) → 0.50 lots.
    expect(eurjpy(266_872).volume).toBe(0.5);
    expect(eurjpy(266_872).margin).toBe(266_872);
    expect(eurjpy(266_872).marginFits).toBe(true);
    expect(eurjpy(266_871).marginFits).toBe(false);
  });

  it('without a leverage there is no margin, and without a free margin no verdict', () => {
    for (const leverage of [undefined, null, 0]) {
      const p = planTrade(withAccount({ leverage }));
      expect(p.margin).toBeNull();
      expect(p.marginFits).toBeNull();
    }
    const unknownFree = planTrade(withAccount({ free_margin: null }));
    expect(unknownFree.margin).toBe(550);
    expect(unknownFree.marginFits).toBeNull();
  });

  it('a plan with no volume (max_lot_size below the minimum) needs no margin and fits with nothing free', () => {
    const p = planTrade(withAccount({ free_margin: 0, max_lot_size: 0.001 }));
    expect(p.volume).toBe(0);
    expect(p.margin).toBe(0);
    expect(p.marginFits).toBe(true);
  });

  it('the minimum volume forced above the risk is what the margin is for', () => {
    const p = planTrade({ ...withAccount({ free_margin: 10.99 }), riskPercent: 0.001 });
    // 0.10 USD of risk cannot buy 0.01 lot; the minimum 0.01 lot needs 0.01 × 110,000 ÷ 100 = 11.00 USD.
    expect(p.volume).toBe(0.01);
    expect(p.lot.exceedsRequestedRisk).toBe(true);
    expect(p.margin).toBe(11);
    expect(p.marginFits).toBe(false);
  });
});

describe("notEnoughMarginMessage: both amounts in the account currency's minor unit", () => {
  it('a JPY account has whole yen: the EURJPY plan above, 266,872 JPY needed and 266,871 free', () => {
    const p = planTrade({
      ...withAccount({ currency: 'JPY', equity: 1_000_000, leverage: 30, free_margin: 266_871 }),
      symbol: JPY_QUOTED,
      entry: 160.123,
    });
    expect(notEnoughMarginMessage(p.margin!, 266_871, 'JPY')).toBe(
      'Not enough free margin: 266872 JPY required, 266871 JPY available.',
    );
    // Fractions of a yen are rounded half away from zero, never shown: 1234.5 → 1235, 999.4 → 999.
    expect(notEnoughMarginMessage(1234.5, 999.4, 'jpy')).toBe(
      'Not enough free margin: 1235 JPY required, 999 JPY available.',
    );
  });

  it('a EUR account has cents: 550.00 EUR needed, 499.99 EUR free', () => {
    const p = planTrade({
      ...withAccount({ currency: 'EUR', free_margin: 499.99 }),
      quoteToAccountRate: 1 / 1.1,
    });
    expect(notEnoughMarginMessage(p.margin!, 499.99, 'EUR')).toBe(
      'Not enough free margin: 550.00 EUR required, 499.99 EUR available.',
    );
    // 1.005 is 1.00499… in binary; the amount is rounded as the decimal it was typed as.
    expect(notEnoughMarginMessage(1.005, 0, 'EUR')).toBe(
      'Not enough free margin: 1.01 EUR required, 0.00 EUR available.',
    );
  });

  it('a KWD account has three decimals', () => {
    expect(notEnoughMarginMessage(12.3456, 10, 'KWD')).toBe(
      'Not enough free margin: 12.346 KWD required, 10.000 KWD available.',
    );
  });
});

describe('planTrade: margin properties', () => {
  it('fits exactly when the margin is at most the free margin, and the free margin never changes the margin', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.double({ min: -1_000, max: 50_000, noNaN: true }),
        fc.double({ min: 1.01, max: 1.5, noNaN: true }),
        fc.integer({ min: 5, max: 200 }),
        (leverage, free, entry, pips) => {
          const input = {
            ...withAccount({ leverage, free_margin: free }),
            entry,
            stopLoss: { mode: 'distance' as const, pips },
          };
          const p = planTrade(input);
          expect(p.marginFits).toBe(p.margin! <= free);
          expect(p.margin).toBe(planTrade(withAccount({ free_margin: null }, input)).margin);
          // Within a cent of volume × contract × entry ÷ leverage.
          expect(Math.abs(p.margin! - (p.volume * 100_000 * entry) / leverage)).toBeLessThanOrEqual(
            0.005 + 1e-9,
          );
        },
      ),
    );
  });
});
