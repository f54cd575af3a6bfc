import { CANDLE_CSV_FORMATS, type CandleCsvFormat } from '@tradedesk/contract';
import { allocateSeries, sliceSeries, type CandleSeries } from '@tradedesk/domain';

/**
 * M1 bar files in the formats traders download, recognised from their header and shape:
 *
 * - MT5 "Export bars" (Symbols → Bars → Export): a header `<DATE> <TIME> <OPEN> <HIGH> <LOW> <CLOSE>
 *   <TICKVOL> <VOL> <SPREAD>` separated by tabs (commas and semicolons are accepted too), rows
 *   `2026.01.07 10:00:00 1.16512 …`; UTF-8 or UTF-16 (MT5 writes either). Times are the broker's
 *   server time: give its UTC offset. Volume = TICKVOL.
 * - HistData.com "Generic ASCII" M1: no header, `20260107 100000;1.165120;1.165200;1.165010;1.165150;0`.
 *   Times are EST without daylight saving (UTC-5) all year, as HistData documents.
 * - Dukascopy CSV: a header `Gmt time,Open,High,Low,Close,Volume` (or `Time (UTC)` / `Local time`),
 *   rows `07.01.2026 10:00:00.000,1.16512,…` (or `2026.01.07 10:00:00`); a `Local time` row ends
 *   with its offset (`GMT+0100`). Volume may have decimals.
 */

export class CsvImportError extends Error {}

export interface ParsedCandles {
  format: CandleCsvFormat;
  bars: CandleSeries;
}

/** Offsets from UTC (minutes) of each format's times when the file does not say. */
export const DEFAULT_UTC_OFFSET: Record<CandleCsvFormat, number> = { mt5: 0, histdata: -300, dukascopy: 0 };

const unrecognised = () =>
  new CsvImportError(
    `Unrecognised candle file. Accepted formats: ${Object.values(CANDLE_CSV_FORMATS).join('; ')}.`,
  );

