import type { Db } from '../../db';
import type { TradeDealsTable, TradesTable } from '../../db/schema';
import { newId } from '../../lib/ids';

/**
 * Bulk-writes trade history rows as the sync would have filed them (tests of the read side and the
 * benchmark): batches of rows per INSERT, inside one transaction.
 */
export interface SeedTrade {
  id?: string;
  symbol: string;
  direction: 'BUY' | 'SELL';
  status: TradesTable['status'];
  volume: number;
  entry_price: number | null;
  stop_loss?: number | null;
  created_at: string;
  closed_at?: string | null;
  /** Minor units; null while not closed. */
  pl_minor?: number | null;
  initial_risk_minor?: number | null;
  reason?: string;
  source?: TradesTable['source'];
  rr_ratio?: number | null;
  /** Deals of the trade; profit/commission/swap in minor units. */
  deals?: Array<{
    entry: 'IN' | 'OUT';
    filled_at: string;
    price: number;
    volume: number;
    profit_minor?: number;
    commission_minor?: number;
    swap_minor?: number;
    reason?: string;
  }>;
}

/** Bound parameters per INSERT stay under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMS = 30_000;

export function seedTradeRow(
  t: SeedTrade,
  ctx: { userId: string; accountId: string; currency: string },
): TradesTable {
  const id = t.id ?? newId();
  return {
    id,
    user_id: ctx.userId,
    account_id: ctx.accountId,
    source: t.source ?? 'app',
    client_order_id: `seed:${id}`,
    order_id: null,
    position_id: `pos:${id}`,
    symbol: t.symbol,
    direction: t.direction,
    order_type: 'MARKET',
    status: t.status,
    volume: t.volume,
    remaining_volume: t.status === 'closed' ? 0 : t.volume,
    limit_price: null,
    entry_price: t.entry_price,
    stop_loss: t.stop_loss ?? null,
    take_profit: null,
    sl_distance: null,
    initial_risk_minor: t.initial_risk_minor ?? null,
    risk_percent: null,
    rr_ratio: t.rr_ratio ?? null,
    projected_profit_minor: null,
    projected_loss_minor: null,
    atr_multiplier: null,
    reason: t.reason ?? '',
    trader: '',
    timeframe: '',
    targets: null,
    currency: ctx.currency,
    created_at: t.created_at,
    opened_at: t.created_at,
    closed_at: t.closed_at ?? null,
    actual_pl_minor: t.pl_minor ?? null,
    updated_at: t.created_at,
  };
}

export async function seedTrades(
  db: Db,
  ctx: { userId: string; accountId: string; currency: string },
  trades: SeedTrade[],
): Promise<TradesTable[]> {
  const rows = trades.map((t) => seedTradeRow(t, ctx));
  const deals: TradeDealsTable[] = [];
  trades.forEach((t, i) => {
    const row = rows[i]!;
    for (const d of t.deals ?? []) {
      deals.push({
        id: newId(),
        trade_id: row.id,
        user_id: ctx.userId,
        account_id: ctx.accountId,
        broker_deal_id: `deal:${newId()}`,
        order_id: null,
        position_id: row.position_id,
        filled_at: d.filled_at,
        order_type: d.entry === 'IN' ? 'MARKET' : 'CLOSE',
        direction: d.entry === 'IN' ? t.direction : t.direction === 'BUY' ? 'SELL' : 'BUY',
        entry: d.entry,
        filled_price: d.price,
        filled_volume: d.volume,
        profit_minor: d.profit_minor ?? 0,
        commission_minor: d.commission_minor ?? 0,
        swap_minor: d.swap_minor ?? 0,
        deal_reason: d.reason ?? (d.entry === 'IN' ? 'MARKET' : 'CLOSE'),
      });
    }
  });
  const tradeBatch = Math.floor(MAX_PARAMS / Object.keys(rows[0] ?? { id: 1 }).length);
  const dealBatch = Math.floor(MAX_PARAMS / Object.keys(deals[0] ?? { id: 1 }).length);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += tradeBatch)
      await trx
        .insertInto('trades')
        .values(rows.slice(i, i + tradeBatch))
        .execute();
    for (let i = 0; i < deals.length; i += dealBatch)
      await trx
        .insertInto('trade_deals')
        .values(deals.slice(i, i + dealBatch))
        .execute();
  });
  return rows;
}
