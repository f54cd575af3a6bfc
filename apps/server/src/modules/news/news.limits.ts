import type { NewsRateLimit } from '../../news/news-config';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

interface Counter {
  minuteStart: number;
  minute: number;
  dayStart: number;
  day: number;
}

/**
 * Per-caller quotas in fixed windows (a minute and a day from the caller's first request in each), kept
 * in memory: a few numbers per caller, forgotten a day later. Every server process counts for itself; the
 * quota protects a provider's bill and the CPU, it is not a security boundary (docs/news.md).
 */
export function createNewsQuota(now: () => number = Date.now) {
  const counters = new Map<string, Counter>();

  function current(key: string, t: number): Counter {
    let c = counters.get(key);
    if (!c || t - c.dayStart >= DAY) c = { minuteStart: t, minute: 0, dayStart: t, day: 0 };
    if (t - c.minuteStart >= MINUTE) c = { ...c, minuteStart: t, minute: 0 };
    counters.set(key, c);
    return c;
  }

  function sweep(t: number): void {
    if (counters.size < 100_000) return;
    for (const [k, c] of counters) if (t - c.dayStart >= DAY) counters.delete(k);
  }

  return {
    /** Counts a request; returns 0 when it may go ahead, else the seconds until it may. */
    take(key: string, limit: NewsRateLimit): number {
      const t = now();
      sweep(t);
      const c = current(key, t);
      if (c.day >= limit.perDay) return Math.max(1, Math.ceil((c.dayStart + DAY - t) / 1000));
      if (c.minute >= limit.perMinute) return Math.max(1, Math.ceil((c.minuteStart + MINUTE - t) / 1000));
      c.minute += 1;
      c.day += 1;
      return 0;
    },
    /** Gives a request back (it was refused for another reason before any work was done). */
    refund(key: string): void {
      const c = counters.get(key);
      if (!c) return;
      c.minute = Math.max(0, c.minute - 1);
      c.day = Math.max(0, c.day - 1);
    },
  };
}

/** At most `size` analyses at once across all callers; a caller finding none free is refused, not queued. */
export function createSlots(size: number) {
  let busy = 0;
  return {
    tryAcquire(): (() => void) | undefined {
      if (busy >= size) return undefined;
      busy += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        busy -= 1;
      };
    },
    get busy() {
      return busy;
    },
  };
}
