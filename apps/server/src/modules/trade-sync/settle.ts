import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import { brokerRegistry } from '../../brokers/registry';
import type { BrokerAdapter, Deal } from '../../brokers/types';
import type { TradesTable } from '../../db/schema';
import { nowIso } from '../../lib/ids';
import { dealRow, parseTargets, type ManagedTarget } from '../trades/trades.model';
import { tradesRepo } from '../trades/trades.repo';

/** How long a deal the broker reported before we knew its trade is kept for the trade to claim it. */
const STASH_MS = 60_000;

/**
 * Settling trades with the broker's deals: the deals it reports before their trade row is known are
 * stashed for the trade to claim; a trade whose position is gone is closed once, its P/L the sum of
 * its deals. Anyone who caches trade figures listens to `onInvalidate`.
 */
export const settlement = perApp((ctx: AppContext) => {
  const repo = tradesRepo(ctx.db);
  const brokers = brokerRegistry(ctx);
  /** Deals by account, then by position id, recorded synchronously when reported. */
  const stashes = new Map<string, Map<string, { deals: Deal[]; at: number }>>();
  const invalidators = new Set<(accountId: string) => void>();

  const invalidate = (accountId: string) => {
    for (const fn of invalidators) fn(accountId);
  };

  function stashDeal(accountId: string, d: Deal): void {
    const now = Date.now();
    const stash = stashes.get(accountId) ?? new Map<string, { deals: Deal[]; at: number }>();
    stashes.set(accountId, stash);
    for (const [k, v] of stash) if (now - v.at > STASH_MS) stash.delete(k);
    const entry = stash.get(d.position_id) ?? { deals: [], at: now };
    entry.deals.push(d);
    stash.set(d.position_id, entry);
  }

  /** The deals reported for a position so far, removed from the stash (the caller records them). */
  function takeStash(accountId: string, positionId: string): Deal[] {
    const stash = stashes.get(accountId);
    const entry = stash?.get(positionId);
    if (!stash || !entry) return [];
    stash.delete(positionId);
    return entry.deals;
  }

  /** Records the deals reported for a trade's position so far. */
  async function claimStash(trade: TradesTable): Promise<void> {
    if (!trade.position_id) return;
    for (const d of takeStash(trade.account_id, trade.position_id)) await repo.insertDeal(dealRow(trade, d));
  }

  /**
   * Marks a trade closed once: its P/L is the sum of its recorded deals (profit, commission, swap,
   * in minor units); the broker's take profit closing it is its last target's hit, other pending
   * targets are cancelled.
   */
  async function finalizeClosed(trade: TradesTable, closedAt: string | undefined): Promise<void> {
    if (trade.status !== 'open' && trade.status !== 'pending' && trade.status !== 'submitting') return;
    await claimStash(trade);
    const deals = await repo.dealsOf(trade.id);
    const pl = deals.reduce(
      (s, d) => s + Number(d.profit_minor) + Number(d.commission_minor) + Number(d.swap_minor),
      0,
    );
    const lastOut = [...deals].reverse().find((d) => d.entry === 'OUT');
    const byTakeProfit = lastOut?.deal_reason === 'TAKE_PROFIT';
    const targets = parseTargets(trade).map((t): ManagedTarget => {
      if (t.status !== 'pending') return t;
      if (t.managed_by === 'broker' && byTakeProfit && lastOut) {
        return {
          ...t,
          status: 'hit',
          closed_at: lastOut.filled_at,
          close_price: lastOut.filled_price,
          closed_volume: lastOut.filled_volume,
        };
      }
      return { ...t, status: 'cancelled' };
    });
    const done = await repo.transition(trade.id, ['open', 'pending', 'submitting'], {
      status: 'closed',
      remaining_volume: 0,
      closed_at: closedAt ?? lastOut?.filled_at ?? nowIso(),
      actual_pl_minor: pl,
      targets: trade.targets === null ? null : JSON.stringify(targets),
      updated_at: nowIso(),
    });
    if (done) invalidate(trade.account_id);
  }

  /** A position that is gone at the broker (SL/TP, stop-out, closed elsewhere): take its deals, close the trade. */
  async function closeFromHistory(trade: TradesTable, adapter: BrokerAdapter): Promise<void> {
    if (adapter.capabilities.dealHistory && trade.position_id) {
      try {
        const from = trade.opened_at ?? trade.created_at;
        const until = Math.max(Date.now(), brokers.sim.now()) + 60_000;
        const deals = await adapter.deals(from, new Date(until).toISOString());
        for (const d of deals)
          if (d.position_id === trade.position_id) await repo.insertDeal(dealRow(trade, d));
      } catch (err) {
        ctx.log.warn({ err, trade: trade.id }, 'deal history unavailable; closing with the deals seen');
      }
    }
    await finalizeClosed(trade, undefined);
  }

  return {
    invalidate,
    onInvalidate: (fn: (accountId: string) => void) => void invalidators.add(fn),
    stashDeal,
    takeStash,
    claimStash,
    finalizeClosed,
    closeFromHistory,
    forget: (accountId: string) => void stashes.delete(accountId),
  };
});
