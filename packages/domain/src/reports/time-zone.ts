/**
 * Local wall-clock parts of UTC instants in an IANA time zone, fast enough for 100,000 trades:
 * the zone's offset is looked up once per UTC day (at its start and end) and only worked out
 * exactly on the rare days when it changes; the parts are then plain arithmetic, no Date objects.
 */

export interface LocalParts {
  /** Days since 1970-01-01 in the zone (see `dayKey`). */
  day: number;
  /** 0 = Monday … 6 = Sunday. */
  weekday: number;
  hour: number;
}

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** YYYY-MM-DD of a day number. */
export const dayKey = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

const formats = new Map<string, Intl.DateTimeFormat>();
/**
 * Per zone, the offset of each UTC day (null on a day it changes) and of each quarter hour of those
 * days (null in the quarter it changes), kept across calls: Intl is asked twice a day or quarter,
 * not once a trade.
 */
const dayOffsets = new Map<string, Map<number, number | null>>();
const quarterOffsets = new Map<string, Map<number, number | null>>();
const QUARTER_MS = 900_000;

function exactOffset(timeZone: string, ms: number): number {
  let fmt = formats.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, fmt);
  }
  const p: Record<string, number> = {};
  for (const part of fmt.formatToParts(new Date(ms)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The offset of the span [from, from + length) when it is the same at both ends, else null. */
function spanOffset(timeZone: string, from: number, length: number): number | null {
  const a = exactOffset(timeZone, from);
  return a === exactOffset(timeZone, from + length - 1) ? a : null;
}

/** The zone's offset at an instant, in ms (local = utc + offset). */
export function zoneOffset(timeZone: string): (ms: number) => number {
  if (timeZone === 'UTC') return () => 0;
  let perDay = dayOffsets.get(timeZone);
  if (!perDay) dayOffsets.set(timeZone, (perDay = new Map()));
  let perQuarter = quarterOffsets.get(timeZone);
  if (!perQuarter) quarterOffsets.set(timeZone, (perQuarter = new Map()));
  const days = perDay;
  const quarters = perQuarter;
  // Trades come in time order: most instants fall on the day before them, asked for last.
  let lastDay = NaN;
  let lastOff: number | null = null;
  return (ms: number) => {
    const day = Math.floor(ms / DAY_MS);
    if (day === lastDay && lastOff !== null) return lastOff;
    let off = days.get(day);
    if (off === undefined) days.set(day, (off = spanOffset(timeZone, day * DAY_MS, DAY_MS)));
    lastDay = day;
    lastOff = off;
    if (off !== null) return off;
    const q = Math.floor(ms / QUARTER_MS);
    let inQuarter = quarters.get(q);
    if (inQuarter === undefined)
      quarters.set(q, (inQuarter = spanOffset(timeZone, q * QUARTER_MS, QUARTER_MS)));
    return inQuarter ?? exactOffset(timeZone, ms);
  };
}

/** The zone's offset over a whole UTC day (day number), or null on a day it changes. */
export function zoneDayOffset(timeZone: string): (day: number) => number | null {
  if (timeZone === 'UTC') return () => 0;
  let perDay = dayOffsets.get(timeZone);
  if (!perDay) dayOffsets.set(timeZone, (perDay = new Map()));
  const days = perDay;
  return (day: number) => {
    let off = days.get(day);
    if (off === undefined) days.set(day, (off = spanOffset(timeZone, day * DAY_MS, DAY_MS)));
    return off;
  };
}

/** Local wall-clock time of an instant as epoch-like ms (utc + the zone's offset then). */
export function localTime(timeZone: string): (ms: number) => number {
  const offset = zoneOffset(timeZone);
  return (ms: number) => ms + offset(ms);
}

/** Day number (see `dayKey`) of a local time from `localTime`. */
export const localDay = (local: number): number => Math.floor(local / DAY_MS);
/** 0 = Monday … 6 = Sunday of a local day number (1970-01-01 was a Thursday: 3). */
export const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;
/** Hour 0-23 of a local time from `localTime`. */
export const localHour = (local: number): number =>
  Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / HOUR_MS);

export function localClock(timeZone: string): (ms: number) => LocalParts {
  const local = localTime(timeZone);
  return (ms: number) => {
    const l = local(ms);
    const day = localDay(l);
    return { day, weekday: weekdayOf(day), hour: localHour(l) };
  };
}

const digits = (s: string, from: number, n: number): number => {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
};

/**
 * Epoch ms of an ISO instant. The stored form `YYYY-MM-DDTHH:MM:SS.sssZ` is read by arithmetic
 * (Date.parse costs microseconds, too much 100,000 times over); anything else goes to Date.parse.
 */
export function isoMs(s: string): number {
  if (s.length === 24 && s.charCodeAt(23) === 90 /* Z */ && s.charCodeAt(10) === 84 /* T */) {
    const y = digits(s, 0, 4);
    const m = digits(s, 5, 2);
    const d = digits(s, 8, 2);
    // Days from civil (H. Hinnant): proleptic Gregorian, exact for every year here.
    const yy = m <= 2 ? y - 1 : y;
    const era = Math.floor(yy / 400);
    const yoe = yy - era * 400;
    const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
    const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
    const days = era * 146097 + doe - 719468;
    const ms =
      days * DAY_MS +
      digits(s, 11, 2) * HOUR_MS +
      digits(s, 14, 2) * 60_000 +
      digits(s, 17, 2) * 1000 +
      digits(s, 20, 3);
    if (Number.isFinite(ms) && m >= 1 && m <= 12 && d >= 1 && d <= 31) return ms;
  }
  return Date.parse(s);
}
