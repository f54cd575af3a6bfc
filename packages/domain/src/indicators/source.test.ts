import { describe, expect, it } from 'vitest';
import { seriesOf } from '../testing/candle-rows';
import { PRICE_SOURCES, priceSource, type PriceSource } from './source';

describe('priceSource', () => {
  // open 1, high 4, low 0, close 3
  const s = seriesOf([[0, 1, 4, 0, 3, 10]]);

  it('columns as they are, and the composite prices', () => {
    expect(priceSource(s, 'close')).toBe(s.close);
    expect(priceSource(s, 'open')[0]).toBe(1);
    expect(priceSource(s, 'high')[0]).toBe(4);
    expect(priceSource(s, 'low')[0]).toBe(0);
    expect(priceSource(s, 'hl2')[0]).toBe(2);
    expect(priceSource(s, 'hlc3')[0]).toBeCloseTo(7 / 3, 15);
    expect(priceSource(s, 'ohlc4')[0]).toBe(2);
  });

  it('lists the seven sources of the template and refuses others', () => {
    expect(PRICE_SOURCES).toEqual(['open', 'high', 'low', 'close', 'hl2', 'hlc3', 'ohlc4']);
    expect(() => priceSource(s, 'median' as PriceSource)).toThrow('Unknown price source "median".');
  });
});
