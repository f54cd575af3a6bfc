import dayjs from 'dayjs';

/** Below this a figure is shown in full; above it, compactly (12.3K), with the full value in a title. */
const COMPACT_FROM = 10_000;

const compact = new Intl.NumberFormat('en-US', {
  notation: 'compact',
  maximumFractionDigits: 1,
});

/**
 * Money as the dashboard tables show it: the account currency's decimals and no grouping (so the
 * figure reads back as a number), or compact above 10,000 so a large P/L never widens the column.
 */
export function compactMoney(v: number, decimals: number): string {
  return Math.abs(v) < COMPACT_FROM ? v.toFixed(decimals) : compact.format(v);
}

/** A creation time in two short parts (day, time) that stack in a narrow column, and in full. */
export function shortTime(iso: string | null | undefined): { day: string; time: string; full: string } {
  if (!iso) return { day: '—', time: '', full: '' };
  const d = dayjs(iso);
  if (!d.isValid()) return { day: '—', time: '', full: iso };
  return { day: d.format('MMM D'), time: d.format('HH:mm'), full: d.format('YYYY-MM-DD HH:mm:ss') };
}
