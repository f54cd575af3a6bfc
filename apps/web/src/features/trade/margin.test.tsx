import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { DEFAULT_TARGETS } from '@tradedesk/domain';
import type { SymbolInfoBody } from '@tradedesk/contract';
import { TradeCalculations } from './TradeCalculations';
import { computePlan, planRefusal, rowsFromTargets, type PlanContext, type TradeForm } from './tradePlan';

/**
 * The Place a Trade modal's margin check (issue 9): the plan it computes carries the margin the trade
 * needs and whether it fits the free margin, and the calculations panel shows both and the refusal.
 */
const EURUSD: SymbolInfoBody = {
  symbol: 'EURUSD',
  description: 'Euro vs US Dollar',
  digits: 5,
  pip_size: 0.0001,
  tick_size: 0.00001,
  contract_size: 100_000,
  base_currency: 'EUR',
  quote_currency: 'USD',
  volume_min: 0.01,
  volume_step: 0.01,
  volume_max: 100,
};
const form: TradeForm = {
  accountId: 'acc',
  symbol: 'EURUSD',
  direction: 'BUY',
  orderType: 'MARKET',
  limitPrice: '',
  riskPercent: 1,
  slMode: 'distance',
  slDistance: 20,
  slPrice: '',
  atrMultiplier: 1.5,
  profitMode: 'single',
  tpMode: 'rr_ratio',
  rr: 2,
  tpDistance: 40,
  tpPrice: '',
  targets: rowsFromTargets(DEFAULT_TARGETS),
  timeframe: '15M',
  reason: '',
  trader: 'Trader 1',
};
/** Ask 1.10000, 10,000 USD, 1:100: 1 % over 20 pips is 0.50 lots, which need 0.5 × 110,000 ÷ 100 = 550.00 USD. */
const ctx: PlanContext = {
  bid: 1.0999,
  ask: 1.1,
  info: EURUSD,
  equity: 10_000,
  accountCurrency: 'USD',
  maxLotSize: null,
  atr: null,
  conversion: [],
  leverage: 100,
  freeMargin: 10_000,
};
const REFUSAL = 'The margin this trade needs is above the free margin.';

function plan(over: Partial<PlanContext>, f: TradeForm = form) {
  const r = computePlan(f, { ...ctx, ...over });
  if (!r.ok) throw new Error(r.message);
  return r;
}
const panel = (over: Partial<PlanContext>) =>
  renderToStaticMarkup(
    <MantineProvider>
      <TradeCalculations result={plan(over)} currency="USD" freeMargin={over.freeMargin ?? null} />
    </MantineProvider>,
  );

describe('Place a Trade: margin and free margin', () => {
  it('plans the margin with the domain function: 550.00 USD, fits with 550.00 free, not with 549.99', () => {
    expect(plan({}).plan).toMatchObject({ volume: 0.5, margin: 550, marginFits: true });
    expect(plan({ freeMargin: 550 }).plan.marginFits).toBe(true);
    expect(plan({ freeMargin: 549.99 }).plan.marginFits).toBe(false);
    // A bigger risk needs more margin: 5 % → 2.50 lots → 2750.00 USD.
    expect(plan({ freeMargin: 2000 }, { ...form, riskPercent: 5 }).plan).toMatchObject({
      volume: 2.5,
      margin: 2750,
      marginFits: false,
    });
  });

  it('has no verdict before the account tells its leverage or free margin', () => {
    expect(plan({ leverage: null }).plan).toMatchObject({ margin: null, marginFits: null });
    expect(plan({ leverage: undefined, freeMargin: undefined }).plan.marginFits).toBeNull();
    expect(plan({ freeMargin: null }).plan).toMatchObject({ margin: 550, marginFits: null });
  });

  it('shows the margin and the free margin, and the refusal only when the trade does not fit', () => {
    const refused = panel({ freeMargin: 500 });
    expect(refused).toMatch(/data-testid="calc-margin"[^>]*>550\.00 USD</);
    expect(refused).toMatch(/data-testid="calc-free-margin"[^>]*>500\.00 USD</);
    expect(refused).toContain(REFUSAL);

    const fits = panel({ freeMargin: 550 });
    expect(fits).toMatch(/data-testid="calc-free-margin"[^>]*>550\.00 USD</);
    expect(fits).not.toContain(REFUSAL);

    // Without a leverage there is no margin figure and no refusal.
    const unknown = panel({ leverage: null, freeMargin: 100 });
    expect(unknown).not.toContain('calc-margin"');
    expect(unknown).not.toContain(REFUSAL);
  });
});

