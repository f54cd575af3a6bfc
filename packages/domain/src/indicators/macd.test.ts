import { describe, expect, it } from 'vitest';
import { macd } from './macd';

describe('macd', () => {
  // Over 1, 2, 3, 5, 4, 6 with fast 2 (α 2/3), slow 3 (α 1/2), signal 2:
  //   EMA2 = 3/2, 5/2, 25/6, 73/18, 289/54 (from i=1); EMA3 = 2, 7/2, 15/4, 39/8 (from i=2)
  //   line = 1/2, 2/3, 11/36, 103/216 (from i=2); signal = 7/12, 43/108, 73/162 (from i=3)
  //   histogram at i=5: 103/216 − 73/162 = 17/648.
  const values = Float64Array.from([1, 2, 3, 5, 4, 6]);

  it('fast 2, slow 3, signal 2 worked by hand', () => {
    const m = macd(values, { fast: 2, slow: 3, signal: 2 });
    expect(Array.from(m.macd.slice(0, 2))).toEqual([NaN, NaN]);
    [1 / 2, 2 / 3, 11 / 36, 103 / 216].forEach((x, j) => expect(m.macd[2 + j]).toBeCloseTo(x, 12));
    expect(m.signal[2]).toBeNaN();
    [7 / 12, 43 / 108, 73 / 162].forEach((x, j) => expect(m.signal[3 + j]).toBeCloseTo(x, 12));
    expect(m.histogram[2]).toBeNaN();
    expect(m.histogram[5]).toBeCloseTo(17 / 648, 12);
  });

  it('defaults 12/26/9: line from index 25, signal and histogram from 33', () => {
    const xs = Float64Array.from({ length: 40 }, (_, i) => 100 + Math.sin(i / 3));
    const m = macd(xs);
    expect(m.macd[24]).toBeNaN();
    expect(m.macd[25]).not.toBeNaN();
    expect(m.signal[32]).toBeNaN();
    expect(m.histogram[33]).toBeCloseTo(m.macd[33]! - m.signal[33]!, 15);
  });

  it('refuses bad lengths', () => {
    expect(() => macd(values, { signal: 0 })).toThrow(
      'MACD signal length must be a positive integer, got 0.',
    );
  });
});
