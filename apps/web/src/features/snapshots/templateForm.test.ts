import { describe, expect, it } from 'vitest';
import { defaultIndicatorSettings } from '@tradedesk/contract';
import {
  addEmaPeriod,
  isOwner,
  numberOrNull,
  removeEmaPeriod,
  setOverride,
  templateType,
} from './templateForm';

describe('template form', () => {
  it('labels the type: Global, Private, or a note for another user’s private template', () => {
    expect(templateType({ is_global: true, user: 'a' }, 'b')).toBe('Global');
    expect(templateType({ is_global: false, user: 'a' }, 'a')).toBe('Private');
    expect(templateType({ is_global: false, user: 'a' }, 'b')).toBe("Private (another user's template)");
    expect(isOwner({ user: 'a' }, 'a')).toBe(true);
    expect(isOwner({ user: 'a' }, 'b')).toBe(false);
    expect(isOwner({ user: 'a' }, undefined)).toBe(false);
  });

  it('turns an emptied number into null', () => {
    expect(numberOrNull('')).toBeNull();
    expect(numberOrNull(null)).toBeNull();
    expect(numberOrNull(0)).toBe(0);
    expect(numberOrNull('2.5')).toBe(2.5);
  });

  it('adds and removes EMA periods with their overrides in step', () => {
    const s = defaultIndicatorSettings();
    const added = addEmaPeriod(s, 200);
    expect(added.emas.periods).toEqual([21, 50, 100, 200]);
    expect(added.emas.overrides).toHaveLength(4);
    expect(added.emas.overrides![3]!['Plot.color']).toMatch(/^rgb\(/);
    const removed = removeEmaPeriod(added, 1);
    expect(removed.emas.periods).toEqual([21, 100, 200]);
    expect(removed.emas.overrides).toEqual([
      added.emas.overrides![0],
      added.emas.overrides![2],
      added.emas.overrides![3],
    ]);
    // The original is left untouched.
    expect(s.emas.periods).toEqual([21, 50, 100]);
  });

  it('sets one override and keeps the others', () => {
    const s = setOverride(defaultIndicatorSettings(), 'rsi', 'UpperLimit.value', 75.5);
    expect(s.rsi.overrides['UpperLimit.value']).toBe(75.5);
    expect(s.rsi.overrides['LowerLimit.value']).toBe(30);
  });
});
