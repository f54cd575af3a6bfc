/**
 * Breakdowns: the closed trades grouped by one property, with the figures of each group.
 */
import { columnsOf, TRADE_BOT, TRADE_SELL, type ReportColumns } from './columns';
import { FigureTallies, rValues, type GroupFigures, type ReportTrade } from './figures';
import { DAY_MS, HOUR_MS, localDay, localHour, localTime, weekdayOf, zoneDayOffset } from './time-zone';
import { WEEKDAYS } from '../analysis/stats';

export const BREAKDOWN_DIMENSIONS = [
  'instrument',
  'direction',
  'weekday',
  'hour',
  'session',
  'holding_time',
  'strategy_tag',
  'emotional_state',
  'market_condition',
  'trader',
  'bot',
] as const;
export type BreakdownDimension = (typeof BREAKDOWN_DIMENSIONS)[number];

export interface BreakdownRow extends GroupFigures {
  key: string;
}

/** Weekday names Monday first (the report's week), from the one list of names. */
export const WEEKDAY_NAMES: readonly string[] = [...WEEKDAYS.slice(1), WEEKDAYS[0]];

/** The four trading sessions, each its centre's local business hours (so daylight saving follows). */
export const SESSIONS = [
  { name: 'Sydney', timeZone: 'Australia/Sydney', fromHour: 7, toHour: 16 },
  { name: 'Tokyo', timeZone: 'Asia/Tokyo', fromHour: 9, toHour: 18 },
  { name: 'London', timeZone: 'Europe/London', fromHour: 8, toHour: 17 },
  { name: 'New York', timeZone: 'America/New_York', fromHour: 8, toHour: 17 },
] as const;
export const OUTSIDE_SESSIONS = 'Outside sessions';

const MIN = 60_000;
/** Holding-time buckets: label and exclusive upper bound in ms. */
export const HOLDING_BUCKETS: readonly { label: string; below: number }[] = [
  { label: 'Under 5 min', below: 5 * MIN },
  { label: '5–30 min', below: 30 * MIN },
  { label: '30 min–2 h', below: 120 * MIN },
  { label: '2–24 h', below: 1440 * MIN },
  { label: '1–7 days', below: 7 * 1440 * MIN },
  { label: 'Over 7 days', below: Infinity },
];

export const NONE_LABEL = '(none)';

export interface BreakdownOptions {
  /** IANA zone the weekday and hour of entry are read in (the trader's setting); UTC by default. */
  timeZone?: string;
}

const HOUR_LABELS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);
const SESSION_NAMES = SESSIONS.map((s) => s.name);
const textKey = (v: string | null) => (v && v.trim() ? v.trim() : NONE_LABEL);

/**
 * One dimension's grouping: each trade's group and the group labels. Fixed dimensions number their
 * labels up front; text dimensions number each distinct label as it first appears. Sessions give
 * each trade a set of groups (a trade may be in several): `of` then numbers the set in `sets`.
 */
interface Grouping {
  labels: string[];
  of: Int32Array;
  sets?: readonly (readonly number[])[];
}

/** Groups by the label of each text code (`textKey` by default), each distinct label one group. */
function textGrouping(
  c: ReportColumns,
  codes: Uint32Array,
  labelOf: (text: string | null) => string = textKey,
): Grouping {
  const labels: string[] = [];
  const byLabel = new Map<string, number>();
  const byCode = new Int32Array(c.texts.length).fill(-1);
  const of = new Int32Array(c.length);
  for (let i = 0; i < c.length; i++) {
    const code = codes[i]!;
    let g = byCode[code]!;
    if (g < 0) {
      const label = labelOf(c.texts[code]!);
      g = byLabel.get(label) ?? -1;
      if (g < 0) byLabel.set(label, (g = labels.push(label) - 1));
      byCode[code] = g;
    }
    of[i] = g;
  }
  return { labels, of };
}