/** Text of the file: UTF-16 when it starts with a byte-order mark (MT5 often writes it), else UTF-8. */
export function fileText(data: Buffer): string {
  if (data.length >= 2 && data[0] === 0xff && data[1] === 0xfe) return data.subarray(2).toString('utf16le');
  if (data.length >= 2 && data[0] === 0xfe && data[1] === 0xff) {
    const swapped = Buffer.from(data.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  return data.toString('utf8').replace(/^\uFEFF/, '');
}

interface Row {
  /** Wall-clock time of the row in the file's zone, as if it were UTC (ms). */
  wall: number;
  /** Offset given on the row itself (Dukascopy local time), minutes. */
  offset?: number;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
}

type RowParser = (fields: string[]) => Row | null;

const wallTime = (y: string, mo: string, d: string, hh: string, mi: string, ss = '0', ms = '0') => {
  const t = Date.UTC(+y, +mo - 1, +d, +hh, +mi, +ss, +ms);
  const back = new Date(t);
  // Date.UTC rolls 31.02 into March: a date that does not round-trip is not a date.
  return back.getUTCDate() === +d && back.getUTCMonth() === +mo - 1 && +hh < 24 && +mi < 60 && +ss < 60
    ? t
    : NaN;
};

const MT5_DATE = /^(\d{4})[.-](\d{2})[.-](\d{2})$/;
const MT5_TIME = /^(\d{2}):(\d{2})(?::(\d{2}))?$/;
const HISTDATA_STAMP = /^(\d{4})(\d{2})(\d{2}) (\d{2})(\d{2})(\d{2})$/;
const DUKA_STAMP =
  /^(?:(\d{2})\.(\d{2})\.(\d{4})|(\d{4})[.-](\d{2})[.-](\d{2}))[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(?: ?GMT([+-])(\d{2}):?(\d{2}))?$/;

const mt5Row: RowParser = (f) => {
  const d = MT5_DATE.exec(f[0] ?? '');
  const t = MT5_TIME.exec(f[1] ?? '');
  if (!d || !t || f.length < 7) return null;
  return {
    wall: wallTime(d[1]!, d[2]!, d[3]!, t[1]!, t[2]!, t[3]),
    o: f[2]!,
    h: f[3]!,
    l: f[4]!,
    c: f[5]!,
    v: f[6]!,
  };
};

const histdataRow: RowParser = (f) => {
  const m = HISTDATA_STAMP.exec(f[0] ?? '');
  if (!m || f.length < 6) return null;
  return {
    wall: wallTime(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]),
    o: f[1]!,
    h: f[2]!,
    l: f[3]!,
    c: f[4]!,
    v: f[5]!,
  };
};

const dukascopyRow: RowParser = (f) => {
  const m = DUKA_STAMP.exec(f[0] ?? '');
  if (!m || f.length < 6) return null;
  const [y, mo, d] = m[1] ? [m[3]!, m[2]!, m[1]] : [m[4]!, m[5]!, m[6]!];
  const wall = wallTime(y, mo, d, m[7]!, m[8]!, m[9], (m[10] ?? '0').padEnd(3, '0'));
  const offset = m[11] ? (m[11] === '-' ? -1 : 1) * (+m[12]! * 60 + +m[13]!) : undefined;
  return {
    wall,
    ...(offset !== undefined ? { offset } : {}),
    o: f[1]!,
    h: f[2]!,
    l: f[3]!,
    c: f[4]!,
    v: f[5]!,
  };
};

const splitOn = (sep: string | RegExp) => (line: string) => line.split(sep).map((x) => x.trim());

interface Detected {
  format: CandleCsvFormat;
  split: (line: string) => string[];
  row: RowParser;
  /** Index of the first data line. */
  first: number;
}

function detect(lines: string[]): Detected {
  const head = lines[0]!.trim();
  if (/^<DATE>/i.test(head)) {
    const sep = head.includes('\t') ? '\t' : head.includes(';') ? ';' : ',';
    const cols = splitOn(sep)(head).map((c) => c.toUpperCase());
    const expected = ['<DATE>', '<TIME>', '<OPEN>', '<HIGH>', '<LOW>', '<CLOSE>', '<TICKVOL>'];
    if (expected.every((c, i) => cols[i] === c))
      return { format: 'mt5', split: splitOn(sep), row: mt5Row, first: 1 };
  }
  if (/^(gmt time|time \(utc\)|local time)\s*[,;]/i.test(head)) {
    const sep = head.includes(';') ? ';' : ',';
    const cols = splitOn(sep)(head).map((c) => c.toLowerCase());
    if (['open', 'high', 'low', 'close', 'volume'].every((c, i) => cols[i + 1]?.startsWith(c)))
      return { format: 'dukascopy', split: splitOn(sep), row: dukascopyRow, first: 1 };
  }
  if (histdataRow(splitOn(';')(head)))
    return { format: 'histdata', split: splitOn(';'), row: histdataRow, first: 0 };
  throw unrecognised();
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * Parses an M1 file into bars (UTC, oldest first). `utcOffsetMinutes` is the zone of the file's times
 * (default: the format's own, see DEFAULT_UTC_OFFSET). Throws CsvImportError naming the line at fault.
 */
export function parseCandleCsv(data: Buffer, utcOffsetMinutes?: number): ParsedCandles {
  const lines = fileText(data).split(/\r?\n/);
  while (lines.length && lines.at(-1)!.trim() === '') lines.pop();
  if (lines.length === 0) throw new CsvImportError('The file is empty.');
  const d = detect(lines);
  const fileOffset = utcOffsetMinutes ?? DEFAULT_UTC_OFFSET[d.format];
  const bars = allocateSeries(lines.length - d.first);
  let n = 0;
  let sorted = true;
  for (let i = d.first; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const at = `Line ${i + 1}`;
    const r = d.row(d.split(line));
    if (!r || !Number.isFinite(r.wall)) throw new CsvImportError(`${at}: not a ${label(d.format)} row.`);
    const t = r.wall - (r.offset ?? fileOffset) * 60_000;
    if (t % 60_000 !== 0)
      throw new CsvImportError(`${at}: the time is not on a whole minute (M1 bars only).`);
    const prices = [r.o, r.h, r.l, r.c];
    if (!prices.every((p) => NUMBER.test(p)) || !NUMBER.test(r.v))
      throw new CsvImportError(`${at}: prices and volume must be numbers.`);
    const [o, h, l, c] = prices.map(Number) as [number, number, number, number];
    if (h < Math.max(o, c, l) || l > Math.min(o, c))
      throw new CsvImportError(`${at}: the high must be the highest price and the low the lowest.`);
    if (o <= 0 || l <= 0) throw new CsvImportError(`${at}: prices must be above zero.`);
    if (n > 0 && t <= bars.time[n - 1]!) sorted = false;
    bars.time[n] = t;
    bars.open[n] = o;
    bars.high[n] = h;
    bars.low[n] = l;
    bars.close[n] = c;
    bars.volume[n] = Number(r.v);
    n++;
  }
  if (n === 0) throw new CsvImportError('The file has no bars.');
  const out = sliceSeries(bars, 0, n);
  return { format: d.format, bars: sorted ? out : sortUnique(out) };
}

const label = (f: CandleCsvFormat) => CANDLE_CSV_FORMATS[f].replace(/ \(.*$/, '');

/** Files are normally in order; one that is not is sorted, and the same minute twice is refused. */
function sortUnique(s: CandleSeries): CandleSeries {
  const order = Array.from(s.time.keys()).sort((a, b) => s.time[a]! - s.time[b]!);
  const out = allocateSeries(order.length);
  order.forEach((j, k) => {
    if (k > 0 && s.time[j] === out.time[k - 1])
      throw new CsvImportError(`The bar of ${new Date(s.time[j]!).toISOString()} appears twice.`);
    out.time[k] = s.time[j]!;
    out.open[k] = s.open[j]!;
    out.high[k] = s.high[j]!;
    out.low[k] = s.low[j]!;
    out.close[k] = s.close[j]!;
    out.volume[k] = s.volume[j]!;
  });
  return out;
}
