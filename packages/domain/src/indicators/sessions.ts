/**
 * Session boundaries for anchored indicators (VWAP): which bars belong to one session.
 * Built-in anchors are UTC calendar periods whose boundaries can be shifted by `offsetMs`:
 * day = midnight, week = Monday 00:00, month = the 1st at 00:00, each plus the offset.
 * `FX_SESSION_OFFSET_MS` (−2 h) gives the FX convention: days from 22:00 UTC, weeks from Sunday 22:00 UTC.
 */

/** Returns the same number for every bar of one session and a different one for the next. */
export type SessionKey = (timeMs: number) => number;
export type SessionAnchor = 'day' | 'week' | 'month' | SessionKey;

export const FX_SESSION_OFFSET_MS = -2 * 3_600_000;

const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** 1970-01-01 was a Thursday: the first Monday is 4 days later. */
const FIRST_MONDAY = 4 * DAY;

/** [start, end) of the built-in period that holds `t`. */
function periodAround(anchor: 'day' | 'week' | 'month', t: number, offsetMs: number): [number, number] {
  const u = t - offsetMs;
  if (anchor === 'day') {
    const start = Math.floor(u / DAY) * DAY + offsetMs;
    return [start, start + DAY];
  }
  if (anchor === 'week') {
    const start = Math.floor((u - FIRST_MONDAY) / WEEK) * WEEK + FIRST_MONDAY + offsetMs;
    return [start, start + WEEK];
  }
  const d = new Date(u);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  return [Date.UTC(y, m, 1) + offsetMs, Date.UTC(y, m + 1, 1) + offsetMs];
}

/** Walks a series session by session: `next(i)` is the first bar after the session that bar i opens. */
export interface SessionCursor {
  next(first: number): number;
}

/**
 * The sessions of `time`: a bar opens a new session when it lies outside the period of the bar that
 * opened the current one (built-in anchors), or when its key differs from the previous bar's
 * (a key function). Built-in anchors compute one period per session, so a year of M1 costs one
 * pass of comparisons.
 */
export function sessionBounds(time: Float64Array, anchor: SessionAnchor, offsetMs = 0): SessionCursor {
  const n = time.length;
  if (typeof anchor === 'function') {
    return {
      next(first) {
        const key = anchor(time[first]!);
        let j = first + 1;
        while (j < n && anchor(time[j]!) === key) j++;
        return j;
      },
    };
  }
  if (anchor !== 'day' && anchor !== 'week' && anchor !== 'month')
    throw new RangeError(`Unknown session anchor "${String(anchor)}".`);
  if (!Number.isFinite(offsetMs)) throw new RangeError(`Session offset must be finite, got ${offsetMs}.`);
  return {
    next(first) {
      const [start, end] = periodAround(anchor, time[first]!, offsetMs);
      let j = first + 1;
      while (j < n && time[j]! >= start && time[j]! < end) j++;
      return j;
    },
  };
}

/** For each bar, whether it opens a new session (the first bar always does). */
export function sessionStarts(time: Float64Array, anchor: SessionAnchor, offsetMs = 0): Uint8Array {
  const starts = new Uint8Array(time.length);
  const sessions = sessionBounds(time, anchor, offsetMs);
  for (let i = 0; i < time.length; i = sessions.next(i)) starts[i] = 1;
  return starts;
}