/** A dimension numbered up front: `group` gives trade i's group among `labels`. */
function fixedGrouping(c: ReportColumns, labels: readonly string[], group: (i: number) => number): Grouping {
  const of = new Int32Array(c.length);
  for (let i = 0; i < c.length; i++) of[i] = group(i);
  return { labels: [...labels], of };
}

/** The open sessions at each trade's entry, as a bit set (bit k: SESSIONS[k]); no bit: outside. */
function sessionGrouping(c: ReportColumns): Grouping {
  const clocks = SESSIONS.map((s) => ({
    ...s,
    local: localTime(s.timeZone),
    dayOffset: zoneDayOffset(s.timeZone),
  }));
  const maskAt = (ms: number) => {
    let mask = 0;
    for (let k = 0; k < clocks.length; k++) {
      const s = clocks[k]!;
      const l = s.local(ms);
      const hour = localHour(l);
      if (weekdayOf(localDay(l)) < 5 && hour >= s.fromHour && hour < s.toHour) mask |= 1 << k;
    }
    return mask;
  };
  // On a UTC day when every zone keeps one whole-hour offset, local hours start with UTC hours: the
  // set is the same through each UTC hour, worked out 24 times a day instead of once a trade.
  const days = new Map<number, Int32Array | null>();
  const of = new Int32Array(c.length);
  let day = NaN;
  let byHour: Int32Array | null | undefined = null;
  for (let i = 0; i < c.length; i++) {
    const ms = c.openedMs[i]!;
    const d = Math.floor(ms / DAY_MS);
    if (d !== day) {
      day = d;
      byHour = days.get(d);
      if (byHour === undefined) {
        const whole = clocks.every((s) => {
          const off = s.dayOffset(d);
          return off !== null && off % HOUR_MS === 0;
        });
        byHour = whole ? Int32Array.from({ length: 24 }, (_, h) => maskAt(d * DAY_MS + h * HOUR_MS)) : null;
        days.set(d, byHour);
      }
    }
    of[i] = byHour && Number.isFinite(ms) ? byHour[Math.floor((ms - d * DAY_MS) / HOUR_MS)]! : maskAt(ms);
  }
  const outside = SESSION_NAMES.length;
  const sets = Array.from({ length: 1 << clocks.length }, (_, mask) => {
    const open = clocks.map((_s, k) => k).filter((k) => mask & (1 << k));
    return open.length ? open : [outside];
  });
  return { labels: [...SESSION_NAMES, OUTSIDE_SESSIONS], of, sets };
}

/** Local times of the entries in `timeZone`, worked out once for the weekday and the hour. */
function localEntries(c: ReportColumns, timeZone: string): () => Float64Array {
  let out: Float64Array | undefined;
  return () => {
    if (!out) {
      const local = localTime(timeZone);
      out = new Float64Array(c.length);
      for (let i = 0; i < c.length; i++) out[i] = local(c.openedMs[i]!);
    }
    return out;
  };
}

function grouping(dim: BreakdownDimension, c: ReportColumns, entries: () => Float64Array): Grouping {
  switch (dim) {
    case 'instrument':
      return textGrouping(c, c.symbol, (symbol) => symbol ?? '');
    case 'direction':
      return fixedGrouping(c, ['Buy', 'Sell'], (i) => (c.flags[i]! & TRADE_SELL ? 1 : 0));
    case 'weekday': {
      const local = entries();
      return fixedGrouping(c, WEEKDAY_NAMES, (i) => weekdayOf(localDay(local[i]!)));
    }
    case 'hour': {
      const local = entries();
      return fixedGrouping(c, HOUR_LABELS, (i) => localHour(local[i]!));
    }
    case 'session':
      return sessionGrouping(c);
    case 'holding_time':
      return fixedGrouping(
        c,
        HOLDING_BUCKETS.map((b) => b.label),
        (i) => {
          const held = c.closedMs[i]! - c.openedMs[i]!;
          const b = HOLDING_BUCKETS.findIndex((x) => held < x.below);
          // A time that cannot be read (NaN) falls in the last bucket rather than failing the report.
          return b < 0 ? HOLDING_BUCKETS.length - 1 : b;
        },
      );
    case 'strategy_tag':
      return textGrouping(c, c.strategyTag);
    case 'emotional_state':
      return textGrouping(c, c.emotionalState);
    case 'market_condition':
      return textGrouping(c, c.marketCondition);
    case 'trader':
      return textGrouping(c, c.trader);
    case 'bot':
      return fixedGrouping(c, ['Manual', 'Bot'], (i) => (c.flags[i]! & TRADE_BOT ? 1 : 0));
  }
}

