import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOUR, MONDAY, constant, mirror, seriesOf, walk } from '../testing/synthetic-candles';
import { atrScenario, bestCells } from './atr-scenario';

const bar = (i: number, open: number, high: number, low: number, close: number) => ({
  time: MONDAY + i * HOUR,
  open,
  high,
  low,
  close,
});

describe('atrScenario', () => {
  // ATR 1 throughout; entry at bar 1's open (100). Target 1 ATR = 101, stop 0.5 ATR = 99.5.
  const s = seriesOf([
    bar(0, 100, 100, 100, 100),
    bar(1, 100, 100.6, 99.8, 100.5), // neither
    bar(2, 100.5, 101.2, 100.3, 101), // long target (101) reached; entry 2 (100.5): nothing yet
    bar(3, 101, 101.1, 99.4, 99.5), // low 99.4, high 101.1: see the counts below
  ]);
  const atr = constant(4, 1);
  const r = atrScenario(s, atr, { targets: [1], stops: [0.5], horizonBars: 10 });
  const cell = (d: 'long' | 'short') => r.cells.find((c) => c.direction === d)!;

  it('counts entries whose target comes first, worst case inside a bar', () => {
    expect(r.entries).toBe(3);
    // long: entry 1 wins at bar 2 (its stop 99.5 only at bar 3); entry 2 (100.5) stop 100 at bar 3,
    // target 101.5 never → loss; entry 3 (101): target 102 never, stop 100.5 at bar 3 → loss
    expect([cell('long').wins, cell('long').losses, cell('long').unresolved]).toEqual([1, 2, 0]);
    // short: entry 1 target 99 never, stop 100.5 at bar 1 (high 100.6) → loss; entry 2 target 99.5 and stop
    // 101 both in bar 2? bar 2 high 101.2 ≥ 101 → stop first → loss; entry 3 target 100 and stop 101.5:
    // bar 3 low 99.4 reaches 100, high 101.1 not 101.5 → win
    expect([cell('short').wins, cell('short').losses]).toEqual([1, 2]);
    expect(cell('long').rewardR).toBe(2);
    expect(cell('long').expectancyR).toBeCloseTo((1 / 3) * 2 - 2 / 3, 12);
  });

  it('a bar reaching target and stop counts as a loss', () => {
    const both = seriesOf([bar(0, 100, 100, 100, 100), bar(1, 100, 102, 98, 100)]);
    const x = atrScenario(both, constant(2, 1), { targets: [1], stops: [1] });
    expect(x.cells.map((c) => [c.direction, c.wins, c.losses])).toEqual([
      ['long', 0, 1],
      ['short', 0, 1],
    ]);
  });

  it('leaves out entries that reach neither level within the horizon', () => {
    const quiet = seriesOf([0, 1, 2, 3].map((i) => bar(i, 100, 100.1, 99.9, 100)));
    const x = atrScenario(quiet, constant(4, 1), { targets: [1], stops: [1], horizonBars: 2 });
    expect(x.cells[0]!.unresolved).toBe(3);
    expect(x.cells[0]!.hitRate.pct).toBeNaN();
  });

  it('picks the best cells by expectancy among well-sampled ones', () => {
    const cells = [
      { expectancyR: 0.2, wins: 20, losses: 20 },
      { expectancyR: 0.5, wins: 5, losses: 5 },
      { expectancyR: 0.3, wins: 30, losses: 30 },
      { expectancyR: -0.1, wins: 40, losses: 40 },
    ] as unknown as Parameters<typeof bestCells>[0];
    expect(bestCells(cells).map((c) => c.expectancyR)).toEqual([0.3, 0.2]);
  });

  it('mirrored data swaps long and short (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 30, maxLength: 120 }),
        (moves) => {
          const w = walk(moves, 3);
          const a = atrScenario(w, constant(w.time.length, 0.8), { horizonBars: 40 });
          const b = atrScenario(mirror(w, 200), constant(w.time.length, 0.8), { horizonBars: 40 });
          const key = (c: (typeof a.cells)[number]) => `${c.k}/${c.m}`;
          for (const c of a.cells) {
            const other = b.cells.find((d) => d.direction !== c.direction && key(d) === key(c))!;
            expect([other.wins, other.losses, other.unresolved]).toEqual([c.wins, c.losses, c.unresolved]);
          }
          expect(b.sessionRanges.map((x) => x.count)).toEqual(a.sessionRanges.map((x) => x.count));
        },
      ),
      { numRuns: 40 },
    );
  });
});
