import type { CalendarTotal, ReportSummary } from '@tradedesk/contract';

/** A table as CSV text (RFC 4180: fields with commas, quotes or line breaks are quoted). */
export function toCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

export function downloadCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

/** The P/L calendar as CSV: every day of the range, then the week, month and year totals. */
export function calendarCsv(
  calendar: ReportSummary['calendar'],
  currency: string,
  amount: (minor: number) => string,
): string {
  const rows = (period: string, list: CalendarTotal[]) =>
    list.map((r) => [period, r.key, amount(r.net_minor), r.trades, r.wins, r.losses]);
  return toCsv(
    ['Period', 'Date', `P/L (${currency})`, 'Trades', 'Wins', 'Losses'],
    [
      ...rows('Day', calendar.days),
      ...rows('Week from', calendar.weeks),
      ...rows('Month', calendar.months),
      ...rows('Year', calendar.years),
    ],
  );
}