/** The order rows come in: natural order for weekdays, hours, sessions and buckets; else by key. */
function order(dim: BreakdownDimension): (a: string, b: string) => number {
  const fixed: Partial<Record<BreakdownDimension, readonly string[]>> = {
    weekday: WEEKDAY_NAMES,
    session: [...SESSION_NAMES, OUTSIDE_SESSIONS],
    holding_time: HOLDING_BUCKETS.map((b) => b.label),
    direction: ['Buy', 'Sell'],
    bot: ['Manual', 'Bot'],
  };
  const list = fixed[dim];
  if (list) return (a, b) => list.indexOf(a) - list.indexOf(b);
  return (a, b) => (a === NONE_LABEL ? 1 : b === NONE_LABEL ? -1 : a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Every requested breakdown, each group's figures tallied in closing order. A trade entered while two sessions overlap counts in both session rows (so session rows
 * may add up to more than the total).
 */
export function breakdownsOf(
  c: ReportColumns,
  dims: readonly BreakdownDimension[] = BREAKDOWN_DIMENSIONS,
  opts: BreakdownOptions = {},
): Record<BreakdownDimension, BreakdownRow[]> {
  const entries = localEntries(c, opts.timeZone ?? 'UTC');
  const used = dims.map((d) => grouping(d, c, entries));
  const r = rValues(c);
  // Each dimension's groups tallied in one pass over the trades, in closing order.
  const tallies = used.map(({ labels, of, sets }) => {
    const tally = new FigureTallies(labels.length);
    if (!sets) tally.addAll(of, c.pnl, r, c.length);
    else {
      // A trade in several groups (sessions) is added to each: one entry per (trade, group), in
      // closing order, so every group still sums its trades in that order.
      let count = 0;
      for (let i = 0; i < c.length; i++) count += sets[of[i]!]!.length;
      const groups = new Int32Array(count);
      const pnl = new Float64Array(count);
      const rs = new Float64Array(count);
      for (let i = 0, at = 0; i < c.length; i++)
        for (const g of sets[of[i]!]!) {
          groups[at] = g;
          pnl[at] = c.pnl[i]!;
          rs[at++] = r[i]!;
        }
      tally.addAll(groups, pnl, rs, count);
    }
    return tally;
  });
  const out = {} as Record<BreakdownDimension, BreakdownRow[]>;
  dims.forEach((dim, d) => {
    const { labels } = used[d]!;
    const tally = tallies[d]!;
    const cmp = order(dim);
    out[dim] = labels
      .map((key, g) => ({ key, g }))
      .filter(({ g }) => tally.count(g) > 0)
      .sort((a, b) => cmp(a.key, b.key))
      .map(({ key, g }) => ({ key, ...tally.figures(g) }));
  });
  return out;
}

/** `breakdownsOf` for report trades in closing order. */
export function computeBreakdowns(
  trades: readonly ReportTrade[],
  dims: readonly BreakdownDimension[] = BREAKDOWN_DIMENSIONS,
  opts: BreakdownOptions = {},
): Record<BreakdownDimension, BreakdownRow[]> {
  return breakdownsOf(columnsOf(trades), dims, opts);
}
