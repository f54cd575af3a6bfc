import { describe, expect, it } from 'vitest';
import { seriesOf } from '../testing/candle-rows';
import { FX_SESSION_OFFSET_MS, sessionStarts } from './sessions';
import { vwap } from './vwap';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
/** A bar whose open/high/low/close are all `price`, so every source is that price. */
const bar = (iso: string, price: number, volume: number) =>
  [at(iso), price, price, price, price, volume] as const;

describe('vwap', () => {
  // Monday: 10 × 1 and 12 × 3 → VWAP 46/4 = 11.5; σ² = (1 × 1.5² + 3 × 0.5²)/4 = 0.75.
  // Tuesday starts a new session: 20 × 2 → VWAP 20, σ 0.
  const bars = seriesOf([
    bar('2026-01-05T10:00:00Z', 10, 1),
    bar('2026-01-05T11:00:00Z', 12, 3),
    bar('2026-01-06T00:00:00Z', 20, 2),
  ]);

  it('daily VWAP and 1σ/2σ bands worked by hand', () => {
    const v = vwap(bars, { anchor: 'day', bands: [1, 2] });
    expect(Array.from(v.vwap)).toEqual([10, 11.5, 20]);
    const sigma = Math.sqrt(0.75);
    expect(v.upper).toHaveLength(2);
    expect(v.upper[0]![0]).toBe(10);
    expect(v.upper[0]![1]).toBeCloseTo(11.5 + sigma, 14);
    expect(v.lower[1]![1]).toBeCloseTo(11.5 - 2 * sigma, 14);
    expect(v.upper[1]![2]).toBe(20);
  });

  it('weekly anchor keeps Monday and Tuesday in one session', () => {
    const v = vwap(bars, { anchor: 'week' });
    expect(v.vwap[2]).toBeCloseTo((10 + 36 + 40) / 6, 14);
    expect(v.upper).toEqual([]);
  });

  it('bars before the session has volume are NaN', () => {
    const quiet = seriesOf([bar('2026-01-05T10:00:00Z', 10, 0), bar('2026-01-05T11:00:00Z', 12, 5)]);
    expect(Array.from(vwap(quiet, { bands: [1] }).upper[0]!)).toEqual([NaN, 12]);
  });

  it('source hlc3 by default; close when asked', () => {
    const one = seriesOf([[at('2026-01-05T10:00:00Z'), 1, 4, 1, 1, 1]]);
    expect(vwap(one).vwap[0]).toBe(2);
    expect(vwap(one, { source: 'close' }).vwap[0]).toBe(1);
  });

  it('keeps σ exact where Σv·x² ÷ Σv − VWAP² would cancel (a price of 40,000 moving by 0.01)', () => {
    const rows = Array.from({ length: 200 }, (_, i) =>
      bar(new Date(at('2026-01-05T00:00:00Z') + i * 60_000).toISOString(), 40_000 + (i % 2) * 0.01, 1),
    );
    const v = vwap(seriesOf(rows), { bands: [1] });
    // Half the bars at 40,000 and half at 40,000.01 with equal volume: σ = 0.005 exactly.
    expect(v.upper[0]![199]! - v.vwap[199]!).toBeCloseTo(0.005, 9);
  });

  it('refuses a band that is not a number', () => {
    expect(() => vwap(bars, { bands: [Number.NaN] })).toThrow('VWAP band multiple must be finite, got NaN.');
  });
});

describe('sessionStarts', () => {
  const times = (...isos: string[]) => Float64Array.from(isos, at);

  it('day: UTC midnight; with the FX offset: 22:00 UTC', () => {
    const t = times(
      '2026-01-05T21:00:00Z',
      '2026-01-05T22:00:00Z',
      '2026-01-05T23:00:00Z',
      '2026-01-06T00:00:00Z',
    );
    expect(Array.from(sessionStarts(t, 'day'))).toEqual([1, 0, 0, 1]);
    expect(Array.from(sessionStarts(t, 'day', FX_SESSION_OFFSET_MS))).toEqual([1, 1, 0, 0]);
  });

  it('week: Monday 00:00 UTC; with the FX offset: Sunday 22:00 UTC', () => {
    const t = times(
      '2026-01-04T21:00:00Z',
      '2026-01-04T22:00:00Z',
      '2026-01-05T00:00:00Z',
      '2026-01-11T23:00:00Z',
    );
    expect(Array.from(sessionStarts(t, 'week'))).toEqual([1, 0, 1, 0]);
    expect(Array.from(sessionStarts(t, 'week', FX_SESSION_OFFSET_MS))).toEqual([1, 1, 0, 1]);
  });

  it('month: the 1st at 00:00 UTC, any month length', () => {
    const t = times(
      '2026-01-31T23:00:00Z',
      '2026-02-01T00:00:00Z',
      '2026-02-28T23:00:00Z',
      '2026-03-01T00:00:00Z',
    );
    expect(Array.from(sessionStarts(t, 'month'))).toEqual([1, 1, 0, 1]);
  });

  it('a session-key function: a new session whenever the key changes', () => {
    const t = Float64Array.from([0, 1, 2, 3, 4, 5].map((h) => h * HOUR));
    const threeHours = (ms: number) => Math.floor(ms / (3 * HOUR));
    expect(Array.from(sessionStarts(t, threeHours))).toEqual([1, 0, 0, 1, 0, 0]);
  });

  it('refuses an unknown anchor', () => {
    expect(() => sessionStarts(times('2026-01-05T00:00:00Z'), 'year' as 'day')).toThrow(
      'Unknown session anchor "year".',
    );
  });
});
