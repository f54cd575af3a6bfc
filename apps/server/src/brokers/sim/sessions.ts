import type { MarketSession } from '../types';
import type { SessionProfile } from './symbols';

/**
 * Trading calendar and session rhythm. Every profile is a weekly timetable in UTC with 5-minute
 * slots: whether the market is open, how active it is (a multiplier of the variance rate) and how
 * much the spread widens. Holidays and daylight-saving shifts are not modelled.
 *
 * The price process runs on "variance time" (`tau`): a clock that advances at the slot's activity
 * while the market is open, stands still while it is closed, and jumps at a reopening so that the
 * first price after a weekend differs from the last one before it (the weekend gap).
 */

export const SLOT_MS = 5 * 60_000;
export const SLOTS_PER_WEEK = (7 * 24 * 60) / 5;
export const WEEK_MS = 7 * 86_400_000;
/** Sunday 1970-01-04 00:00 UTC: weeks of the timetable (and W1 candles) start on Sunday. */
export const WEEK_ORIGIN_MS = 3 * 86_400_000;

interface Slot {
  open: boolean;
  /** Variance-rate multiplier, 1 = an ordinary active hour. */
  activity: number;
  /** Spread multiplier. */
  spread: number;
}

/** Weekend gap worth this many hours of ordinary activity; a daily break (indices) less. */
const WEEKEND_GAP_HOURS = 3;
const BREAK_GAP_HOURS = 0.5;

const H = 60;

/** Value of a daily schedule at minute `min`: the first entry whose end (exclusive) is after it. */
function at(min: number, schedule: readonly (readonly [end: number, value: number])[]): number {
  for (const [end, value] of schedule) if (min < end) return value;
  return schedule[schedule.length - 1]![1];
}

function fxSlot(day: number, min: number, asia: number, overlap: number): Slot {
  // Closed from Friday 22:00 to Sunday 22:00 UTC.
  if ((day === 5 && min >= 22 * H) || day === 6 || (day === 0 && min < 22 * H)) {
    return { open: false, activity: 0, spread: 1 };
  }
  const activity = at(min, [
    [7 * H, asia], // Tokyo
    [8 * H, 1.3], // London open
    [12 * H, 1.1], // London
    [13 * H + 30, overlap], // London / New York overlap
    [14 * H + 30, overlap * 1.25], // US data and the New York open
    [16 * H, overlap],
    [21 * H, 0.8], // New York afternoon
    [22 * H, 0.35], // before the rollover
    [24 * H, 0.4], // Sydney
  ]);
  let spread = at(min, [
    [7 * H, 1.4], // Asia
    [21 * H, 1],
    [21 * H + 55, 2], // around the rollover
    [22 * H + 10, 4], // rollover
    [23 * H, 2],
    [24 * H, 1.4], // Asia
  ]);
  if (day === 0 && min < 23 * H) spread = Math.max(spread, 3); // thin market at the weekly open
  return { open: true, activity, spread };
}

function indexSlot(day: number, min: number): Slot {
  // Open Sunday 23:00 to Friday 22:00 UTC with a daily break 22:00-23:00.
  const closed =
    day === 6 ||
    (day === 0 && min < 23 * H) ||
    (day === 5 && min >= 22 * H) ||
    (min >= 22 * H && min < 23 * H);
  if (closed) return { open: false, activity: 0, spread: 1 };
  const activity = at(min, [
    [7 * H, 0.3], // Asia
    [13 * H + 30, 0.55], // Europe
    [14 * H + 30, 0.9], // pre-market, US data
    [15 * H + 30, 2.4], // cash open
    [20 * H, 1.5], // US cash session
    [21 * H, 1.9], // into the close
    [22 * H, 0.5], // after hours
    [24 * H, 0.3], // reopening, Asia
  ]);
  const spread = at(min, [
    [14 * H + 30, 1.8], // outside the cash session
    [21 * H, 1], // cash session
    [22 * H, 3], // after hours
    [24 * H, 3], // first hour after the daily break
  ]);
  return { open: true, activity, spread };
}

