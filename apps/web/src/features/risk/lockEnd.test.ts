import { describe, expect, it } from 'vitest';
import { lockEndIfSavedAt, unlockDate } from './RiskSettingsPanel';

describe('the date the save confirm announces', () => {
  it('is 7 days after the save, and is the date the saved settings then read as locked until', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const end = lockEndIfSavedAt(now);
    expect(end.toISOString()).toBe('2026-11-29T12:00:00.000Z');
    expect(unlockDate({ last_updated: now.toISOString(), locked_until: null }, now)?.toISOString()).toBe(
      end.toISOString(),
    );
  });
});
