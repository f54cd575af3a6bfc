import {
  currencyDecimals,
  fileDeals,
  impliedRisk,
  sumMoney,
  symbolMapper,
  wallClockToUtc,
  type StatementTrade,
} from '@tradedesk/domain';
import {
  STATEMENT_FORMATS,
  STATEMENT_PREVIEW_ROWS,
  type StatementImport,
  type StatementRow,
} from '@tradedesk/contract';
import type { ParsedStatement } from './parsers/types';

/** A statement read in a zone, its symbols mapped: what a preview shows and an import writes. */
export interface StatementPlan {
  /** Closed positions, times in UTC ms, symbols the account's. */
  closed: Array<StatementTrade & { statement_symbol: string; risk: number | null }>;
  open: Array<StatementTrade & { statement_symbol: string; risk: null }>;
  preview: Omit<StatementImport, 'counts' | 'rows' | 'imported' | 'dry_run'> & {
    counts: Omit<StatementImport['counts'], 'new_trades' | 'known_trades'>;
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Applies the zone and the account's symbols to a parsed statement and files its deals into
 * trades. `accountSymbols` null means they could not be read: symbols are filed without their
 * suffix and the preview says so.
 */
export function planStatement(
  parsed: ParsedStatement,
  zone: string,
  accountSymbols: readonly string[] | null,
  accountCurrency: string,
): StatementPlan {
  const warnings = [...parsed.warnings];
  const map = symbolMapper(accountSymbols ?? []);
  const unknown = new Map<string, string>();
  const rawSymbol = new Map(parsed.deals.map((d) => [d.deal_id, d.symbol]));
  const deals = parsed.deals.map((d) => {
    const m = map(d.symbol);
    if (!m.known) unknown.set(d.symbol, m.symbol);
    return { ...d, symbol: m.symbol, time: wallClockToUtc(d.time, zone) };
  });
  const cash = parsed.cash.map((c) => ({ ...c, time: wallClockToUtc(c.time, zone) }));
  const { trades, orphans } = fileDeals(deals, parsed.stops);
  const closed = trades
    .filter((t) => t.close_time !== null)
    .map((t) => ({ ...t, statement_symbol: rawSymbol.get(t.deals[0]!.deal_id)!, risk: impliedRisk(t) }));
  const open = trades
    .filter((t) => t.close_time === null)
    .map((t) => ({ ...t, statement_symbol: rawSymbol.get(t.deals[0]!.deal_id)!, risk: null }));

  if (accountSymbols === null)
    warnings.push(
      "The account's symbols could not be read (broker offline): symbols are filed without their suffix.",
    );
  else if (unknown.size)
    warnings.push(
      `Unknown symbols, not on this account: ${[...unknown].map(([raw, as]) => (raw.toUpperCase() === as ? raw : `${raw} (filed as ${as})`)).join(', ')}.`,
    );
  if (orphans.length)
    warnings.push(
      `${orphans.length} closing ${orphans.length === 1 ? 'deal is' : 'deals are'} skipped: the position opened before the statement's first day.`,
    );
  if (open.length)
    warnings.push(
      `${open.length} ${open.length === 1 ? 'position is' : 'positions are'} still open: not imported, the broker sync files ${open.length === 1 ? 'it' : 'them'}.`,
    );
  if (parsed.currency && parsed.currency !== accountCurrency)
    warnings.push(
      `The statement is in ${parsed.currency}, the account in ${accountCurrency}: amounts are taken as they are.`,
    );

  const times = [...deals.map((d) => d.time), ...cash.map((c) => c.time)];
  const deposits = cash.filter((c) => c.kind === 'deposit');
  const withdrawals = cash.filter((c) => c.kind === 'withdrawal');
  return {
    closed,
    open,
    preview: {
      format: parsed.format,
      format_label: STATEMENT_FORMATS[parsed.format],
      time_zone: zone,
      detected_time_zone: parsed.zone,
      from: times.length ? iso(Math.min(...times)) : null,
      to: times.length ? iso(Math.max(...times)) : null,
      counts: {
        trades: closed.length,
        open_positions: open.length,
        deals: deals.length,
        deposits: deposits.length,
        withdrawals: withdrawals.length,
      },
      // Money is summed in minor units (DESIGN.md), by the domain's one money function.
      deposits_total: sumMoney(
        deposits.map((c) => c.amount),
        currencyDecimals(accountCurrency),
      ),
      withdrawals_total: sumMoney(
        withdrawals.map((c) => -c.amount),
        currencyDecimals(accountCurrency),
      ),
      warnings,
    },
  };
}

export function previewRows(
  plan: StatementPlan,
  statusOf: (t: StatementTrade) => StatementRow['status'],
): StatementRow[] {
  const all = [...plan.closed, ...plan.open];
  return all
    .sort((a, b) => a.open_time - b.open_time)
    .slice(0, STATEMENT_PREVIEW_ROWS)
    .map((t) => ({
      position_id: t.position_id,
      instrument: t.symbol,
      statement_symbol: t.statement_symbol,
      direction: t.direction,
      lot_size: t.volume,
      entry_price: t.entry_price,
      close_price: t.close_price,
      opened_at: iso(t.open_time),
      closed_at: t.close_time === null ? null : iso(t.close_time),
      // Statement amounts carry at most cents; summed exactly in minor units.
      profit_loss: sumMoney([t.profit, t.commission, t.swap], 2),
      commission: t.commission,
      swap: t.swap,
      deals: t.deals.length,
      status: t.close_time === null ? 'open' : statusOf(t),
    }));
}