function cryptoSlot(day: number, min: number): Slot {
  let activity: number;
  if (min < 7 * H) activity = 0.85;
  else if (min < 13 * H + 30) activity = 1;
  else if (min < 21 * H) activity = 1.25;
  else activity = 0.9;
  const weekend = day === 0 || day === 6;
  return { open: true, activity: weekend ? activity * 0.7 : activity, spread: weekend ? 1.3 : 1 };
}

function slotFor(profile: SessionProfile, day: number, min: number): Slot {
  switch (profile) {
    case 'fx':
      return fxSlot(day, min, 0.55, 1.6);
    case 'fx_asia':
      return fxSlot(day, min, 0.8, 1.5);
    case 'metal':
      return fxSlot(day, min, 0.6, 1.8);
    case 'index':
      return indexSlot(day, min);
    case 'crypto':
      return cryptoSlot(day, min);
  }
}

/** Precomputed weekly timetable of one profile; all lookups are O(1). */
export class SessionTable {
  readonly open = new Uint8Array(SLOTS_PER_WEEK);
  readonly activity = new Float64Array(SLOTS_PER_WEEK);
  readonly spread = new Float64Array(SLOTS_PER_WEEK);
  /** Activity x ms accumulated from the week's start to the start of each slot (no jumps). */
  private readonly cumAct = new Float64Array(SLOTS_PER_WEEK + 1);
  /** Same with the reopening jumps, the jump of slot s included at its start. */
  private readonly cumVar = new Float64Array(SLOTS_PER_WEEK + 1);
  /** First open slot at or after s (may be >= SLOTS_PER_WEEK, i.e. next week). */
  private readonly nextOpen = new Int32Array(SLOTS_PER_WEEK);
  /** Last open slot at or before s (may be negative, i.e. previous week). */
  private readonly prevOpen = new Int32Array(SLOTS_PER_WEEK);
  /** First closed slot at or after s (may be next week); -1 everywhere when the market never closes. */
  private readonly nextClosed = new Int32Array(SLOTS_PER_WEEK);
  private readonly weekAct: number;
  private readonly weekVar: number;
  /** Variance-time units per year: tau() is in years of "average" variance. */
  private readonly yearVar: number;

  constructor(readonly profile: SessionProfile) {
    const jump = new Float64Array(SLOTS_PER_WEEK);
    for (let s = 0; s < SLOTS_PER_WEEK; s++) {
      const slot = slotFor(profile, Math.floor(s / 288), (s % 288) * 5);
      this.open[s] = slot.open ? 1 : 0;
      this.activity[s] = slot.activity;
      this.spread[s] = slot.spread;
    }
    for (let s = 0; s < SLOTS_PER_WEEK; s++) {
      const prev = (s + SLOTS_PER_WEEK - 1) % SLOTS_PER_WEEK;
      if (this.open[s] && !this.open[prev]) {
        let closedSlots = 0;
        for (
          let p = prev;
          !this.open[p] && closedSlots < SLOTS_PER_WEEK;
          p = (p + SLOTS_PER_WEEK - 1) % SLOTS_PER_WEEK
        ) {
          closedSlots++;
        }
        const hours = closedSlots * 5 >= 24 * 60 ? WEEKEND_GAP_HOURS : BREAK_GAP_HOURS;
        jump[s] = hours * 3_600_000;
      }
    }
    let act = 0;
    let v = 0;
    for (let s = 0; s < SLOTS_PER_WEEK; s++) {
      this.cumAct[s] = act;
      v += jump[s]!;
      this.cumVar[s] = v;
      act += this.activity[s]! * SLOT_MS;
      v += this.activity[s]! * SLOT_MS;
    }
    this.cumAct[SLOTS_PER_WEEK] = act;
    this.cumVar[SLOTS_PER_WEEK] = v;
    this.weekAct = act;
    this.weekVar = v;
    this.yearVar = (v * 365.25) / 7;

    let firstOpen = -1;
    for (let s = 0; s < SLOTS_PER_WEEK && firstOpen < 0; s++) if (this.open[s]) firstOpen = s;
    let lastOpen = -1;
    for (let s = SLOTS_PER_WEEK - 1; s >= 0 && lastOpen < 0; s--) if (this.open[s]) lastOpen = s;
    let next = firstOpen + SLOTS_PER_WEEK;
    for (let s = SLOTS_PER_WEEK - 1; s >= 0; s--) {
      if (this.open[s]) next = s;
      this.nextOpen[s] = next;
    }
    let prev = lastOpen - SLOTS_PER_WEEK;
    for (let s = 0; s < SLOTS_PER_WEEK; s++) {
      if (this.open[s]) prev = s;
      this.prevOpen[s] = prev;
    }
    let firstClosed = -1;
    for (let s = 0; s < SLOTS_PER_WEEK && firstClosed < 0; s++) if (!this.open[s]) firstClosed = s;
    let nextClosed = firstClosed < 0 ? -1 : firstClosed + SLOTS_PER_WEEK;
    for (let s = SLOTS_PER_WEEK - 1; s >= 0; s--) {
      if (firstClosed >= 0 && !this.open[s]) nextClosed = s;
      this.nextClosed[s] = nextClosed;
    }
  }

