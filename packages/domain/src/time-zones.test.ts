import { describe, expect, it } from 'vitest';
import { isKnownTimeZone, timeZoneNames } from './time-zones';

describe('timeZoneNames', () => {
  it('lists UTC once, first, and the IANA zones of the runtime', () => {
    const names = timeZoneNames();
    expect(names[0]).toBe('UTC');
    expect(names.filter((n) => n === 'UTC')).toHaveLength(1);
    expect(names).toEqual(expect.arrayContaining(['Europe/London', 'Asia/Tokyo', 'America/New_York']));
  });
});

describe('isKnownTimeZone', () => {
  it.each([
    ['Europe/Berlin', true],
    ['Asia/Tokyo', true],
    ['UTC', true],
    ['Mars/Olympus', false],
    ['europe/berlin', false],
    ['+01:00', false],
    ['', false],
  ])('%s → %s', (zone, ok) => {
    expect(isKnownTimeZone(zone)).toBe(ok);
  });
});
