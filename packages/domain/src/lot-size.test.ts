import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { calculateLotSize, floorVolume, type LotSizeInput } from './lot-size';
import { priceMoveValue, rateTable } from './currency';

type InputOf<A> = A extends fc.Arbitrary<infer T> ? T : never;

const FX = { volume_min: 0.01, volume_step: 0.01, volume_max: 100 };
const rates = rateTable({ USDJPY: 160, EURUSD: 1.25 });

function size(over: Partial<LotSizeInput>) {
  return calculateLotSize({
    equity: 10_000,
    riskPercent: 1,
    slDistance: 0.002,
    contractSize: 100_000,
    quoteToAccountRate: 1,
    limits: FX,
    accountCurrency: 'USD',
    ...over,
  });
}

describe('calculateLotSize: worked cases', () => {
  it('EURUSD on USD: 10,000 × 1% = 100 USD ÷ (0.0020 × 100,000 × 1 = 200 USD/lot) = 0.50 lots', () => {
    const r = size({});
    expect(r.volume).toBe(0.5);
    expect(r.requestedRisk).toBe(100);
    expect(r.actualRisk).toBe(100);
    expect(r.riskPerLot).toBeCloseTo(200, 9);
    expect(r.limitedBy).toBeNull();
    expect(r.exceedsRequestedRisk).toBe(false);
    expect(r.reason).toBeNull();
  });

  it("the spec's pip form is the same case: 10,000 × 1% ÷ (20 pips × 100,000 × 0.0001) = 100 ÷ 200 = 0.50 lots", () => {
    const pips = 20;
    const pipSize = 0.0001;
    expect(size({ slDistance: pips * pipSize }).volume).toBe((10_000 * 0.01) / (pips * 100_000 * pipSize));
  });

  it('USDJPY on USD at 160: 100 USD ÷ (0.32 × 100,000 = 32,000 JPY ÷ 160 = 200 USD/lot) = 0.50 lots', () => {
    const rate = priceMoveValue({ base_currency: 'USD', quote_currency: 'JPY' }, 'USD', rates);
    const r = size({ slDistance: 0.32, quoteToAccountRate: rate });
    expect(r.volume).toBe(0.5);
    expect(r.actualRisk).toBe(100);
  });

  it('EURJPY on USD (USDJPY 160): 10,000 × 0.5% = 50 USD ÷ (0.40 × 100,000 = 40,000 JPY ÷ 160 = 250 USD/lot) = 0.20 lots', () => {
    const rate = priceMoveValue({ base_currency: 'EUR', quote_currency: 'JPY' }, 'USD', rates);
    const r = size({ riskPercent: 0.5, slDistance: 0.4, quoteToAccountRate: rate });
    expect(r.volume).toBe(0.2);
    expect(r.requestedRisk).toBe(50);
    expect(r.actualRisk).toBe(50);
  });

  it('EURUSD on EUR (EURUSD 1.25): 10,000 EUR × 1% = 100 EUR ÷ (0.0025 × 100,000 = 250 USD ÷ 1.25 = 200 EUR/lot) = 0.50 lots', () => {
    const rate = priceMoveValue({ base_currency: 'EUR', quote_currency: 'USD' }, 'EUR', rates);
    const r = size({ slDistance: 0.0025, quoteToAccountRate: rate, accountCurrency: 'EUR' });
    expect(r.volume).toBe(0.5);
    expect(r.actualRisk).toBe(100);
  });

  it('XAUUSD (contract 100) on USD: 20,000 × 1% = 200 USD ÷ (5.00 × 100 = 500 USD/lot) = 0.40 lots', () => {
    const r = size({ equity: 20_000, slDistance: 5, contractSize: 100 });
    expect(r.volume).toBe(0.4);
    expect(r.actualRisk).toBe(200);
  });

  it('US100 (contract 1, step 0.1) on USD: 10,000 × 1% = 100 USD ÷ (45 points × 1 = 45 USD/lot) = 2.22 → floored to 2.2 lots, 99.00 USD', () => {
    const r = size({
      slDistance: 45,
      contractSize: 1,
      limits: { volume_min: 0.1, volume_step: 0.1, volume_max: 500 },
    });
    expect(r.volume).toBe(2.2);
    expect(r.actualRisk).toBe(99);
  });

  it('GBPJPY on a EUR account via USD cross: 10,000 EUR × 1% = 100 EUR ÷ (0.90 × 100,000 = 90,000 JPY ÷ 200 = 450 EUR/lot) = 0.2222 → 0.22 lots, 99.00 EUR', () => {
    const rate = priceMoveValue({ base_currency: 'GBP', quote_currency: 'JPY' }, 'EUR', rates);
    const r = size({ slDistance: 0.9, quoteToAccountRate: rate, accountCurrency: 'EUR' });
    expect(r.volume).toBe(0.22);
    expect(r.actualRisk).toBe(99);
  });

  it('rounds down, never up: 100 USD ÷ (0.0030 × 100,000 = 300 USD/lot) = 0.3333 → 0.33 lots, 99.00 USD', () => {
    const r = size({ slDistance: 0.003 });
    expect(r.rawVolume).toBeCloseTo(1 / 3, 12);
    expect(r.volume).toBe(0.33);
    expect(r.actualRisk).toBe(99);
  });

  it('2 decimals even when the step is finer: step 0.001, 100 USD ÷ 300 USD/lot = 0.333 → 0.33 lots', () => {
    const r = size({ slDistance: 0.003, limits: { volume_min: 0.001, volume_step: 0.001, volume_max: 100 } });
    expect(r.volume).toBe(0.33);
  });

  it('float noise does not cost a step: 10,000 × 0.3% = 30 USD ÷ 100 USD/lot = 0.3 (0.30000000000000004) → 0.30 lots', () => {
    const r = size({ riskPercent: 0.3, slDistance: 0.001 });
    expect(r.volume).toBe(0.3);
    expect(r.actualRisk).toBe(30);
  });

  it('minimum volume forces more risk, flagged: 500 × 0.5% = 2.50 USD ÷ (0.0050 × 100,000 = 500 USD/lot) = 0.005 < 0.01 → 0.01 lots risking 5.00 USD', () => {
    const r = size({ equity: 500, riskPercent: 0.5, slDistance: 0.005 });
    expect(r.volume).toBe(0.01);
    expect(r.limitedBy).toBe('volume_min');
    expect(r.exceedsRequestedRisk).toBe(true);
    expect(r.actualRisk).toBe(5);
    expect(r.requestedRisk).toBe(2.5);
    expect(r.reason).toBe(
      "The symbol's minimum volume of 0.01 lots risks 5.00 USD, more than the requested 2.50 USD (0.5% of equity).",
    );
  });

  it("clamped to the account's max_lot_size: 100,000 × 2% = 2,000 USD ÷ (0.0010 × 100,000 = 100 USD/lot) = 20 lots → 5.00 lots, 500.00 USD", () => {
    const r = size({ equity: 100_000, riskPercent: 2, slDistance: 0.001, maxLotSize: 5 });
    expect(r.volume).toBe(5);
    expect(r.limitedBy).toBe('max_lot_size');
    expect(r.actualRisk).toBe(500);
    expect(r.exceedsRequestedRisk).toBe(false);
    expect(r.reason).toBe(
      "Volume capped at the account's max_lot_size of 5.00 lots (risk would allow 20.00).",
    );
  });

  it("clamped to the symbol's volume_max: 1,000,000 × 1% = 10,000 USD ÷ 100 USD/lot = 100 lots → 50 lots", () => {
    const r = size({ equity: 1_000_000, slDistance: 0.001, limits: { ...FX, volume_max: 50 } });
    expect(r.volume).toBe(50);
    expect(r.limitedBy).toBe('volume_max');
  });

  it('a max_lot_size below the symbol minimum leaves no tradable volume', () => {
    const r = size({ maxLotSize: 0.005 });
    expect(r.volume).toBe(0);
    expect(r.actualRisk).toBe(0);
    expect(r.limitedBy).toBe('max_lot_size');
    expect(r.reason).toMatch(/below the symbol's minimum volume 0.01/);
  });

  it('JPY account money has no decimals: 1,000,000 JPY × 1% = 10,000 JPY ÷ (0.50 × 100,000 = 50,000 JPY/lot) = 0.20 lots', () => {
    const r = size({ equity: 1_000_000, slDistance: 0.5, accountCurrency: 'JPY' });
    expect(r.volume).toBe(0.2);
    expect(r.actualRisk).toBe(10_000);
  });

  it.each([
    ['equity', { equity: 0 }, /Equity must be a positive number/],
    ['risk', { riskPercent: -1 }, /Risk percent/],
    ['SL distance', { slDistance: 0 }, /Stop-loss distance/],
    ['rate', { quoteToAccountRate: Number.NaN }, /conversion rate/],
    ['max_lot_size', { maxLotSize: 0 }, /max_lot_size/],
  ])('refuses a non-positive %s', (_n, over, message) => {
    expect(() => size(over as Partial<LotSizeInput>)).toThrow(message);
  });
});

describe('calculateLotSize: properties', () => {
  const input = fc.record({
    equity: fc.double({ min: 10, max: 10_000_000, noNaN: true }),
    riskPercent: fc.double({ min: 0.01, max: 10, noNaN: true }),
    slDistance: fc.double({ min: 0.00001, max: 500, noNaN: true }),
    contractSize: fc.constantFrom(1, 10, 100, 1000, 100_000),
    quoteToAccountRate: fc.double({ min: 0.001, max: 200, noNaN: true }),
    step: fc.constantFrom(0.01, 0.1, 1, 0.001),
    volumeMax: fc.constantFrom(10, 100, 1000),
    maxLotSize: fc.option(fc.constantFrom(0.5, 1, 5, 50), { nil: null }),
  });
  const run = (i: InputOf<typeof input>) =>
    calculateLotSize({
      equity: i.equity,
      riskPercent: i.riskPercent,
      slDistance: i.slDistance,
      contractSize: i.contractSize,
      quoteToAccountRate: i.quoteToAccountRate,
      limits: { volume_min: Math.max(i.step, 0.01), volume_step: i.step, volume_max: i.volumeMax },
      maxLotSize: i.maxLotSize,
      accountCurrency: 'USD',
    });

  // 1e-9 relative slack: the floor treats 1e-9 of a step as float noise (see rounding.ts).
  const SLACK = 1 + 1e-9;

  it('never risks more than requested unless the minimum volume forces it, and then says so', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = run(i);
        const requested = (i.equity * i.riskPercent) / 100;
        if (r.exceedsRequestedRisk) {
          expect(r.limitedBy).toBe('volume_min');
          expect(r.volume).toBe(Math.max(i.step, 0.01));
          expect(r.reason).toMatch(/more than the requested/);
        } else {
          expect(r.volume * r.riskPerLot).toBeLessThanOrEqual(requested * SLACK);
        }
      }),
    );
  });

  it('rounding never rounds up past the risk, and never leaves a whole step on the table', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = run(i);
        if (r.limitedBy !== null) return;
        expect(r.volume).toBeLessThanOrEqual(r.rawVolume * SLACK);
        // One more lot-grid step would exceed the risk.
        const grid = Math.max(i.step, 0.01);
        expect((r.volume + grid) * r.riskPerLot).toBeGreaterThan((i.equity * i.riskPercent) / 100 / SLACK);
      }),
    );
  });

  it('the volume is on the step grid, has at most 2 decimals and respects every cap', () => {
    fc.assert(
      fc.property(input, (i) => {
        const r = run(i);
        expect(Number(r.volume.toFixed(2))).toBe(r.volume);
        expect(Math.abs(r.volume / i.step - Math.round(r.volume / i.step))).toBeLessThan(1e-6);
        expect(r.volume).toBeLessThanOrEqual(i.volumeMax);
        if (i.maxLotSize !== null) expect(r.volume).toBeLessThanOrEqual(i.maxLotSize);
      }),
    );
  });

  it('floorVolume(0.1 + 0.2, 0.01) is 0.30', () => {
    expect(floorVolume(0.1 + 0.2, 0.01)).toBe(0.3);
  });
});
