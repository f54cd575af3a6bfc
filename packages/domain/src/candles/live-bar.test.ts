import { describe, expect, it } from 'vitest';
import { applyTick, type LiveBar } from './live-bar';

const at = (iso: string) => Date.parse(iso);
const bar: LiveBar = { time: at('2026-06-29T10:00:00Z'), open: 1.1, high: 1.102, low: 1.099, close: 1.101 };

describe('applyTick', () => {
  it('moves close, high and low of the bar the tick falls in', () => {
    expect(applyTick(bar, 'M15', at('2026-06-29T10:14:59Z'), 1.103)).toEqual({
      ...bar,
      high: 1.103,
      close: 1.103,
    });
    expect(applyTick(bar, 'M15', at('2026-06-29T10:05:00Z'), 1.098)).toEqual({
      ...bar,
      low: 1.098,
      close: 1.098,
    });
    expect(applyTick(bar, 'M15', at('2026-06-29T10:05:00Z'), 1.1005)).toEqual({ ...bar, close: 1.1005 });
  });

  it('opens a new bar at the start of a later bucket', () => {
    const t = at('2026-06-29T10:17:30Z');
    expect(applyTick(bar, 'M15', t, 1.2)).toEqual({
      time: at('2026-06-29T10:15:00Z'),
      open: 1.2,
      high: 1.2,
      low: 1.2,
      close: 1.2,
    });
    expect(applyTick(null, 'H1', t, 1.2)).toEqual({
      time: at('2026-06-29T10:00:00Z'),
      open: 1.2,
      high: 1.2,
      low: 1.2,
      close: 1.2,
    });
    // Weekly bars open on Sunday 22:00 UTC.
    expect(applyTick(null, 'W1', t, 1.2)?.time).toBe(at('2026-06-28T22:00:00Z'));
  });

  it('ignores a tick older than the last bar and non-finite input', () => {
    expect(applyTick(bar, 'M15', at('2026-06-29T09:59:59Z'), 1.2)).toBeNull();
    expect(applyTick(bar, 'M15', at('2026-06-29T10:01:00Z'), Number.NaN)).toBeNull();
  });
});
