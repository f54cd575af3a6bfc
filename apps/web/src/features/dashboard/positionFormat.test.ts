import { describe, expect, it } from 'vitest';
import { compactMoney, shortTime } from './positionFormat';

describe('compactMoney', () => {
  it.each([
    [0, 2, '0.00'],
    [-12.345, 2, '-12.35'],
    [9999.994, 2, '9999.99'],
    [1234.5, 0, '1235'],
    [12_345.67, 2, '12.3K'],
    [-1_250_000, 2, '-1.3M'],
  ])('%d with %d decimals is %s', (v, d, out) => {
    expect(compactMoney(v, d)).toBe(out);
  });

  it('keeps figures below 10,000 readable as numbers (no grouping)', () => {
    for (const v of [-9999.99, -0.01, 0.5, 4321.1]) expect(Number(compactMoney(v, 2))).toBeCloseTo(v, 2);
  });
});

describe('shortTime', () => {
  it('splits a valid instant into day and time, in local time', () => {
    const iso = new Date(2026, 0, 7, 9, 5, 3).toISOString();
    expect(shortTime(iso)).toEqual({ day: 'Jan 7', time: '09:05', full: '2026-01-07 09:05:03' });
  });
  it('shows a dash for a missing or broken one', () => {
    expect(shortTime(null).day).toBe('—');
    expect(shortTime('not a date')).toEqual({ day: '—', time: '', full: 'not a date' });
  });
});
