import { columns, type Rows } from './tables';
import { moneyCell, statementNumber, statementTime } from './text';
import { emptyStatement, sideOf, SkipCounter, type ParsedStatement } from './types';
import { cash } from './mt5-report';

/**
 * The deals CSV a terminal script writes from HistoryDealGet*: one deal a line with its ticket,
 * order and position, e.g. `Time;Deal;Order;Position;Symbol;Type;Entry;Volume;Price;Commission;
 * Fee;Swap;Profit;Magic;Comment` (comma, semicolon or tab; `DEAL_TYPE_BUY` or `buy`,
 * `DEAL_ENTRY_IN` or `in`). The position column makes pairing exact.
 */

const WANTED = {
  time: /^time$/,
  deal: /^(deal|ticket|deal ticket)$/,
  order: /^order$/,
  position: /^(position|position id|position_id)$/,
  symbol: /^symbol$/,
  type: /^type$/,
  entry: /^entry$/,
  volume: /^volume$/,
  price: /^price$/,
  commission: /^commission$/,
  fee: /^fee$/,
  swap: /^swap$/,
  profit: /^profit$/,
  comment: /^comment$/,
};

export function isMt5DealsCsv(rows: Rows): boolean {
  const c = columns(rows[0] ?? [], WANTED);
  return c.deal >= 0 && c.position >= 0 && c.entry >= 0 && c.type >= 0 && c.time >= 0;
}

export function readMt5DealsCsv(rows: Rows): ParsedStatement {
  const out = emptyStatement('mt5_deals_csv', true);
  const skipped = new SkipCounter();
  const c = columns(rows[0]!, WANTED);
  for (const r of rows.slice(1)) {
    const time = statementTime(r[c.time]);
    const id = r[c.deal]?.trim() ?? '';
    if (!Number.isFinite(time) || !id) {
      skipped.add('not a deal (no time or ticket)');
      continue;
    }
    const type = (r[c.type] ?? '')
      .trim()
      .toLowerCase()
      .replace(/^deal_type_/, '');
    const profit = moneyCell(r[c.profit]);
    if (type === 'balance') {
      if (profit !== 0) out.cash.push(cash(id, time, profit, r[c.comment]));
      continue;
    }
    const side = sideOf(type);
    if (!side) {
      skipped.add(`${type || 'unknown'} operations are neither trades nor deposits`);
      continue;
    }
    const entryText = (r[c.entry] ?? '')
      .trim()
      .toLowerCase()
      .replace(/^deal_entry_/, '');
    const entry = entryText === 'in' ? 'IN' : entryText === 'out' || entryText === 'out_by' ? 'OUT' : null;
    if (!entry) {
      skipped.add('a reversal (in/out) deal is not supported');
      continue;
    }
    const volume = statementNumber(r[c.volume]);
    const price = statementNumber(r[c.price]);
    const symbol = r[c.symbol]?.trim() ?? '';
    if (!symbol || !(volume > 0) || !(price > 0)) {
      skipped.add('a deal without symbol, volume or price');
      continue;
    }
    out.deals.push({
      deal_id: id,
      order_id: r[c.order]?.trim() ?? '',
      position_id: r[c.position]?.trim() || null,
      symbol,
      side,
      entry,
      volume,
      price,
      profit,
      commission: moneyCell(r[c.commission]) + (c.fee >= 0 ? moneyCell(r[c.fee]) : 0),
      swap: moneyCell(r[c.swap]),
      time,
      comment: r[c.comment]?.trim() ?? '',
    });
  }
  skipped.into(out.warnings);
  return out;
}
