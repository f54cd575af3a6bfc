import {
  concatSeries,
  monthStartOf,
  nextMonthStart,
  seriesRange,
  type CandleSeries,
} from '@tradedesk/domain';

/** 'YYYY-MM' of the month containing t (UTC). */
export function monthKey(t: number): string {
  const d = new Date(t);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Start instant of a 'YYYY-MM' month. */
export function monthKeyStart(key: string): number {
  return Date.UTC(Number(key.slice(0, 4)), Number(key.slice(5, 7)) - 1, 1);
}

/** The months overlapping [fromMs, toMs), each with its [start, end). */
export function monthsOf(fromMs: number, toMs: number): { key: string; start: number; end: number }[] {
  const out: { key: string; start: number; end: number }[] = [];
  for (let start = monthStartOf(fromMs); start < toMs; start = nextMonthStart(start)) {
    out.push({ key: monthKey(start), start, end: nextMonthStart(start) });
  }
  return out;
}

/** `base` with its bars in [fromMs, toMs) replaced by `bars` (which all open in that interval). */
export function spliceSeries(
  base: CandleSeries,
  fromMs: number,
  toMs: number,
  bars: CandleSeries,
): CandleSeries {
  const n = base.time.length;
  if (n === 0) return bars;
  return concatSeries([seriesRange(base, -Infinity, fromMs), bars, seriesRange(base, toMs, Infinity)]);
}
