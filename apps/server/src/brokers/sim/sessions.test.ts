import { describe, expect, it } from 'vitest';
import { sessionTable } from './sessions';

const t = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const state = (profile: Parameters<typeof sessionTable>[0], at: string) => {
  const s = sessionTable(profile).state(t(at));
  return { open: s.open, nextOpen: iso(s.nextOpen), nextClose: iso(s.nextClose) };
};

describe('market session (state and next change) from the weekly timetable', () => {
  // Worked cases (2026-01-09 is a Friday; FX closes Friday 22:00 UTC and opens Sunday 22:00 UTC).
  it.each([
    ['fx', '2026-01-07T10:00:00Z', true, null, '2026-01-09T22:00:00.000Z'],
    ['fx', '2026-01-09T21:59:59Z', true, null, '2026-01-09T22:00:00.000Z'],
    ['fx', '2026-01-09T22:00:00Z', false, '2026-01-11T22:00:00.000Z', null],
    ['fx', '2026-01-10T12:00:00Z', false, '2026-01-11T22:00:00.000Z', null],
    ['fx', '2026-01-11T21:59:00Z', false, '2026-01-11T22:00:00.000Z', null],
    ['fx', '2026-01-11T22:00:00Z', true, null, '2026-01-16T22:00:00.000Z'],
    ['metal', '2026-01-10T00:00:00Z', false, '2026-01-11T22:00:00.000Z', null],
    // Indices: Sunday 23:00 to Friday 22:00 with a daily break 22:00-23:00.
    ['index', '2026-01-07T10:00:00Z', true, null, '2026-01-07T22:00:00.000Z'],
    ['index', '2026-01-07T22:30:00Z', false, '2026-01-07T23:00:00.000Z', null],
    ['index', '2026-01-10T12:00:00Z', false, '2026-01-11T23:00:00.000Z', null],
    ['index', '2026-01-09T21:00:00Z', true, null, '2026-01-09T22:00:00.000Z'],
    // Crypto never closes.
    ['crypto', '2026-01-10T12:00:00Z', true, null, null],
  ] as const)('%s at %s: open %s, next open %s, next close %s', (profile, at, open, nextOpen, nextClose) => {
    expect(state(profile, at)).toEqual({ open, nextOpen, nextClose });
  });

  it('agrees with isOpen and nextOpenAtOrAfter at every 5-minute slot of a week', () => {
    for (const profile of ['fx', 'index', 'crypto'] as const) {
      const table = sessionTable(profile);
      for (let m = t('2026-01-04T00:02:00Z'); m < t('2026-01-11T00:00:00Z'); m += 5 * 60_000) {
        const s = table.state(m);
        expect(s.open).toBe(table.isOpen(m));
        if (!s.open) expect(s.nextOpen).toBe(table.nextOpenAtOrAfter(m));
        if (s.nextClose !== null) {
          expect(table.isOpen(s.nextClose)).toBe(false);
          expect(table.isOpen(s.nextClose - 1)).toBe(true);
        }
      }
    }
  });
});
