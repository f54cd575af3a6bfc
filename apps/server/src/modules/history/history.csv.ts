/**
 * CSV per RFC 4180 (comma separated, CRLF line ends, fields with a comma, quote, CR or LF quoted and
 * their quotes doubled), with a guard against formula injection: a text cell that a spreadsheet
 * would run as a formula (starting with = + - @, or a tab or carriage return) gets a leading
 * apostrophe. Numbers we format ourselves are written plain, so a negative P/L stays a number.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** A number we produced: written as is, never guarded. */
export class CsvNumber {
  constructor(readonly text: string) {}
}

export function csvNumber(v: number | null, decimals?: number): CsvNumber | null {
  if (v === null || !Number.isFinite(v)) return null;
  return new CsvNumber(decimals === undefined ? String(v) : v.toFixed(decimals));
}

export function csvCell(v: string | CsvNumber | null | undefined): string {
  if (v === null || v === undefined) return '';
  if (v instanceof CsvNumber) return v.text;
  const text = FORMULA_START.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: Array<string | CsvNumber | null | undefined>): string =>
  `${cells.map(csvCell).join(',')}\r\n`;
