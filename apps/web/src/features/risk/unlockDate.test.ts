import { describe, expect, it } from 'vitest';
import { unlockDate } from './RiskSettingsPanel';

const now = new Date('2026-11-22T12:00:00Z');

describe('risk settings are read-only for 7 days after a change', () => {
  it('never changed: editable', () => {
    expect(unlockDate({ last_updated: null, locked_until: null }, now)).toBeNull();
  });
  it('changed 2 days ago: unlocks 5 days from now', () => {
    expect(unlockDate({ last_updated: '2026-11-20T12:00:00Z', locked_until: null }, now)?.toISOString()).toBe(
      '2026-11-27T12:00:00.000Z',
    );
  });
  it('changed 8 days ago: editable', () => {
    expect(unlockDate({ last_updated: '2026-11-14T12:00:00Z', locked_until: null }, now)).toBeNull();
  });
  it("the server's locked_until wins", () => {
    expect(
      unlockDate(
        { last_updated: '2026-11-20T12:00:00Z', locked_until: '2026-11-27T13:00:00Z' },
        now,
      )?.toISOString(),
    ).toBe('2026-11-27T13:00:00.000Z');
  });
});
