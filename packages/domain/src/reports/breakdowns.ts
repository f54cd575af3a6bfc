/**
 * Breakdowns: the closed trades grouped by one property, with the figures of each group.
 */
import { FiguresAccumulator, type GroupFigures, type ReportTrade } from './figures';
import { isoMs, localClock } from './time-zone';
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

type KeyFn = (t: ReportTrade, entryMs: number) => string | readonly string[];

const HOUR_LABELS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);
const textKey = (v: string | null) => (v && v.trim() ? v.trim() : NONE_LABEL);

function keyFns(timeZone: string): Record<BreakdownDimension, KeyFn> {
  const local = localClock(timeZone);
  const sessionClocks = SESSIONS.map((s) => ({ ...s, clock: localClock(s.timeZone) }));
  // One trade's entry is read by weekday and hour: the last parts are kept.
  let lastMs = NaN;
  let last = local(0);
  const parts = (ms: number) => (ms === lastMs ? last : ((lastMs = ms), (last = local(ms))));
  // Sets of open sessions are few: each is one shared array.
  const sessionSets = new Map<number, readonly string[]>();
  return {
    instrument: (t) => t.symbol,
    direction: (t) => (t.direction === 'BUY' ? 'Buy' : 'Sell'),
    weekday: (_t, ms) => WEEKDAY_NAMES[parts(ms).weekday]!,
    hour: (_t, ms) => HOUR_LABELS[parts(ms).hour]!,
    session: (_t, ms) => {
      let mask = 0;
      sessionClocks.forEach((s, i) => {
        const p = s.clock(ms);
        if (p.weekday < 5 && p.hour >= s.fromHour && p.hour < s.toHour) mask |= 1 << i;
      });
      let set = sessionSets.get(mask);
      if (!set) {
        const open = sessionClocks.filter((_s, i) => mask & (1 << i)).map((s) => s.name);
        sessionSets.set(mask, (set = open.length ? open : [OUTSIDE_SESSIONS]));
      }
      return set;
    },
    holding_time: (t, ms) => {
      const held = isoMs(t.closed_at) - ms;
      return HOLDING_BUCKETS.find((b) => held < b.below)!.label;
    },
    strategy_tag: (t) => textKey(t.strategy_tag),
    emotional_state: (t) => textKey(t.emotional_state),
    market_condition: (t) => textKey(t.market_condition),
    trader: (t) => textKey(t.trader),
    bot: (t) => (t.bot ? 'Bot' : 'Manual'),
  };
}

/** The order rows come in: natural order for weekdays, hours, sessions and buckets; else by key. */
function order(dim: BreakdownDimension): (a: string, b: string) => number {
  const fixed: Partial<Record<BreakdownDimension, readonly string[]>> = {
    weekday: WEEKDAY_NAMES,
    session: [...SESSIONS.map((s) => s.name), OUTSIDE_SESSIONS],
    holding_time: HOLDING_BUCKETS.map((b) => b.label),
    direction: ['Buy', 'Sell'],
    bot: ['Manual', 'Bot'],
  };
  const list = fixed[dim];
  if (list) return (a, b) => list.indexOf(a) - list.indexOf(b);
  return (a, b) => (a === NONE_LABEL ? 1 : b === NONE_LABEL ? -1 : a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Every requested breakdown in one pass over the trades. A trade entered while two sessions overlap
 * counts in both session rows (so session rows may add up to more than the total).
 */
export function computeBreakdowns(
  trades: readonly ReportTrade[],
  dims: readonly BreakdownDimension[] = BREAKDOWN_DIMENSIONS,
  opts: BreakdownOptions = {},
): Record<BreakdownDimension, BreakdownRow[]> {
  const all = keyFns(opts.timeZone ?? 'UTC');
  const fns = dims.map((d) => all[d]);
  const groups = dims.map(() => new Map<string, FiguresAccumulator>());
  const add = (map: Map<string, FiguresAccumulator>, key: string, t: ReportTrade) => {
    let acc = map.get(key);
    if (!acc) map.set(key, (acc = new FiguresAccumulator()));
    acc.add(t);
  };
  for (const t of trades) {
    const entry = isoMs(t.opened_at);
    for (let i = 0; i < fns.length; i++) {
      const keys = fns[i]!(t, entry);
      if (typeof keys === 'string') add(groups[i]!, keys, t);
      else for (const key of keys) add(groups[i]!, key, t);
    }
  }
  const out = {} as Record<BreakdownDimension, BreakdownRow[]>;
  dims.forEach((dim, i) => {
    const cmp = order(dim);
    out[dim] = [...groups[i]!.entries()]
      .sort(([a], [b]) => cmp(a, b))
      .map(([key, acc]) => ({ key, ...acc.figures() }));
  });
  return out;
}
