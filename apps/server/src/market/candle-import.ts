import { candleImportFields, type CandleImportResult } from '@tradedesk/contract';
import type { AppContext } from '../context';
import { badRequest } from '../lib/http-error';
import { CsvImportError, parseCandleCsv } from './candle-csv';
import { candleStore } from './candle-store';

/** Imports a user's M1 file: recognises its format, checks every row, stores the bars as the user's. */
export async function importCandleFile(
  ctx: AppContext,
  userId: string,
  fields: Record<string, string>,
  file: Buffer | undefined,
): Promise<CandleImportResult> {
  const parsed = candleImportFields.safeParse({ ...fields, symbol: fields.symbol ?? '' });
  if (!parsed.success) {
    const detail: Record<string, string[]> = {};
    for (const issue of parsed.error.issues)
      (detail[String(issue.path[0] ?? 'non_field_errors')] ??= []).push(issue.message);
    throw badRequest(detail);
  }
  if (!file || file.length === 0) throw badRequest({ file: ['Choose a CSV file of M1 bars.'] });
  const symbol = parsed.data.symbol.toUpperCase();
  let result;
  try {
    result = parseCandleCsv(file, parsed.data.utc_offset_minutes);
  } catch (e) {
    if (e instanceof CsvImportError) throw badRequest({ file: [e.message] });
    throw e;
  }
  const { bars, format } = result;
  const months = await candleStore(ctx).importM1(userId, symbol, bars);
  return {
    symbol,
    format,
    bars: bars.time.length,
    first: new Date(bars.time[0]!).toISOString(),
    last: new Date(bars.time[bars.time.length - 1]!).toISOString(),
    months,
  };
}
