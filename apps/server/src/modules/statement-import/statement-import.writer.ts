import type { StatementDeal } from '@tradedesk/domain';
import type { StatementRow } from '@tradedesk/contract';
import type { Db } from '../../db';
import type { TradesTable, TradingAccountsTable } from '../../db/schema';
import type { Deal, DealReason } from '../../brokers/types';
import { nowIso } from '../../lib/ids';
import { dealRow, externalTrade, minor } from '../trades/trades.model';
import { statementImportRepo } from './statement-import.repo';
import type { StatementPlan } from './statement-import.plan';

type PlannedTrade = StatementPlan['closed'][number];

/** What the history already holds of each closed trade of the statement. */
export interface Match {
  existing: TradesTable | undefined;
  /** Deals of the statement the account does not have yet. */
  missing: StatementDeal[];
  status: StatementRow['status'];
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Matches the statement's trades to the history by the broker's ids: a position already filed
 * (synced or imported before) takes only the deals it lacks, so a second import of the same or an
 * overlapping statement finds nothing to write. Deal ids a statement derives (MT4 tickets, cTrader
 * rows without a deal id) cannot match deals the broker sync filed, so a position the sync already
 * filed is left as it is.
 */
export async function matchTrades(
  db: Db,
  accountId: string,
  trades: readonly PlannedTrade[],
  brokerDealIds: boolean,
): Promise<Map<string, Match>> {
  const repo = statementImportRepo(db);
  const existing = await repo.tradesByPosition(
    accountId,
    trades.map((t) => t.position_id),
  );
  const known = await repo.knownDealIds(
    accountId,
    trades.flatMap((t) => t.deals.map((d) => d.deal_id)),
  );
  const out = new Map<string, Match>();
  for (const t of trades) {
    const row = existing.get(t.position_id);
    const missing = t.deals.filter((d) => !known.has(d.deal_id));
    const foreign = row && !brokerDealIds && row.source !== 'import';
    out.set(t.position_id, {
      existing: row,
      missing: foreign ? [] : missing,
      status: !row ? 'new' : foreign || missing.length === 0 ? 'known' : 'new',
    });
  }
  return out;
}

function reasonOf(d: StatementDeal, last: boolean): DealReason {
  if (d.entry === 'IN') return 'MARKET';
  if (/\b(sl|s\/l)\b/i.test(d.comment)) return 'STOP_LOSS';
  if (/\b(tp|t\/p)\b/i.test(d.comment)) return 'TAKE_PROFIT';
  if (/\bso\b|stop ?out/i.test(d.comment)) return 'STOP_OUT';
  return last ? 'CLOSE' : 'PARTIAL_CLOSE';
}

const asDeal = (d: StatementDeal, last: boolean): Deal => ({
  deal_id: d.deal_id,
  order_id: d.order_id,
  position_id: d.position_id ?? '',
  symbol: d.symbol,
  side: d.side,
  entry: d.entry,
  volume: d.volume,
  price: d.price,
  profit: d.profit,
  commission: d.commission,
  swap: d.swap,
  reason: reasonOf(d, last),
  time: iso(d.time),
});

function tradeRow(account: TradingAccountsTable, t: PlannedTrade, now: string): TradesTable {
  const opening = t.deals.find((d) => d.entry === 'IN');
  const pl = t.deals.reduce(
    (s, d) =>
      s +
      minor(d.profit, account.currency) +
      minor(d.commission, account.currency) +
      minor(d.swap, account.currency),
    0,
  );
  return {
    ...externalTrade(
      account,
      {
        client_order_id: `import:${t.position_id}`,
        order_id: opening?.order_id || null,
        position_id: t.position_id,
        symbol: t.symbol,
        direction: t.direction,
        order_type: 'MARKET',
        volume: t.volume,
        remaining_volume: 0,
        entry_price: t.entry_price,
        stop_loss: t.stop_loss,
        take_profit: t.take_profit,
        sl_distance:
          t.stop_loss === null ? null : Math.round(Math.abs(t.entry_price - t.stop_loss) * 1e8) / 1e8,
        rr_ratio: null,
        created_at: iso(t.open_time),
        opened_at: iso(t.open_time),
      },
      now,
    ),
    source: 'import',
    status: 'closed',
    closed_at: iso(t.close_time!),
    actual_pl_minor: pl,
    initial_risk_minor: t.risk === null ? null : minor(t.risk, account.currency),
  };
}

/** Writes the new trades and the missing deals in one transaction; returns what it wrote. */
export async function writeTrades(
  db: Db,
  account: TradingAccountsTable,
  trades: readonly PlannedTrade[],
  matches: ReadonlyMap<string, Match>,
) {
  const totals = { new_trades: 0, new_deals: 0, updated_trades: 0 };
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    const repo = statementImportRepo(trx);
    for (const t of trades) {
      const m = matches.get(t.position_id)!;
      if (m.status !== 'new') continue;
      const row = m.existing ?? (await repo.insertTrade(tradeRow(account, t, now)));
      if (!m.existing) totals.new_trades++;
      const lastOut = t.deals.filter((d) => d.entry === 'OUT').at(-1);
      const added = await repo.insertDeals(m.missing.map((d) => dealRow(row, asDeal(d, d === lastOut))));
      totals.new_deals += added;
      if (m.existing && added > 0 && m.existing.status === 'closed') {
        // Deals the history lacked: the trade's P/L and close follow all its deals, as the sync's settle does.
        const deals = await repo.dealsOf(row.id);
        const pl = deals.reduce(
          (s, d) => s + Number(d.profit_minor) + Number(d.commission_minor) + Number(d.swap_minor),
          0,
        );
        const closedAt = deals
          .filter((d) => d.entry === 'OUT')
          .map((d) => d.filled_at)
          .sort()
          .at(-1);
        await repo.updateClosed(row.id, {
          actual_pl_minor: pl,
          closed_at: closedAt ?? row.closed_at,
          updated_at: now,
        });
        totals.updated_trades++;
      }
    }
  });
  return totals;
}
