/**
 * The P/L calendar: each trading day's result (by the day a trade closed, in the trader's zone),
 * with ISO-week (Monday first), month and year totals.
 */
import { columnsOf, type ReportColumns } from './columns';
import type { ReportTrade } from './figures';
import { dayKey, localDay, localTime, weekdayOf } from './time-zone';

export interface CalendarTotal {
  /** YYYY-MM-DD for days, the week's Monday for weeks, YYYY-MM for months, YYYY for years. */
  key: string;
  net_minor: number;
  trades: number;
  wins: number;
  losses: number;
}

export interface PnlCalendar {
  days: CalendarTotal[];
  weeks: CalendarTotal[];
  months: CalendarTotal[];
  years: CalendarTotal[];
}

const tally = (key: string): CalendarTotal => ({ key, net_minor: 0, trades: 0, wins: 0, losses: 0 });

function addInto(map: Map<string, CalendarTotal>, key: string, from: CalendarTotal) {
  let row = map.get(key);
  if (!row) map.set(key, (row = tally(key)));
  row.net_minor += from.net_minor;
  row.trades += from.trades;
  row.wins += from.wins;
  row.losses += from.losses;
}

/** The calendar of the columns' trades, days in `timeZone`. */
export function calendarOf(
  c: Pick<ReportColumns, 'length' | 'closedMs' | 'pnl'>,
  timeZone = 'UTC',
): PnlCalendar {
  const local = localTime(timeZone);
  // Days first (by day number), then the few distinct days rolled up into weeks, months and years.
  const byDay = new Map<number, CalendarTotal>();
  for (let i = 0; i < c.length; i++) {
    const day = localDay(local(c.closedMs[i]!));
    const pnl = c.pnl[i]!;
    let row = byDay.get(day);
    if (!row) byDay.set(day, (row = tally('')));
    row.net_minor += pnl;
    row.trades++;
    if (pnl > 0) row.wins++;
    else if (pnl < 0) row.losses++;
  }
  const dayNums = [...byDay.keys()].sort((a, b) => a - b);
  const days: CalendarTotal[] = [];
  const weeks = new Map<string, CalendarTotal>();
  const months = new Map<string, CalendarTotal>();
  const years = new Map<string, CalendarTotal>();
  for (const d of dayNums) {
    const row = byDay.get(d)!;
    row.key = dayKey(d);
    days.push(row);
    addInto(weeks, dayKey(d - weekdayOf(d)), row);
    addInto(months, row.key.slice(0, 7), row);
    addInto(years, row.key.slice(0, 4), row);
  }
  return { days, weeks: [...weeks.values()], months: [...months.values()], years: [...years.values()] };
}

/** `calendarOf` for report trades. */
export function computeCalendar(trades: readonly ReportTrade[], timeZone = 'UTC'): PnlCalendar {
  return calendarOf(columnsOf(trades), timeZone);
}
