import { describe, expect, it } from 'vitest';
import { createNewsQuota, createSlots } from './news.limits';

describe('news quota', () => {
  it('allows perMinute a minute and perDay a day, saying how long to wait', () => {
    let t = Date.UTC(2026, 0, 7, 12);
    const quota = createNewsQuota(() => t);
    const limit = { perMinute: 2, perDay: 3 };
    expect(quota.take('ip:a', limit)).toBe(0);
    t += 10_000;
    expect(quota.take('ip:a', limit)).toBe(0);
    expect(quota.take('ip:a', limit)).toBe(50);
    expect(quota.take('ip:b', limit)).toBe(0);
    t += 50_000;
    expect(quota.take('ip:a', limit)).toBe(0);
    t += 60_000;
    // Third of the day used: the day window (opened 2 min ago) has 23 h 58 min to run.
    expect(quota.take('ip:a', limit)).toBe(24 * 3600 - 120);
    t += 24 * 3600 * 1000;
    expect(quota.take('ip:a', limit)).toBe(0);
  });

  it('gives back a refunded request', () => {
    const quota = createNewsQuota(() => 0);
    const limit = { perMinute: 1, perDay: 10 };
    expect(quota.take('k', limit)).toBe(0);
    quota.refund('k');
    expect(quota.take('k', limit)).toBe(0);
    expect(quota.take('k', limit)).toBeGreaterThan(0);
  });
});

describe('analysis slots', () => {
  it('hands out at most `size` slots; a release frees one, once', () => {
    const slots = createSlots(2);
    const a = slots.tryAcquire();
    const b = slots.tryAcquire();
    expect(a && b).toBeTruthy();
    expect(slots.tryAcquire()).toBeUndefined();
    a!();
    a!();
    expect(slots.busy).toBe(1);
    expect(slots.tryAcquire()).toBeTruthy();
    expect(slots.tryAcquire()).toBeUndefined();
  });
});
