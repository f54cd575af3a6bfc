import { describe, expect, it } from 'vitest';
import { computeIndicator, crossoverSeries, IndicatorRequestError } from './indicator-requests';

const series = (close: number[]) => {
  const c = Float64Array.from(close);
  return { time: c.map((_x, i) => i * 60_000), open: c, high: c, low: c, close: c, volume: c.map(() => 1) };
};

describe('indicator requests', () => {
  it('marks crossings: 1 where a crosses above b, none across NaN', () => {
    expect([...crossoverSeries(Float64Array.of(1, 2, 3, 1, 3), Float64Array.of(2, 2, 2, 2, 2))]).toEqual([
      0, 0, 1, 0, 1,
    ]);
    expect([...crossoverSeries(Float64Array.of(NaN, 3), Float64Array.of(2, 2))]).toEqual([0, 0]);
  });

  it('computes crossover/crossunder of requested series and prices', () => {
    const s = series([3, 1, 3, 1]);
    // sma(2): NaN, 2, 2, 2 — close crosses above it at bar 2, below it at bar 1 and 3 (bar 1 has no prior SMA).
    expect([...computeIndicator('crossover(close,sma(2))', s)]).toEqual([0, 0, 1, 0]);
    expect([...computeIndicator('crossunder(close, sma(2))', s)]).toEqual([0, 0, 0, 1]);
  });

  it('refuses unknown names with the list of known ones', () => {
    expect(() => computeIndicator('macd(1)', series([1, 2]))).toThrow(IndicatorRequestError);
    expect(() => computeIndicator('crossover(ema(2))', series([1, 2]))).toThrow(
      /Unknown indicator "crossover\(ema\(2\)\)"/,
    );
  });
});
