/**
 * Trading sessions of a UTC day, and the session instances (one per day and session) of a candle
 * series. A bar belongs to a session when its open time falls in [start, end) of that day; a
 * session's open is its first bar's open, its close its last bar's close, its direction the sign of
 * close − open (+1 up, −1 down, 0 flat).
 */
import type { CandleSeries } from '../candles/series';

export interface SessionWindow {
  name: string;
  /** Hours of the UTC day, 0 ≤ startHour < endHour ≤ 24. */
  startHour: number;
  endHour: number;
}

/** Asia 00:00–07:00, London 07:00–14:00, New York 14:00–23:00 UTC. */
export const DEFAULT_SESSIONS: readonly SessionWindow[] = [
  { name: 'Asia', startHour: 0, endHour: 7 },
  { name: 'London', startHour: 7, endHour: 14 },
  { name: 'New York', startHour: 14, endHour: 23 },
];

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export interface SessionInstance {
  /** Index into the session list. */
  session: number;
  /** UTC day number (epoch ms ÷ one day, floored). */
  day: number;
  firstBar: number;
  lastBar: number;
  open: number;
  close: number;
  high: number;
  low: number;
  direction: -1 | 0 | 1;
}

export function checkSessions(sessions: readonly SessionWindow[]): void {
  if (sessions.length < 2) throw new RangeError('At least two sessions are needed.');
  for (const s of sessions) {
    if (!(s.startHour >= 0 && s.startHour < s.endHour && s.endHour <= 24))
      throw new RangeError(`Session ${s.name} must start before it ends, within 0–24 h UTC.`);
  }
}

/**
 * Every session instance with at least one bar, in time order (by day, then session start). One pass
 * over the bars; bars outside every session are skipped. Sessions may overlap: a bar then counts in each.
 */
export function sessionInstances(
  series: CandleSeries,
  sessions: readonly SessionWindow[] = DEFAULT_SESSIONS,
): SessionInstance[] {
  checkSessions(sessions);
  const order = sessions.map((_, i) => i).sort((a, b) => sessions[a]!.startHour - sessions[b]!.startHour);
  const startMs = sessions.map((s) => s.startHour * HOUR_MS);
  const endMs = sessions.map((s) => s.endHour * HOUR_MS);
  const { time, open, high, low, close } = series;
  const out: SessionInstance[] = [];
  // The instance being filled for each session (index into out), or −1.
  const current = sessions.map(() => -1);
  const currentDay = sessions.map(() => NaN);
  let day = NaN;
  for (let i = 0; i < time.length; i++) {
    const t = time[i]!;
    const d = Math.floor(t / DAY_MS);
    if (d !== day) {
      day = d;
      // Instances of a new day are appended in session-start order, so `out` stays in time order.
      for (const s of order) current[s] = -1;
    }
    const ofDay = t - d * DAY_MS;
    for (const s of order) {
      if (ofDay < startMs[s]! || ofDay >= endMs[s]!) continue;
      let k = current[s]!;
      if (k < 0 || currentDay[s] !== d) {
        k = out.length;
        out.push({
          session: s,
          day: d,
          firstBar: i,
          lastBar: i,
          open: open[i]!,
          close: close[i]!,
          high: high[i]!,
          low: low[i]!,
          direction: 0,
        });
        current[s] = k;
        currentDay[s] = d;
      }
      const inst = out[k]!;
      inst.lastBar = i;
      inst.close = close[i]!;
      if (high[i]! > inst.high) inst.high = high[i]!;
      if (low[i]! < inst.low) inst.low = low[i]!;
    }
  }
  // Overlapping sessions can start an instance of a later session before an earlier one's: re-sort.
  out.sort((a, b) => a.day - b.day || sessions[a.session]!.startHour - sessions[b.session]!.startHour);
  for (const inst of out) inst.direction = Math.sign(inst.close - inst.open) as -1 | 0 | 1;
  return out;
}

export interface Transition {
  /** Session indexes, previous → next. */
  from: number;
  to: number;
}

/** Each session to the one starting after it, the last to the next day's first (Asia → London → New York → Asia). */
export function consecutiveTransitions(sessions: readonly SessionWindow[]): Transition[] {
  const order = sessions.map((_, i) => i).sort((a, b) => sessions[a]!.startHour - sessions[b]!.startHour);
  return order.map((from, i) => ({ from, to: order[(i + 1) % order.length]! }));
}

/** Longest gap allowed between a session and "the next" one: bridges a weekend, not a missing week. */
const MAX_GAP_DAYS = 4;

/**
 * Pairs of instances (previous, next) for a transition: for each instance of `from`, the instance
 * right after it; the pair counts only if that one is of session `to` and at most four days later (so Friday's New York pairs with Monday's Asia, and a day with missing data pairs with nothing).
 */
export function transitionPairs(
  instances: readonly SessionInstance[],
  transition: Transition,
): Array<[SessionInstance, SessionInstance]> {
  const pairs: Array<[SessionInstance, SessionInstance]> = [];
  for (let i = 0; i + 1 < instances.length; i++) {
    const prev = instances[i]!;
    if (prev.session !== transition.from) continue;
    const next = instances[i + 1]!;
    if (next.session !== transition.to || next.day - prev.day > MAX_GAP_DAYS) continue;
    pairs.push([prev, next]);
  }
  return pairs;
}