  /** Variance time at t (years of average activity); constant while closed, jumps at a reopening. */
  tau(t: number): number {
    const rel = t - WEEK_ORIGIN_MS;
    const w = Math.floor(rel / WEEK_MS);
    const off = rel - w * WEEK_MS;
    const s = Math.floor(off / SLOT_MS);
    return (w * this.weekVar + this.cumVar[s]! + this.activity[s]! * (off - s * SLOT_MS)) / this.yearVar;
  }

  /** Integrated activity (in activity-seconds) from the origin to t: drives tick volume. */
  activitySeconds(t: number): number {
    const rel = t - WEEK_ORIGIN_MS;
    const w = Math.floor(rel / WEEK_MS);
    const off = rel - w * WEEK_MS;
    const s = Math.floor(off / SLOT_MS);
    return (w * this.weekAct + this.cumAct[s]! + this.activity[s]! * (off - s * SLOT_MS)) / 1000;
  }

  /** Slot of the week (0..2015) containing t. */
  slot(t: number): number {
    const q = Math.floor((t - WEEK_ORIGIN_MS) / SLOT_MS);
    // Floor-modulo without the (slow) floating-point remainder.
    return q - Math.floor(q / SLOTS_PER_WEEK) * SLOTS_PER_WEEK;
  }

  isOpen(t: number): boolean {
    return this.open[this.slot(t)] === 1;
  }

  activityAt(t: number): number {
    return this.activity[this.slot(t)]!;
  }

  spreadMultiplier(t: number): number {
    return this.spread[this.slot(t)]!;
  }

  /** t itself when open, otherwise the instant the market next opens. */
  nextOpenAtOrAfter(t: number): number {
    const s = this.slot(t);
    if (this.open[s]) return t;
    return weekStartOf(t) + this.nextOpen[s]! * SLOT_MS;
  }

  /**
   * The market's state at t and its next change: while open, when it closes (null: it never does);
   * while closed, when it opens again. The one answer behind "is it open" on every screen.
   */
  state(t: number): MarketSession {
    const s = this.slot(t);
    if (!this.open[s]) return { open: false, nextOpen: this.nextOpenAtOrAfter(t), nextClose: null };
    const closed = this.nextClosed[s]!;
    return { open: true, nextOpen: null, nextClose: closed < 0 ? null : weekStartOf(t) + closed * SLOT_MS };
  }

  /** t itself when open, otherwise the instant the market closed (the first closed instant). */
  closedSince(t: number): number {
    const s = this.slot(t);
    if (this.open[s]) return t;
    return weekStartOf(t) + (this.prevOpen[s]! + 1) * SLOT_MS;
  }
}

function weekStartOf(t: number): number {
  return WEEK_ORIGIN_MS + Math.floor((t - WEEK_ORIGIN_MS) / WEEK_MS) * WEEK_MS;
}

const tables = new Map<SessionProfile, SessionTable>();

export function sessionTable(profile: SessionProfile): SessionTable {
  let t = tables.get(profile);
  if (!t) {
    t = new SessionTable(profile);
    tables.set(profile, t);
  }
  return t;
}
