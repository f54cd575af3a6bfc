import { roundToDigits, type Proportion } from '@tradedesk/domain';
import type { KeyValueComponent, TableComponent } from '@tradedesk/contract';

/** Percent with one decimal, null when there is no sample (shown as N/A). */
export const pct = (v: number): number | null => (Number.isFinite(v) ? roundToDigits(v, 1) : null);
export const num2 = (v: number): number | null => (Number.isFinite(v) ? roundToDigits(v, 2) : null);
/** "48.2–61.0 %", or "N/A" without a sample. */
export const interval = (p: Proportion): string =>
  Number.isFinite(p.low) ? `${p.low.toFixed(1)}–${p.high.toFixed(1)} %` : 'N/A';

export function table(
  title: string,
  columns: Array<[string, string]>,
  rows: TableComponent['data']['rows'],
): TableComponent {
  return { type: 'table', title, data: { columns: columns.map(([key, label]) => ({ key, label })), rows } };
}

export function keyValues(title: string, pairs: Array<[string, string | number | null]>): KeyValueComponent {
  return { type: 'key_value_pairs', title, data: pairs.map(([key, value]) => ({ key, value })) };
}

export interface ReportContext {
  symbol: string;
  timeframe: string;
  from: string;
  to: string;
  bars: number;
  sessions: Array<{ name: string; startHour: number; endHour: number }>;
}

const hh = (h: number) =>
  `${String(Math.floor(h)).padStart(2, '0')}:${String(Math.round((h % 1) * 60)).padStart(2, '0')}`;

/** The data the figures came from, stated first on every result page. */
export function dataKeyValues(c: ReportContext): KeyValueComponent {
  return keyValues('Data', [
    ['Instrument', c.symbol],
    ['Timeframe', c.timeframe],
    ['From (UTC)', c.from],
    ['To (UTC)', c.to],
    ['Bars analysed', c.bars],
    ['Sessions (UTC)', c.sessions.map((s) => `${s.name} ${hh(s.startHour)}–${hh(s.endHour)}`).join(', ')],
  ]);
}

export const SESSION_DEFINITIONS: Array<[string, string]> = [
  ['Session', "A bar belongs to a session when its open time falls within the session's UTC hours."],
  ['Session open / close', "The first bar's open / the last bar's close."],
  ['Direction', 'Up when the close is above the open, down when below, flat when equal.'],
  [
    'Transition',
    "A session and the session right after it (New York is followed by the next trading day's Asia).",
  ],
  ['95 % interval', 'Wilson score interval of the percentage; wide when the sample is small.'],
];
