import type { Rows } from './tables';
import { moneyCell, statementNumber, statementTime } from './text';
import { emptyStatement, sideOf, type ParsedStatement } from './types';
import { cash } from './mt5-report';

/**
 * MT4's Detailed Statement (Account History → Save as Detailed Report): "Closed Transactions:" with
 * Ticket, Open Time, Type, Size, Item, Price, S / L, T / P, Close Time, Price, Commission, Taxes,
 * Swap, Profit; balance rows (deposits, withdrawals) as Ticket, Time, "balance", comment, amount;
 * then "Open Trades:" and "Working Orders:". MT4 has no deals: each ticket gives an opening and a
 * closing deal with ids derived from the ticket. A partial close leaves a new ticket for the rest,
 * commented "from #<ticket>" (the comment is the ticket cell's title), filed under the first ticket.
 */

export function isMt4Statement(rows: Rows): boolean {
  return (
    rows.some((r) => /^closed transactions:?$/i.test(r[0] ?? '')) && rows.some((r) => r.includes('Item'))
  );
}

const SECTION = /^(closed transactions|open trades|working orders|summary|details):?$/i;

export function readMt4Statement(rows: Rows, titles: Rows): ParsedStatement {
  const out = emptyStatement('mt4_statement_html', false);
  const header = rows.findIndex(
    (r) => /^account:?/i.test(r[0] ?? '') || r.some((c) => /^currency:/i.test(c)),
  );
  if (header >= 0) {
    const m = /currency:\s*([A-Z]{3})/i.exec(rows[header]!.join(' '));
    if (m) out.currency = m[1]!.toUpperCase();
  }
  let section = '';
  const parentOf = new Map<string, string>();
  const tickets: Array<{ ticket: string; row: string[] }> = [];
  let open = 0;
  rows.forEach((r, i) => {
    const first = r[0]?.trim() ?? '';
    if (SECTION.test(first)) {
      section = first.toLowerCase().replace(/:$/, '');
      return;
    }
    if (!/^\d+$/.test(first)) return;
    const type = (r[2] ?? '').trim().toLowerCase();
    if (section === 'open trades' && sideOf(type)) open++;
    if (section !== 'closed transactions') return;
    if (type === 'balance') {
      const amount = moneyCell(r.at(-1));
      const time = statementTime(r[1]);
      if (amount !== 0 && Number.isFinite(time)) out.cash.push(cash(first, time, amount, r[3]));
      return;
    }
    if (!sideOf(type) || r.length < 14) return; // cancelled pending orders, credits
    const from = /from #(\d+)/i.exec((titles[i] ?? []).join(' ') + ' ' + r.slice(14).join(' '));
    if (from) parentOf.set(first, from[1]!);
    tickets.push({ ticket: first, row: r });
  });
  const root = (t: string): string => {
    const seen = new Set<string>();
    while (parentOf.has(t) && !seen.has(t)) {
      seen.add(t);
      t = parentOf.get(t)!;
    }
    return t;
  };
  for (const { ticket, row } of tickets) {
    const side = sideOf(row[2])!;
    const position = root(ticket);
    const volume = statementNumber(row[3]);
    const symbol = row[4]!.trim();
    const base = { order_id: ticket, position_id: position, symbol, volume, comment: '' };
    const openTime = statementTime(row[1]);
    const closeTime = statementTime(row[8]);
    if (!(volume > 0) || !Number.isFinite(openTime) || !Number.isFinite(closeTime)) continue;
    // A remainder ticket repeats its parent's open: its opening deal adds its volume at that price.
    out.deals.push({
      ...base,
      deal_id: `${ticket}:in`,
      side,
      entry: 'IN',
      price: statementNumber(row[5]),
      profit: 0,
      commission: 0,
      swap: 0,
      time: openTime,
    });
    out.deals.push({
      ...base,
      deal_id: `${ticket}:out`,
      side: side === 'BUY' ? 'SELL' : 'BUY',
      entry: 'OUT',
      price: statementNumber(row[9]),
      profit: moneyCell(row[13]),
      commission: moneyCell(row[10]) + moneyCell(row[11]),
      swap: moneyCell(row[12]),
      time: closeTime,
    });
    if (position === ticket) {
      const sl = statementNumber(row[6]);
      const tp = statementNumber(row[7]);
      out.stops.set(position, { stop_loss: sl > 0 ? sl : null, take_profit: tp > 0 ? tp : null });
    }
  }
  if (open)
    out.warnings.push(`${open} open ${open === 1 ? 'trade is' : 'trades are'} not imported until closed.`);
  return out;
}
