import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canResample, resample } from './resample';
import { barAt, seriesFromBars, type CandleBar } from './series-ops';
import { bucketEnd, bucketStart, CANDLE_TIMEFRAMES, FX_WEEK_ORIGIN_MS } from './timeframes';

const at = (iso: string) => Date.parse(iso);
const bar = (iso: string, o: number, h: number, l: number, c: number, v = 1): CandleBar => ({
  time: at(iso),
  open: o,
  high: h,
  low: l,
  close: c,
  volume: v,
});
const bars = (s: ReturnType<typeof resample>) => Array.from(s.time, (_, i) => barAt(s, i));

describe('timeframe buckets', () => {
  it.each([
    ['M3', '2026-01-07T10:05:59Z', '2026-01-07T10:03:00.000Z', '2026-01-07T10:06:00.000Z'],
    ['H2', '2026-01-07T11:59:00Z', '2026-01-07T10:00:00.000Z', '2026-01-07T12:00:00.000Z'],
    ['H4', '2026-01-07T03:00:00Z', '2026-01-07T00:00:00.000Z', '2026-01-07T04:00:00.000Z'],
    ['D1', '2026-01-07T23:59:00Z', '2026-01-07T00:00:00.000Z', '2026-01-08T00:00:00.000Z'],
    // The FX week opens Sunday 22:00 UTC: Sunday 21:59 still belongs to the week before.
    ['W1', '2026-01-04T21:59:00Z', '2025-12-28T22:00:00.000Z', '2026-01-04T22:00:00.000Z'],
    ['W1', '2026-01-04T22:00:00Z', '2026-01-04T22:00:00.000Z', '2026-01-11T22:00:00.000Z'],
    ['W1', '2026-01-09T21:59:00Z', '2026-01-04T22:00:00.000Z', '2026-01-11T22:00:00.000Z'],
    // Months by calendar, of any length.
    ['MN1', '2024-02-29T23:59:00Z', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['MN1', '2025-12-31T23:59:00Z', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
  ] as const)('%s bucket of %s opens at %s and ends at %s', (tf, t, start, end) => {
    const s = bucketStart(tf, at(t));
    expect(new Date(s).toISOString()).toBe(start);
    expect(new Date(bucketEnd(tf, s)).toISOString()).toBe(end);
  });

  it('starts the FX week on a Sunday at 22:00', () => {
    expect(new Date(FX_WEEK_ORIGIN_MS).toISOString()).toBe('1970-01-04T22:00:00.000Z');
    expect(new Date(FX_WEEK_ORIGIN_MS).getUTCDay()).toBe(0);
  });
});

describe('resample', () => {
  it('M1 to M5: open of the first, extremes, close of the last, volumes summed; a missing minute is no gap in the bar', () => {
    const m1 = seriesFromBars([
      bar('2026-01-07T10:00:00Z', 1.1, 1.12, 1.09, 1.11, 3),
      bar('2026-01-07T10:01:00Z', 1.11, 1.15, 1.1, 1.14, 4),
      // 10:02 has no trade
      bar('2026-01-07T10:03:00Z', 1.14, 1.14, 1.05, 1.06, 5),
      bar('2026-01-07T10:04:00Z', 1.06, 1.08, 1.06, 1.07, 1),
      bar('2026-01-07T10:05:00Z', 1.07, 1.07, 1.07, 1.07, 2),
    ]);
    expect(bars(resample(m1, 'M1', 'M5'))).toEqual([
      bar('2026-01-07T10:00:00Z', 1.1, 1.15, 1.05, 1.07, 13),
      bar('2026-01-07T10:05:00Z', 1.07, 1.07, 1.07, 1.07, 2),
    ]);
  });

  it('M1 to H1 keeps a session gap: no bar for hours without trading', () => {
    const m1 = seriesFromBars([
      bar('2026-01-07T21:59:00Z', 100, 101, 99, 100.5),
      // an index's daily break 22:00-23:00: no bars
      bar('2026-01-07T23:00:00Z', 101, 102, 100, 101.5),
      bar('2026-01-07T23:30:00Z', 101.5, 103, 101, 102),
    ]);
    expect(bars(resample(m1, 'M1', 'H1'))).toEqual([
      bar('2026-01-07T21:00:00Z', 100, 101, 99, 100.5),
      bar('2026-01-07T23:00:00Z', 101, 103, 100, 102, 2),
    ]);
  });

  it('H1 to W1: Friday evening and Sunday evening fall in different FX weeks; no bar over the weekend', () => {
    const h1 = seriesFromBars([
      bar('2026-01-09T20:00:00Z', 1.16, 1.17, 1.15, 1.165, 10),
      bar('2026-01-09T21:00:00Z', 1.165, 1.168, 1.16, 1.162, 5),
      bar('2026-01-11T22:00:00Z', 1.17, 1.18, 1.169, 1.175, 7),
      bar('2026-01-12T08:00:00Z', 1.175, 1.19, 1.17, 1.185, 9),
    ]);
    expect(bars(resample(h1, 'H1', 'W1'))).toEqual([
      bar('2026-01-04T22:00:00Z', 1.16, 1.17, 1.15, 1.162, 15),
      bar('2026-01-11T22:00:00Z', 1.17, 1.19, 1.169, 1.185, 16),
    ]);
  });

  it('D1 to MN1 by calendar month (January 31 and February 1 part)', () => {
    const d1 = seriesFromBars([
      bar('2026-01-30T00:00:00Z', 10, 12, 9, 11),
      bar('2026-01-31T00:00:00Z', 11, 13, 10, 12),
      bar('2026-02-01T00:00:00Z', 12, 12, 8, 9),
    ]);
    expect(bars(resample(d1, 'D1', 'MN1'))).toEqual([
      bar('2026-01-01T00:00:00Z', 10, 13, 9, 12, 2),
      bar('2026-02-01T00:00:00Z', 12, 12, 8, 9),
    ]);
  });

  it('M1 to M3 and H1 to H2, the chart timeframes 3m and 2h', () => {
    const m1 = seriesFromBars([
      bar('2026-01-07T10:02:00Z', 1, 2, 0.5, 1.5),
      bar('2026-01-07T10:03:00Z', 1.5, 1.6, 1.4, 1.45),
      bar('2026-01-07T10:05:00Z', 1.45, 1.7, 1.45, 1.6),
    ]);
    expect(bars(resample(m1, 'M1', 'M3'))).toEqual([
      bar('2026-01-07T10:00:00Z', 1, 2, 0.5, 1.5),
      bar('2026-01-07T10:03:00Z', 1.5, 1.7, 1.4, 1.6, 2),
    ]);
    const h1 = seriesFromBars([
      bar('2026-01-07T11:00:00Z', 5, 6, 4, 5.5),
      bar('2026-01-07T12:00:00Z', 5.5, 7, 5, 6),
    ]);
    expect(bars(resample(h1, 'H1', 'H2'))).toEqual([
      bar('2026-01-07T10:00:00Z', 5, 6, 4, 5.5),
      bar('2026-01-07T12:00:00Z', 5.5, 7, 5, 6),
    ]);
  });

  it('refuses sources whose bars would straddle the target buckets', () => {
    expect(canResample('D1', 'W1')).toBe(false);
    expect(canResample('H4', 'W1')).toBe(false);
    expect(canResample('M5', 'M3')).toBe(false);
    expect(() => resample(seriesFromBars([]), 'D1', 'W1')).toThrow(/Cannot build W1 candles from D1/);
    expect(resample(seriesFromBars([]), 'M1', 'H1').time.length).toBe(0);
  });

  it('properties: resampling in steps equals resampling at once, and totals are kept', () => {
    const minute = fc.record({
      gap: fc.integer({ min: 1, max: 400 }),
      move: fc.integer({ min: -50, max: 50 }),
      v: fc.nat(100),
    });
    fc.assert(
      fc.property(
        fc.array(minute, { maxLength: 300 }),
        fc.integer({ min: 0, max: 20_000 }),
        (steps, startMin) => {
          let t = Date.UTC(2026, 0, 1) + startMin * 60_000;
          let p = 1000;
          const input = steps.map(({ gap, move, v }) => {
            t += gap * 60_000;
            const o = p;
            p += move;
            return {
              time: t,
              open: o,
              high: Math.max(o, p) + 1,
              low: Math.min(o, p) - 1,
              close: p,
              volume: v,
            };
          });
          const m1 = seriesFromBars(input);
          for (const [mid, to] of [
            ['M5', 'H1'],
            ['M15', 'H4'],
            ['H1', 'W1'],
            ['H4', 'MN1'],
          ] as const) {
            expect(bars(resample(resample(m1, 'M1', mid), mid, to))).toEqual(bars(resample(m1, 'M1', to)));
          }
          for (const tf of CANDLE_TIMEFRAMES) {
            const out = resample(m1, 'M1', tf);
            const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
            expect(sum(out.volume)).toBe(sum(m1.volume));
            expect(out.time.length).toBeLessThanOrEqual(m1.time.length);
            if (m1.time.length) {
              expect(Math.max(...out.high)).toBe(Math.max(...m1.high));
              expect(out.close.at(-1)).toBe(m1.close.at(-1));
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
