import { roundToDigits } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import { BrokerError, type BrokerAdapter, type Deal, type Quote } from '../../brokers/types';
import type { TradesTable } from '../../db/schema';
import { nowIso } from '../../lib/ids';
import { dealRow, parseTargets, pendingServerTargets, type ManagedTarget } from '../trades/trades.model';
import { tradesRepo } from '../trades/trades.repo';
import { accountQueue } from './account-queue';
import { settlement } from './settle';

interface Watched {
  trade: TradesTable;
  targets: ManagedTarget[];
  busy: boolean;
}

interface Subscription {
  adapter: BrokerAdapter;
  unsubscribe: () => void;
  trades: Map<string, Watched>;
}

/**
 * The multi-target watcher: every target of a trade but the last is closed by the server as a
 * partial close when the quote reaches it (the last one is the broker's take profit). One quote
 * subscription per account and symbol, dropped with its last trade.
 */
export const targetsWatcher = perApp((ctx: AppContext) => {
  const repo = tradesRepo(ctx.db);
  const queue = accountQueue(ctx);
  const settle = settlement(ctx);
  /** By account id, then by symbol. */
  const subscriptions = new Map<string, Map<string, Subscription>>();
  let closed = false;

  function watch(adapter: BrokerAdapter, trade: TradesTable): void {
    if (closed) return;
    const targets = parseTargets(trade);
    if (trade.status !== 'open' || !trade.position_id || pendingServerTargets(targets).length === 0) {
      unwatch(trade);
      return;
    }
    const symbols = subscriptions.get(trade.account_id) ?? new Map<string, Subscription>();
    subscriptions.set(trade.account_id, symbols);
    let sub = symbols.get(trade.symbol);
    if (sub && sub.adapter !== adapter) {
      sub.unsubscribe();
      sub = undefined;
    }
    if (!sub) {
      const trades = new Map<string, Watched>();
      const unsubscribe = adapter.subscribeQuotes(trade.symbol, (q) => onQuote(adapter, trades, q));
      sub = { adapter, unsubscribe, trades };
      symbols.set(trade.symbol, sub);
    }
    const current = sub.trades.get(trade.id);
    sub.trades.set(trade.id, { trade, targets, busy: current?.busy ?? false });
  }

  function unwatch(trade: Pick<TradesTable, 'id' | 'account_id' | 'symbol'>): void {
    const symbols = subscriptions.get(trade.account_id);
    const sub = symbols?.get(trade.symbol);
    if (!symbols || !sub) return;
    sub.trades.delete(trade.id);
    if (sub.trades.size === 0) {
      sub.unsubscribe();
      symbols.delete(trade.symbol);
    }
  }

  /** Drops every subscription of an account (its broker link went away). */
  function unwatchAccount(accountId: string): void {
    for (const sub of subscriptions.get(accountId)?.values() ?? []) sub.unsubscribe();
    subscriptions.delete(accountId);
  }

  function onQuote(adapter: BrokerAdapter, trades: Map<string, Watched>, q: Quote): void {
    for (const w of trades.values()) {
      if (w.busy) continue;
      const next = pendingServerTargets(w.targets).sort((a, b) => a.rank - b.rank)[0];
      if (!next) continue;
      const px = w.trade.direction === 'BUY' ? q.bid : q.ask;
      const reached = w.trade.direction === 'BUY' ? px >= next.price : px <= next.price;
      if (!reached) continue;
      w.busy = true;
      void queue
        .serial(w.trade.account_id, () => hitTarget(adapter, w.trade, next.rank))
        .catch((err: unknown) => ctx.log.error({ err, trade: w.trade.id }, 'target close failed'))
        .finally(() => {
          w.busy = false;
        });
    }
  }

  /** Closes one target's share as a partial close and records it on the trade. */
  async function hitTarget(adapter: BrokerAdapter, watched: TradesTable, rank: number): Promise<void> {
    const trade = await repo.byIdFor(watched.user_id, watched.id);
    if (!trade || trade.status !== 'open' || !trade.position_id) {
      if (trade) unwatch(trade);
      return;
    }
    const targets = parseTargets(trade);
    const target = targets.find((t) => t.rank === rank);
    if (!target || target.status !== 'pending') return watch(adapter, trade);
    const volume = Math.min(target.volume, trade.remaining_volume);
    let deal: Deal;
    try {
      deal =
        volume >= trade.remaining_volume - 1e-9
          ? await adapter.closePosition(trade.position_id)
          : await adapter.closePosition(trade.position_id, volume);
    } catch (e) {
      if (e instanceof BrokerError && e.kind === 'not_found') {
        await settle.closeFromHistory(trade, adapter);
        unwatch(trade);
        return;
      }
      throw e;
    }
    target.status = 'hit';
    target.closed_at = deal.time;
    target.close_price = deal.price;
    target.closed_volume = deal.volume;
    const remaining = Math.max(0, roundToDigits(trade.remaining_volume - deal.volume, 8));
    const updated: TradesTable = {
      ...trade,
      targets: JSON.stringify(targets),
      remaining_volume: remaining,
      updated_at: nowIso(),
    };
    // The deal and the target's new state in one transaction: recorded apart, a restart between them
    // would find the target still pending and close its share a second time.
    await ctx.db.transaction().execute(async (trx) => {
      const tx = tradesRepo(trx);
      await tx.insertDeal({ ...dealRow(trade, deal), deal_reason: 'TARGET' });
      await tx.update(trade.id, {
        targets: updated.targets,
        remaining_volume: remaining,
        updated_at: updated.updated_at,
      });
    });
    settle.invalidate(trade.account_id);
    ctx.log.info({ trade: trade.id, rank, price: deal.price, volume: deal.volume }, 'target reached');
    if (remaining <= 0) {
      await settle.finalizeClosed(updated, deal.time);
      unwatch(updated);
    } else watch(adapter, updated);
  }

  return {
    watch,
    unwatch,
    unwatchAccount,
    close(): void {
      closed = true;
      for (const id of [...subscriptions.keys()]) unwatchAccount(id);
    },
  };
});
