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

/**
 * For each bar, whether it opens a new session (the first bar always does). Built-in anchors only
 * compute a period when a bar leaves the current one, so a year of M1 costs one pass.
 */
export function sessionStarts(time: Float64Array, anchor: SessionAnchor, offsetMs = 0): Uint8Array {
  const n = time.length;
  const starts = new Uint8Array(n);
  if (typeof anchor === 'function') {
    let prev = NaN;
    for (let i = 0; i < n; i++) {
      const key = anchor(time[i]!);
      if (i === 0 || key !== prev) starts[i] = 1;
      prev = key;
    }
    return starts;
  }
  if (anchor !== 'day' && anchor !== 'week' && anchor !== 'month')
    throw new RangeError(`Unknown session anchor "${String(anchor)}".`);
  if (!Number.isFinite(offsetMs)) throw new RangeError(`Session offset must be finite, got ${offsetMs}.`);
  let start = Infinity;
  let end = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i]!;
    if (t >= start && t < end) continue;
    [start, end] = periodAround(anchor, t, offsetMs);
    starts[i] = 1;
  }
  return starts;
}
