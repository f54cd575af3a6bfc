import { describe, expect, it } from 'vitest';
import {
  ConversionError,
  conversionRate,
  findConversionRate,
  priceMoveValue,
  rateTable,
  withSymbolPrice,
} from './currency';

// A feed that only knows these pairs, each in one direction.
const rates = rateTable({ EURUSD: 1.25, USDJPY: 160, GBPUSD: 1.28, USDCHF: 0.8 });

describe('conversionRate', () => {
  it.each([
    ['USD', 'USD', 1, 'same currency is 1'],
    ['EUR', 'USD', 1.25, 'direct EURUSD 1.25'],
    ['USD', 'EUR', 0.8, 'inverse of EURUSD: 1 / 1.25 = 0.8'],
    ['JPY', 'USD', 1 / 160, 'inverse of USDJPY: 1 / 160'],
    ['EUR', 'JPY', 200, 'cross EUR→USD→JPY: 1.25 × 160 = 200'],
    ['JPY', 'EUR', 1 / 200, 'cross JPY→USD→EUR: (1/160) × (1/1.25) = 1/200'],
    ['GBP', 'CHF', 1.024, 'cross GBP→USD→CHF: 1.28 × 0.8 = 1.024'],
  ])('%s → %s = %d (%s)', (from, to, expected) => {
    expect(conversionRate(from, to, rates)).toBeCloseTo(expected, 12);
  });

  it('accepts lower-case codes and spaces', () => {
    expect(conversionRate(' eur ', 'usd', rates)).toBe(1.25);
  });

  it('throws a ConversionError naming both currencies when there is no route', () => {
    expect(() => conversionRate('AUD', 'USD', rates)).toThrow(ConversionError);
    expect(() => conversionRate('AUD', 'JPY', rates)).toThrow(
      'No exchange rate available to convert AUD into JPY (tried AUDJPY, JPYAUD and a cross through USD).',
    );
    expect(findConversionRate('AUD', 'JPY', rates)).toBeUndefined();
  });

  it('ignores zero, negative and NaN rates from the feed', () => {
    const broken = rateTable({ EURUSD: 0, USDEUR: Number.NaN });
    expect(findConversionRate('EUR', 'USD', broken)).toBeUndefined();
  });
});

describe('priceMoveValue: a 1.0 price move on one unit, in the account currency', () => {
  it.each([
    [
      'EURUSD on USD: quote USD is the account currency → 1',
      { base_currency: 'EUR', quote_currency: 'USD' },
      'USD',
      1,
    ],
    ['USDJPY on USD: 1 JPY = 1/160 USD', { base_currency: 'USD', quote_currency: 'JPY' }, 'USD', 1 / 160],
    ['EURJPY on USD: 1 JPY = 1/160 USD', { base_currency: 'EUR', quote_currency: 'JPY' }, 'USD', 1 / 160],
    ['EURUSD on EUR: 1 USD = 1/1.25 = 0.8 EUR', { base_currency: 'EUR', quote_currency: 'USD' }, 'EUR', 0.8],
    ['XAUUSD on EUR: 1 USD = 0.8 EUR', { base_currency: 'XAU', quote_currency: 'USD' }, 'EUR', 0.8],
    [
      'GBPJPY on EUR: 1 JPY = 1/200 EUR via USD',
      { base_currency: 'GBP', quote_currency: 'JPY' },
      'EUR',
      1 / 200,
    ],
  ])('%s', (_name, symbol, account, expected) => {
    expect(priceMoveValue(symbol, account, rates)).toBeCloseTo(expected, 12);
  });

  it("uses the symbol's own price when the feed lacks it: AUDUSD at 0.65 on an AUD account → 1 USD = 1/0.65 AUD", () => {
    const symbol = { base_currency: 'AUD', quote_currency: 'USD' };
    expect(() => priceMoveValue(symbol, 'AUD', rates)).toThrow(ConversionError);
    expect(priceMoveValue(symbol, 'AUD', rates, 0.65)).toBeCloseTo(1 / 0.65, 12);
    expect(withSymbolPrice(rates, symbol, 0.65)('AUD', 'USD')).toBe(0.65);
  });

  it('throws for an account currency nothing converts into', () => {
    expect(() => priceMoveValue({ base_currency: 'EUR', quote_currency: 'USD' }, 'NZD', rates)).toThrow(
      /convert USD into NZD/,
    );
  });
});
