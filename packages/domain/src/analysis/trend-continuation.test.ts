import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY, MONDAY, constant, mirror, seriesOf, sessionBars, walk } from '../testing/synthetic-candles';
import { quantileEdges, trendContinuation } from './trend-continuation';

// Three weekdays of hourly bars; each session drawn as a straight line from its open to its close.
//          Asia   London  New York
// Monday    up     up      down
// Tuesday   down   down    down
// Wednesday flat   up      up
const days = [
  [
    [100, 101],
    [101, 102],
    [102, 101.5],
  ],
  [
    [101.5, 101],
    [101, 100],
    [100, 99],
  ],
  [
    [99, 99],
    [99, 100],
    [100, 101],
  ],
] as const;
const hours = [
  [0, 7],
  [7, 14],
  [14, 23],
] as const;
const worked = seriesOf(
  days.flatMap((sessions, d) =>
    sessions.flatMap(([o, c], s) => sessionBars(MONDAY + d * DAY, hours[s]![0], hours[s]![1], o, c)),
  ),
);

describe('trendContinuation', () => {
  it('counts continuation over the days whose previous session was not flat', () => {
    const r = trendContinuation(worked, constant(worked.time.length, 1));
    const t = r.transitions.map((x) => [x.from, x.to, x.comparableDays, x.continuedDays, x.flatPreviousDays]);
    expect(t).toEqual([
      // Mon up→up, Tue down→down; Wednesday's flat Asia left out
      ['Asia', 'London', 2, 2, 1],
      // Mon up→down, Tue down→down, Wed up→up
      ['London', 'New York', 3, 2, 0],
      // Mon NY down → Tue Asia down; Tue NY down → Wed Asia flat (not continued); Wed has no next day
      ['New York', 'Asia', 2, 1, 0],
    ]);
    expect(r.transitions[1]!.rate.pct).toBeCloseTo(200 / 3, 10);
    expect(r.transitions[2]!.rate.pct).toBe(50);
  });

  it('splits by weekday of the previous session', () => {
    const r = trendContinuation(worked, constant(worked.time.length, 1));
    expect(r.transitions[1]!.byWeekday.map((w) => [w.label, w.rate.hits, w.rate.total])).toEqual([
      ['Monday', 0, 1],
      ['Tuesday', 1, 1],
      ['Wednesday', 1, 1],
    ]);
  });

  it('buckets by the previous range in ATR', () => {
    // London ranges: Mon 1.02, Tue 1.02, Wed 1.02 (line of 1.0 plus 0.01 wicks) → ATR 0.51 gives 2.0
    const r = trendContinuation(worked, constant(worked.time.length, 0.51));
    const london = r.transitions[1]!;
    expect(london.rangeEdges).toEqual([2]);
    expect(london.byRange.map((b) => [b.label, b.rate.total])).toEqual([
      ['< 2.00 ATR', 0],
      ['≥ 2.00 ATR', 3],
    ]);
  });

  it('quantile edges cut a sample into equal groups', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantileEdges(v, 5)).toEqual([20.8, 40.6, 60.4, 80.2]);
    expect(quantileEdges([], 5)).toEqual([]);
  });

  it('the mirror image continues exactly as often (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 50, maxLength: 200 }),
        (moves) => {
          const s = walk(moves, 10);
          const atr = constant(s.time.length, 0.7);
          const a = trendContinuation(s, atr);
          const b = trendContinuation(mirror(s, 200), atr);
          for (let i = 0; i < a.transitions.length; i++) {
            const x = a.transitions[i]!;
            const y = b.transitions[i]!;
            expect([y.comparableDays, y.continuedDays]).toEqual([x.comparableDays, x.continuedDays]);
            expect(y.byRange.map((q) => q.rate.hits)).toEqual(x.byRange.map((q) => q.rate.hits));
            if (x.comparableDays > 0) {
              expect(x.rate.low).toBeLessThanOrEqual(x.rate.pct);
              expect(x.rate.high).toBeGreaterThanOrEqual(x.rate.pct);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
