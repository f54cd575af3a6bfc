import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY, MONDAY, constant, mirror, seriesOf, sessionBars, walk } from '../testing/synthetic-candles';
import { distanceBucket, vwapConditional, vwapPosition } from './vwap-conditional';

// VWAP held at 100 (given, not computed): the closes against it are chosen.
//           Asia (close vs VWAP)  London              New York
// Monday    99.5→101 above        101→99  (down) below  99→100 (up) at
// Tuesday   100→102 (up) above    102→102 flat above   102→98 (down) below
const bars = [
  ...sessionBars(MONDAY, 0, 7, 99.5, 101),
  ...sessionBars(MONDAY, 7, 14, 101, 99),
  ...sessionBars(MONDAY, 14, 23, 99, 100),
  ...sessionBars(MONDAY + DAY, 0, 7, 100, 102),
  ...sessionBars(MONDAY + DAY, 7, 14, 102, 102),
  ...sessionBars(MONDAY + DAY, 14, 23, 102, 98),
];
const worked = seriesOf(bars);
const n = worked.time.length;

describe('vwapConditional', () => {
  it("splits the next session's direction by the previous close against VWAP", () => {
    const r = vwapConditional(worked, constant(n, 100), constant(n, 1));
    const [asia, london, ny] = r.transitions;
    // Asia above → London: Monday down, Tuesday flat
    expect(asia!.byPosition.above.total).toBe(2);
    expect([
      asia!.byPosition.above.up.pct,
      asia!.byPosition.above.down.pct,
      asia!.byPosition.above.flat.pct,
    ]).toEqual([0, 50, 50]);
    // London below (Mon) → NY up; London above (Tue, flat at 102) → NY down
    expect(london!.byPosition.below.up.hits).toBe(1);
    expect(london!.byPosition.above.down.hits).toBe(1);
    // NY at VWAP (Mon, 100) → Tuesday's Asia up; Tuesday's NY has no next session
    expect(ny!.byPosition.at.total).toBe(1);
    expect(ny!.byPosition.at.up.pct).toBe(100);
    expect(ny!.byPosition.above.total + ny!.byPosition.below.total).toBe(0);
  });

  it('buckets by the distance from VWAP in ATR', () => {
    const r = vwapConditional(worked, constant(n, 100), constant(n, 1));
    // Asia Monday closes at 101 (+1 ATR) → "above by 1–2 ATR"; Tuesday at 102 (+2) → "above by ≥ 2 ATR"
    const asia = r.transitions[0]!.byDistance.filter((b) => b.split.total > 0);
    expect(asia.map((b) => [b.label, b.split.down.hits, b.split.flat.hits])).toEqual([
      ['above by 1–2 ATR', 1, 0],
      ['above by ≥ 2 ATR', 0, 1],
    ]);
  });

  it('positions and buckets', () => {
    expect(vwapPosition(1.10001, 1.1)).toBe('above');
    expect(vwapPosition(1.1, 1.1 + 1e-12)).toBe('at');
    expect([-3, -1.5, -0.7, -0.1, 0.1, 0.7, 1.5, 3].map(distanceBucket)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('mirror-symmetric data gives mirror-symmetric up/down figures (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 50, maxLength: 200 }),
        (moves) => {
          const s = walk(moves, 10);
          const vwap = Float64Array.from(s.close, (c, i) => (c + s.open[i]!) / 2);
          const atr = constant(s.time.length, 0.5);
          const a = vwapConditional(s, vwap, atr);
          const b = vwapConditional(
            mirror(s, 200),
            vwap.map((v) => 200 - v),
            atr,
          );
          for (let i = 0; i < a.transitions.length; i++) {
            const x = a.transitions[i]!;
            const y = b.transitions[i]!;
            expect(y.byPosition.below.down.hits).toBe(x.byPosition.above.up.hits);
            expect(y.byPosition.above.up.hits).toBe(x.byPosition.below.down.hits);
            expect(y.byPosition.above.flat.hits).toBe(x.byPosition.below.flat.hits);
            const k = x.byDistance.length;
            for (let j = 0; j < k; j++) {
              expect(y.byDistance[k - 1 - j]!.split.down.hits).toBe(x.byDistance[j]!.split.up.hits);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
