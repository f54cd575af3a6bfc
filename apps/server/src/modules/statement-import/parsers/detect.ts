import { isZip, xlsxRows, XlsxError } from './xlsx';
import { csvRows, htmlTable, type Rows } from './tables';
import { decodeStatement } from './text';
import { isMt5Report, readMt5Report } from './mt5-report';
import { isMt5DealsCsv, readMt5DealsCsv } from './mt5-deals-csv';
import { isMt4Statement, readMt4Statement } from './mt4-statement';
import { isCTraderHistory, readCTraderHistory } from './ctrader-history';
import type { ParsedStatement } from './types';

/**
 * Reads a statement of any accepted format, recognised from its content (never its name): a zip is
 * an XLSX workbook, text with table rows is an HTML report, anything else is tried as CSV. Null when
 * the content is none of them.
 */
export function parseStatement(bytes: Buffer): ParsedStatement | null {
  if (isZip(bytes)) {
    let rows: Rows;
    try {
      rows = xlsxRows(bytes);
    } catch (e) {
      if (
        e instanceof XlsxError ||
        e instanceof RangeError ||
        (e as { code?: string }).code?.startsWith('Z_')
      )
        return null;
      throw e;
    }
    if (isMt5Report(rows)) return readMt5Report(rows, 'mt5_report_xlsx');
    if (isCTraderHistory(rows)) return readCTraderHistory(rows, 'ctrader_history_xlsx');
    return null;
  }
  const text = decodeStatement(bytes);
  if (/<tr\b/i.test(text.slice(0, 200_000)) || /<html\b/i.test(text.slice(0, 2000))) {
    const { rows, titles } = htmlTable(text);
    if (isMt4Statement(rows)) return readMt4Statement(rows, titles);
    if (isMt5Report(rows)) return readMt5Report(rows, 'mt5_report_html');
    return null;
  }
  const rows = csvRows(text);
  if (isMt5DealsCsv(rows)) return readMt5DealsCsv(rows);
  if (isCTraderHistory(rows)) return readCTraderHistory(rows, 'ctrader_history_csv');
  return null;
}
