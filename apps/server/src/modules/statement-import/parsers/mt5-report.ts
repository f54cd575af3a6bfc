import type { StatementCash, StatementDeal } from '@tradedesk/domain';
import { columns, type Rows } from './tables';
import { moneyCell, statementNumber, statementTime } from './text';
import { emptyStatement, sideOf, SkipCounter, type ParsedStatement } from './types';

/**
 * The MT5 terminal's Report (History → Report → HTML or Open XML): a header (Name, Account,
 * Company, Date), then sections whose title is a row of one cell (Positions, Orders, Deals, then
 * Results), each with its own header row. Deals carry the broker's deal tickets but not their
 * position; an opening deal's order ticket is its position id, and `fileDeals` pairs the closing
 * ones. Positions give each position's stop and target.
 */

const sectionAt = (rows: Rows, name: RegExp) =>
  rows.findIndex((r) => r.filter(Boolean).length === 1 && name.test(r.find(Boolean)!));

export function isMt5Report(rows: Rows): boolean {
  const deals = sectionAt(rows, /^deals$/i);
  if (deals < 0) return false;
  const header = (rows[deals + 1] ?? []).map((c) => c.toLowerCase());
  return header.includes('deal') && header.includes('direction');
}

/** The rows of a section: after its header row, until the next section title. */
function section(rows: Rows, name: RegExp): { header: string[]; body: Rows } | null {
  const at = sectionAt(rows, name);
  if (at < 0) return null;
  const body: Rows = [];
  for (let i = at + 2; i < rows.length; i++) {
    const r = rows[i]!;
    if (r.filter(Boolean).length === 1 && !/^\d/.test(r.find(Boolean)!)) break;
    body.push(r);
  }
  return { header: rows[at + 1] ?? [], body };
}

export function readMt5Report(rows: Rows, format: 'mt5_report_html' | 'mt5_report_xlsx'): ParsedStatement {
  const out = emptyStatement(format, true);
  const skipped = new SkipCounter();
  for (const r of rows.slice(0, 12)) {
    const i = r.findIndex((c) => /^account:?$/i.test(c));
    const m = i >= 0 ? /\(([A-Z]{3})\b/.exec(r.slice(i + 1).join(' ')) : null;
    if (m) out.currency = m[1]!;
  }

  const positions = section(rows, /^positions$/i);
  if (positions) {
    const c = columns(positions.header, { position: /^position$/, sl: /^s ?\/ ?l$/, tp: /^t ?\/ ?p$/ });
    if (c.position >= 0)
      for (const r of positions.body) {
        const id = r[c.position]?.trim();
        if (!id || !/^\d+$/.test(id)) continue;
        const sl = statementNumber(r[c.sl]);
        const tp = statementNumber(r[c.tp]);
        out.stops.set(id, { stop_loss: sl > 0 ? sl : null, take_profit: tp > 0 ? tp : null });
      }
  }

  const deals = section(rows, /^deals$/i)!;
  const c = columns(deals.header, {
    time: /^time$/,
    deal: /^deal$/,
    symbol: /^symbol$/,
    type: /^type$/,
    direction: /^direction$/,
    volume: /^volume$/,
    price: /^price$/,
    order: /^order$/,
    commission: /^commission$/,
    fee: /^fee$/,
    swap: /^swap$/,
    profit: /^profit$/,
    comment: /^comment$/,
  });
  for (const r of deals.body) {
    const time = statementTime(r[c.time]);
    const id = r[c.deal]?.trim() ?? '';
    if (!Number.isFinite(time) || !id) continue; // the totals row
    const type = (r[c.type] ?? '').trim().toLowerCase();
    const profit = moneyCell(r[c.profit]);
    if (type === 'balance') {
      if (profit === 0) continue;
      out.cash.push(cash(id, time, profit, r[c.comment]));
      continue;
    }
    const side = sideOf(type);
    if (!side) {
      skipped.add(`${type || 'unknown'} operations are neither trades nor deposits`);
      continue;
    }
    const direction = (r[c.direction] ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
    const entry = direction === 'in' ? 'IN' : direction === 'out' || direction === 'out by' ? 'OUT' : null;
    if (!entry) {
      skipped.add(`a reversal (in/out) deal is not supported`);
      continue;
    }
    const deal: StatementDeal = {
      deal_id: id,
      order_id: r[c.order]?.trim() ?? '',
      position_id: null,
      symbol: r[c.symbol]?.trim() ?? '',
      side,
      entry,
      volume: statementNumber(r[c.volume]?.split('/')[0]),
      price: statementNumber(r[c.price]),
      profit,
      commission: moneyCell(r[c.commission]) + (c.fee >= 0 ? moneyCell(r[c.fee]) : 0),
      swap: moneyCell(r[c.swap]),
      time,
      comment: r[c.comment]?.trim() ?? '',
    };
    if (!deal.symbol || !(deal.volume > 0) || !(deal.price > 0))
      skipped.add('a deal without symbol, volume or price');
    else out.deals.push(deal);
  }
  skipped.into(out.warnings);
  return out;
}

export function cash(id: string, time: number, amount: number, comment: string | undefined): StatementCash {
  return { id, time, amount, kind: amount > 0 ? 'deposit' : 'withdrawal', comment: comment?.trim() ?? '' };
}