/** USDJPY on a JPY account: the quote is already in yen, so the rate is 1 and no pair is watched. */
const USDJPY: SymbolInfoBody = {
  ...EURUSD,
  symbol: 'USDJPY',
  description: 'US Dollar vs Japanese Yen',
  digits: 3,
  pip_size: 0.01,
  tick_size: 0.001,
  base_currency: 'USD',
  quote_currency: 'JPY',
};

describe('Place a Trade: the refusal before sending when the margin does not fit', () => {
  it('a JPY account is told whole yen: 75000 JPY required, 74999 JPY available', () => {
    // 1 % of 1,000,000 JPY over 20 pips (0.20 JPY × 100,000 = 20,000 JPY a lot) → 0.50 lots at
    // 150.000, which need 0.5 × 100,000 × 150 ÷ 100 = 75,000 JPY.
    const jpy = { info: USDJPY, bid: 149.99, ask: 150, equity: 1_000_000, accountCurrency: 'JPY' };
    const refused = plan({ ...jpy, freeMargin: 74_999 }, { ...form, symbol: 'USDJPY' }).plan;
    expect(refused).toMatchObject({ volume: 0.5, margin: 75_000, marginFits: false });
    expect(planRefusal(refused, { freeMargin: 74_999, currency: 'JPY' }, false)).toBe(
      'Not enough free margin: 75000 JPY required, 74999 JPY available.',
    );
    const fits = plan({ ...jpy, freeMargin: 75_000 }, { ...form, symbol: 'USDJPY' }).plan;
    expect(planRefusal(fits, { freeMargin: 75_000, currency: 'JPY' }, false)).toBeNull();
    // The calculations panel shows the same whole yen.
    const markup = renderToStaticMarkup(
      <MantineProvider>
        <TradeCalculations
          result={{ ok: true, plan: refused, entry: 150 }}
          currency="JPY"
          freeMargin={74_999}
        />
      </MantineProvider>,
    );
    expect(markup).toMatch(/data-testid="calc-margin"[^>]*>75000 JPY</);
    expect(markup).toMatch(/data-testid="calc-free-margin"[^>]*>74999 JPY</);
  });

  it('a EUR account is told cents: 550.00 EUR required, 549.50 EUR available', () => {
    // EURUSD at 1.10000 on EUR (rate 1/1.1): 0.55 lots need 0.55 × 100,000 EUR ÷ 100 = 550.00 EUR.
    const eur = { bid: 1.1, ask: 1.1, accountCurrency: 'EUR', freeMargin: 549.5 };
    const refused = plan(eur).plan;
    expect(refused).toMatchObject({ volume: 0.55, margin: 550, marginFits: false });
    expect(planRefusal(refused, { freeMargin: 549.5, currency: 'EUR' }, false)).toBe(
      'Not enough free margin: 550.00 EUR required, 549.50 EUR available.',
    );
  });

  it('the minimum-volume confirmation is asked for before the margin', () => {
    const p = plan({ freeMargin: 1 }, { ...form, riskPercent: 0.001 }).plan;
    expect(p.lot.exceedsRequestedRisk).toBe(true);
    expect(planRefusal(p, { freeMargin: 1, currency: 'USD' }, false)).toMatch(/Tick the box/);
    expect(planRefusal(p, { freeMargin: 1, currency: 'USD' }, true)).toBe(
      'Not enough free margin: 11.00 USD required, 1.00 USD available.',
    );
  });
});
