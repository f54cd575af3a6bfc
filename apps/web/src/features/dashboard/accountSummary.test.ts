import { describe, expect, it } from 'vitest';
import { compactMoney, fullMoney } from './accountSummary.api';

describe('compactMoney', () => {
  it.each([
    [10_000, 'USD', 2, false, '10,000.00 USD'],
    [99_999.99, 'USD', 2, false, '99,999.99 USD'],
    [125_300.5, 'USD', 2, false, '125.3K USD'],
    [1_254_000, 'EUR', 2, false, '1.25M EUR'],
    [-2_500_000, 'USD', 2, false, '-2.5M USD'],
    [12.5, 'USD', 2, true, '+12.50 USD'],
    [-12.5, 'USD', 2, true, '-12.50 USD'],
    [0, 'USD', 2, true, '0.00 USD'],
    [1500, 'JPY', 0, false, '1,500 JPY'],
  ])('%d %s → %s', (value, currency, decimals, signed, text) => {
    expect(compactMoney(value, currency, decimals, signed)).toBe(text);
  });

  it('keeps the full amount for titles', () => {
    expect(fullMoney(1_254_000.5, 'USD', 2)).toBe('1,254,000.50 USD');
  });
});
