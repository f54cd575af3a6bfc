import { createHash } from 'node:crypto';
import { columns, type Rows } from './tables';
import { moneyCell, statementNumber, statementTime } from './text';
import { emptyStatement, sideOf, SkipCounter, type ParsedStatement } from './types';

/**
 * cTrader's History tab exported as CSV or XLSX: one row per closing deal (a partial close is a row
 * of its own) with Deal ID, Symbol, Opening Direction, Opening Time, Closing Time, Entry Price,
 * Closing Price, Closing Quantity, Gross, Commissions, Swap, Net and Balance; the time columns name
 * their zone, e.g. "Closing Time (UTC+3)". Columns can be hidden or moved in the terminal, so they
 * are found by name. Without a Position ID column the rows of one position are those with the same
 * symbol, direction, opening time and entry price. Deposits are not in the History tab.
 */

const WANTED = {
  deal: /^(closing )?deal id$|^id$/,
  position: /^position( id)?$/,
  symbol: /^symbol$/,
  direction: /^(opening direction|direction|side)$/,
  openTime: /^opening time/,
  closeTime: /^closing time/,
  entry: /^entry price/,
  close: /^closing price/,
  quantity: /^(closing quantity|quantity|closing volume|volume)/,
  gross: /^gross/,
  net: /^net/,
  commission: /^commissions?/,
  swap: /^swap/,
  label: /^label$/,
  comment: /^comment$/,
};

const headerAt = (rows: Rows) =>
  rows.slice(0, 20).findIndex((r) => {
    const c = columns(r, WANTED);
    return (
      c.symbol >= 0 && c.direction >= 0 && c.closeTime >= 0 && c.entry >= 0 && c.close >= 0 && c.quantity >= 0
    );
  });

export const isCTraderHistory = (rows: Rows): boolean => headerAt(rows) >= 0;

/** "(UTC+3)", "(UTC-04:00)", "(UTC+0)" → an IANA zone (Etc/GMT signs are inverted); null otherwise. */
export function zoneOfHeader(h: string): string | null {
  const m = /\(UTC\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?\)/i.exec(h);
  if (!m) return /\(UTC\)/i.test(h) ? 'UTC' : null;
  const hours = Number(m[2]);
  if (m[3] && m[3] !== '00') return null;
  if (hours === 0) return 'UTC';
  return `Etc/GMT${m[1] === '+' ? '-' : '+'}${hours}`;
}

const shortHash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

export function readCTraderHistory(
  rows: Rows,
  format: 'ctrader_history_csv' | 'ctrader_history_xlsx',
): ParsedStatement {
  const at = headerAt(rows);
  const header = rows[at]!;
  const c = columns(header, WANTED);
  const out = emptyStatement(format, c.deal >= 0);
  const skipped = new SkipCounter();
  out.zone = zoneOfHeader(header[c.closeTime] ?? '') ?? zoneOfHeader(header[c.openTime] ?? '');
  const cur = /\(?\b([A-Z]{3})\)?$/.exec((header[c.net] ?? header[c.gross] ?? '').trim());
  if (cur) out.currency = cur[1]!;
  const lotsHeader = /lot/i.test(header[c.quantity] ?? '');
  let units = false;
  const opened = new Map<
    string,
    { time: number; price: number; side: 'BUY' | 'SELL'; symbol: string; volume: number; first: string }
  >();
  for (const r of rows.slice(at + 1)) {
    const symbol = r[c.symbol]?.trim() ?? '';
    const side = sideOf(r[c.direction]);
    const openTime = statementTime(r[c.openTime]);
    const closeTime = statementTime(r[c.closeTime]);
    const entry = statementNumber(r[c.entry]);
    const close = statementNumber(r[c.close]);
    let volume = statementNumber(r[c.quantity]);
    if (!symbol || !side) {
      skipped.add('not a closed position (no symbol or direction)');
      continue;
    }
    if (
      !Number.isFinite(closeTime) ||
      !Number.isFinite(openTime) ||
      !(entry > 0) ||
      !(close > 0) ||
      !(volume > 0)
    ) {
      skipped.add('a row without times, prices or quantity');
      continue;
    }
    if (!lotsHeader && !/lot/i.test(r[c.quantity] ?? '') && volume >= 1000) {
      // Quantity in units: a standard lot is 100,000 units (FX; the preview shows the result).
      volume = Math.round((volume / 100_000) * 1e8) / 1e8;
      units = true;
    }
    const commission = moneyCell(r[c.commission]);
    const swap = moneyCell(r[c.swap]);
    const gross = c.gross >= 0 ? moneyCell(r[c.gross]) : moneyCell(r[c.net]) - commission - swap;
    const position =
      (c.position >= 0 && r[c.position]?.trim()) ||
      `ct-${shortHash([symbol, side, r[c.openTime], entry].join('|'))}`;
    const dealId = (c.deal >= 0 && r[c.deal]?.trim()) || `ct-${shortHash(r.join('|'))}`;
    const pos = opened.get(position);
    if (pos) pos.volume += volume;
    else opened.set(position, { time: openTime, price: entry, side, symbol, volume, first: dealId });
    out.deals.push({
      deal_id: dealId,
      order_id: '',
      position_id: position,
      symbol,
      side: side === 'BUY' ? 'SELL' : 'BUY',
      entry: 'OUT',
      volume,
      price: close,
      profit: gross,
      commission,
      swap,
      time: closeTime,
      comment: [r[c.label], r[c.comment]].filter(Boolean).join(' ').trim(),
    });
  }
  // The opening deal is not a row of the History tab: one per position, its volume what was closed.
  for (const [position, p] of opened)
    out.deals.push({
      deal_id: `${position}:open`,
      order_id: '',
      position_id: position,
      symbol: p.symbol,
      side: p.side,
      entry: 'IN',
      volume: Math.round(p.volume * 1e8) / 1e8,
      price: p.price,
      profit: 0,
      commission: 0,
      swap: 0,
      time: p.time,
      comment: '',
    });
  if (units) out.warnings.push('Quantities were read as units (100,000 a lot).');
  skipped.into(out.warnings);
  return out;
}
