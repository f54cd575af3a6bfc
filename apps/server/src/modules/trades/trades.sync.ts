import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import {
  BrokerError,
  type BrokerAdapter,
  type BrokerEvent,
  type Deal,
  type Position,
  type Quote,
  type Reconciliation,
} from '../../brokers/types';
import type { TradingAccountsTable, TradesTable } from '../../db/schema';
import { nowIso } from '../../lib/ids';
import { accountsRepo } from '../accounts/accounts.repo';
import {
  dealRow,
  externalTrade,
  parseTargets,
  pendingServerTargets,
  type ManagedTarget,
} from './trades.model';
import { tradesRepo } from './trades.repo';

/** What an opening fill tells us; the service turns it into stops, targets and R figures. */
export interface FillInfo {
  position_id: string;
  order_id?: string;
  price: number;
  time: string;
  volume?: number;
  stop_loss?: number | null;
  take_profit?: number | null;
}

export interface TradeSyncHooks {
  /** Completes a pending trade whose order filled (stops, targets, R); idempotent. */
  onFilled(trade: TradesTable, fill: FillInfo, adapter: BrokerAdapter): Promise<void>;
}

/** How long a deal the broker reported before we knew its trade is kept for the trade to claim it. */
const STASH_MS = 60_000;
/** A pending trade younger than this may still be inside its execute call: a reconcile leaves it alone. */
const IN_FLIGHT_MS = 30_000;

interface Watched {
  trade: TradesTable;
  targets: ManagedTarget[];
  busy: boolean;
}

interface AccountState {
  account: TradingAccountsTable;
  adapter: BrokerAdapter;
  stopEvents: () => void;
  queue: Promise<unknown>;
  /** Deals by position id, recorded synchronously when reported. */
  stash: Map<string, { deals: Deal[]; at: number }>;
  /** Quote subscriptions of the target watcher, by symbol. */
  symbols: Map<string, { unsubscribe: () => void; trades: Map<string, Watched> }>;
}

/**
 * Keeps our trades in step with the broker: records the deals it reports (fills, partial closes,
 * SL/TP hits), closes trades whose position is gone, adopts positions opened elsewhere, and runs
 * the multi-target watcher that closes each target's share when its price is reached.
 */
export function createTradeSync(ctx: AppContext, hooks: TradeSyncHooks) {
  const repo = tradesRepo(ctx.db);
  const brokers = brokerRegistry(ctx);
  const states = new Map<string, AccountState>();
  const invalidators = new Set<(accountId: string) => void>();
  /** Client order ids of execute calls between their order and their trade row. */
  const inFlight = new Set<string>();
  let closed = false;

  const invalidate = (accountId: string) => {
    for (const fn of invalidators) fn(accountId);
  };

  function serial<T>(st: AccountState, fn: () => Promise<T>): Promise<T> {
    const run = st.queue.then(fn, fn);
    st.queue = run.catch(() => undefined);
    return run;
  }

  /** The connected adapter of an account, with our listeners attached to it (once per adapter). */
  async function attach(account: TradingAccountsTable): Promise<BrokerAdapter> {
    const adapter = await brokers.connected(account);
    const existing = states.get(account.id);
    if (existing && existing.adapter === adapter) return adapter;
    if (existing) detach(existing);
    const st: AccountState = {
      account,
      adapter,
      stopEvents: () => undefined,
      queue: Promise.resolve(),
      stash: new Map(),
      symbols: new Map(),
    };
    st.stopEvents = adapter.onEvent((e) => onEvent(st, e));
    states.set(account.id, st);
    return adapter;
  }

  function detach(st: AccountState): void {
    st.stopEvents();
    for (const s of st.symbols.values()) s.unsubscribe();
    st.symbols.clear();
    states.delete(st.account.id);
  }

  function stashDeal(st: AccountState, d: Deal): void {
    const now = Date.now();
    for (const [k, v] of st.stash) if (now - v.at > STASH_MS) st.stash.delete(k);
    const entry = st.stash.get(d.position_id) ?? { deals: [], at: now };
    entry.deals.push(d);
    st.stash.set(d.position_id, entry);
  }

  /** Records the deals reported for a trade's position so far. */
  async function claimStash(accountId: string, trade: TradesTable): Promise<void> {
    const st = states.get(accountId);
    if (!st || !trade.position_id) return;
    const entry = st.stash.get(trade.position_id);
    if (!entry) return;
    st.stash.delete(trade.position_id);
    for (const d of entry.deals) await repo.insertDeal(dealRow(trade, d));
  }

  function onEvent(st: AccountState, e: BrokerEvent): void {
    if (closed) return;
    // Deals are stashed at once, so that an execute call that is still running finds its fill.
    if (e.type === 'execution') stashDeal(st, e.deal);
    if (e.type === 'quote' || e.type === 'account' || e.type === 'connection') return;
    void serial(st, () => handle(st, e)).catch((err: unknown) =>
      ctx.log.error({ err, account: st.account.id, event: e.type }, 'trade sync failed'),
    );
  }

  async function handle(st: AccountState, e: BrokerEvent): Promise<void> {
    const accountId = st.account.id;
    if (e.type === 'execution') {
      const trade = await repo.byPositionId(accountId, e.deal.position_id);
      if (trade) await claimStash(accountId, trade);
    } else if (e.type === 'position') {
      const p = e.position;
      let trade = await repo.byPositionId(accountId, p.position_id);
      if (!trade && p.client_order_id) trade = await repo.byClientOrderId(accountId, p.client_order_id);
      if (!trade) return;
      if (e.status === 'CLOSED') await finalizeClosed(trade, undefined);
      else if (trade.status === 'pending') await hooks.onFilled(trade, fillOf(p), st.adapter);
      else if (trade.status === 'open') await refreshFromPosition(trade, p);
    } else if (e.type === 'order' && e.status === 'CANCELLED') {
      const trade = await repo.byOrderId(accountId, e.order.order_id);
      if (
        trade &&
        (await repo.transition(trade.id, ['pending'], { status: 'cancelled', updated_at: nowIso() }))
      )
        invalidate(accountId);
    }
  }

  const fillOf = (p: Position): FillInfo => ({
    position_id: p.position_id,
    price: p.entry_price,
    time: p.opened_at,
    volume: p.volume,
    stop_loss: p.stop_loss,
    take_profit: p.take_profit,
  });

  /** Takes volume and stops from the broker's position when they differ from ours. */
  async function refreshFromPosition(trade: TradesTable, p: Position): Promise<void> {
    if (
      trade.remaining_volume === p.volume &&
      trade.stop_loss === p.stop_loss &&
      trade.take_profit === p.take_profit
    )
      return;
    await repo.update(trade.id, {
      remaining_volume: p.volume,
      stop_loss: p.stop_loss,
      take_profit: p.take_profit,
      updated_at: nowIso(),
    });
    invalidate(trade.account_id);
  }

  /**
   * Marks a trade closed once: its P/L is the sum of its recorded deals (profit, commission, swap,
   * in minor units); targets still pending are cancelled.
   */
  async function finalizeClosed(trade: TradesTable, closedAt: string | undefined): Promise<void> {
    if (trade.status !== 'open' && trade.status !== 'pending') return;
    await claimStash(trade.account_id, trade);
    const deals = await repo.dealsOf(trade.id);
    const pl = deals.reduce(
      (s, d) => s + Number(d.profit_minor) + Number(d.commission_minor) + Number(d.swap_minor),
      0,
    );
    const lastOut = [...deals].reverse().find((d) => d.entry === 'OUT');
    // The last target is the broker's take profit: a close by it is that target's hit.
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
    const done = await repo.transition(trade.id, ['open', 'pending'], {
      status: 'closed',
      remaining_volume: 0,
      closed_at: closedAt ?? lastOut?.filled_at ?? nowIso(),
      actual_pl_minor: pl,
      targets: trade.targets === null ? null : JSON.stringify(targets),
      updated_at: nowIso(),
    });
    unwatch(trade);
    if (done) invalidate(trade.account_id);
  }

  /**
   * Brings every live trade of an account in line with the broker's positions and orders.
   * Returns the broker's open positions by id.
   */
  async function reconcile(
    account: TradingAccountsTable,
    adapter: BrokerAdapter,
    live: TradesTable[],
    rec?: Reconciliation,
  ): Promise<Map<string, Position>> {
    const r = rec ?? (await adapter.reconcile());
    const byId = new Map(r.positions.map((p) => [p.position_id, p]));
    const byClient = new Map<string, Position>();
    for (const p of r.positions) if (p.client_order_id) byClient.set(p.client_order_id, p);
    const claimed = new Set<string>();
    const nowMs = Date.now();
    for (const t of live) {
      if (t.status === 'open' && t.position_id) {
        claimed.add(t.position_id);
        const p = byId.get(t.position_id);
        if (p) await refreshFromPosition(t, p);
        else await closeFromHistory(t, adapter);
      } else if (t.status === 'pending') {
        const p = byClient.get(t.client_order_id);
        if (p) {
          claimed.add(p.position_id);
          await hooks.onFilled(t, fillOf(p), adapter);
        } else if (
          !r.orders.some((o) => o.order_id === t.order_id || o.client_order_id === t.client_order_id) &&
          nowMs - Date.parse(t.updated_at) > IN_FLIGHT_MS
        ) {
          if (await repo.transition(t.id, ['pending'], { status: 'cancelled', updated_at: nowIso() }))
            invalidate(account.id);
        }
      }
    }
    const brokerNow = account.platform === 'SIM' ? brokers.sim.now() : Date.now();
    for (const p of r.positions) {
      if (claimed.has(p.position_id)) continue;
      if (p.client_order_id && live.some((t) => t.client_order_id === p.client_order_id)) continue;
      // An execute call writes its trade just after the fill: never adopt its position meanwhile.
      if (p.client_order_id && inFlight.has(p.client_order_id)) continue;
      if (brokerNow - Date.parse(p.opened_at) < IN_FLIGHT_MS) continue;
      if (await repo.byPositionId(account.id, p.position_id)) continue;
      await adopt(account, p);
    }
    return byId;
  }

  /** A position opened outside the app becomes a trade of ours, so it can be managed and journaled. */
  async function adopt(account: TradingAccountsTable, p: Position): Promise<void> {
    const now = nowIso();
    await repo.insert(
      externalTrade(
        account,
        {
          client_order_id: p.client_order_id ?? `external:${p.position_id}`,
          order_id: null,
          position_id: p.position_id,
          symbol: p.symbol,
          direction: p.side,
          order_type: 'MARKET',
          volume: p.volume,
          remaining_volume: p.volume,
          entry_price: p.entry_price,
          stop_loss: p.stop_loss,
          take_profit: p.take_profit,
          sl_distance: p.stop_loss === null ? null : Math.abs(p.entry_price - p.stop_loss),
          rr_ratio:
            p.stop_loss !== null && p.take_profit !== null && p.stop_loss !== p.entry_price
              ? Math.round(
                  (Math.abs(p.take_profit - p.entry_price) / Math.abs(p.entry_price - p.stop_loss)) * 100,
                ) / 100
              : null,
          created_at: p.opened_at || now,
          opened_at: p.opened_at || now,
        },
        now,
      ),
    );
    invalidate(account.id);
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

  // ---- multi-target watcher ----

  function watch(accountId: string, trade: TradesTable): void {
    const st = states.get(accountId);
    if (!st || closed) return;
    const targets = parseTargets(trade);
    if (trade.status !== 'open' || !trade.position_id || pendingServerTargets(targets).length === 0) {
      unwatch(trade);
      return;
    }
    let sym = st.symbols.get(trade.symbol);
    if (!sym) {
      const trades = new Map<string, Watched>();
      const unsubscribe = st.adapter.subscribeQuotes(trade.symbol, (q) => onQuote(st, trades, q));
      sym = { unsubscribe, trades };
      st.symbols.set(trade.symbol, sym);
    }
    const current = sym.trades.get(trade.id);
    sym.trades.set(trade.id, { trade, targets, busy: current?.busy ?? false });
  }

  function unwatch(trade: Pick<TradesTable, 'id' | 'account_id' | 'symbol'>): void {
    const st = states.get(trade.account_id);
    const sym = st?.symbols.get(trade.symbol);
    if (!st || !sym) return;
    sym.trades.delete(trade.id);
    if (sym.trades.size === 0) {
      sym.unsubscribe();
      st.symbols.delete(trade.symbol);
    }
  }

  function onQuote(st: AccountState, trades: Map<string, Watched>, q: Quote): void {
    for (const w of trades.values()) {
      if (w.busy) continue;
      const next = pendingServerTargets(w.targets).sort((a, b) => a.rank - b.rank)[0];
      if (!next) continue;
      const px = w.trade.direction === 'BUY' ? q.bid : q.ask;
      const reached = w.trade.direction === 'BUY' ? px >= next.price : px <= next.price;
      if (!reached) continue;
      w.busy = true;
      void serial(st, () => hitTarget(st, w.trade.id, next.rank))
        .catch((err: unknown) => ctx.log.error({ err, trade: w.trade.id }, 'target close failed'))
        .finally(() => {
          w.busy = false;
        });
    }
  }

  /** Closes one target's share as a partial close and records it on the trade. */
  async function hitTarget(st: AccountState, tradeId: string, rank: number): Promise<void> {
    const trade = await repo.byIdFor(st.account.user_id, tradeId);
    if (!trade || trade.status !== 'open' || !trade.position_id) {
      if (trade) unwatch(trade);
      return;
    }
    const targets = parseTargets(trade);
    const target = targets.find((t) => t.rank === rank);
    if (!target || target.status !== 'pending') return watch(st.account.id, trade);
    const volume = Math.min(target.volume, trade.remaining_volume);
    let deal: Deal;
    try {
      deal =
        volume >= trade.remaining_volume - 1e-9
          ? await st.adapter.closePosition(trade.position_id)
          : await st.adapter.closePosition(trade.position_id, volume);
    } catch (e) {
      if (e instanceof BrokerError && e.kind === 'not_found') {
        await closeFromHistory(trade, st.adapter);
        return;
      }
      throw e;
    }
    await repo.insertDeal({ ...dealRow(trade, deal), deal_reason: 'TARGET' });
    target.status = 'hit';
    target.closed_at = deal.time;
    target.close_price = deal.price;
    target.closed_volume = deal.volume;
    const remaining = Math.max(0, Math.round((trade.remaining_volume - deal.volume) * 1e8) / 1e8);
    const updated: TradesTable = {
      ...trade,
      targets: JSON.stringify(targets),
      remaining_volume: remaining,
      updated_at: nowIso(),
    };
    await repo.update(trade.id, {
      targets: updated.targets,
      remaining_volume: remaining,
      updated_at: updated.updated_at,
    });
    invalidate(trade.account_id);
    ctx.log.info({ trade: trade.id, rank, price: deal.price, volume: deal.volume }, 'target reached');
    if (remaining <= 0) await finalizeClosed(updated, deal.time);
    else watch(st.account.id, updated);
  }

  /** After a restart: reattach to every account with live trades, reconcile them and resume the watcher. */
  async function resume(): Promise<void> {
    const ids = await repo.liveAccountIds();
    const accounts = await accountsRepo(ctx.db).byIds(ids);
    await Promise.all(
      accounts.map(async (account) => {
        try {
          const adapter = await attach(account);
          const st = states.get(account.id)!;
          await serial(st, async () => {
            const live = await repo.liveFor(account.user_id, account.id);
            await reconcile(account, adapter, live);
            for (const t of await repo.liveFor(account.user_id, account.id)) watch(account.id, t);
          });
        } catch (err) {
          ctx.log.warn({ err, account: account.id }, 'trade sync could not resume this account yet');
        }
      }),
    );
  }

  const stopReconciled = brokers.onReconciled((accountId, rec) => {
    const st = states.get(accountId);
    if (!st) return;
    void serial(st, async () => {
      const live = await repo.liveFor(st.account.user_id, accountId);
      await reconcile(st.account, st.adapter, live, rec);
    }).catch((err: unknown) => ctx.log.error({ err, account: accountId }, 'trade reconcile failed'));
  });

  return {
    attach,
    watch,
    unwatch,
    finalizeClosed,
    claimStash,
    /** The deals reported for a position so far, removed from the stash (the caller records them). */
    takeStash(accountId: string, positionId: string): Deal[] {
      const st = states.get(accountId);
      const entry = st?.stash.get(positionId);
      if (!st || !entry) return [];
      st.stash.delete(positionId);
      return entry.deals;
    },
    reconcile,
    resume,
    /** Marks an execute call's order as in flight until `done` settles, so no reconcile adopts it. */
    async inFlight<T>(clientOrderId: string, done: () => Promise<T>): Promise<T> {
      inFlight.add(clientOrderId);
      try {
        return await done();
      } finally {
        inFlight.delete(clientOrderId);
      }
    },
    invalidate,
    /** Runs `fn` in the account's event order, so that it never interleaves with the sync. */
    serial<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
      const st = states.get(accountId);
      return st ? serial(st, fn) : fn();
    },
    onInvalidate(fn: (accountId: string) => void) {
      invalidators.add(fn);
    },
    /** Resolves when every queued sync step of the account has run (tests, shutdown). */
    async idle(accountId: string): Promise<void> {
      const st = states.get(accountId);
      if (st) await serial(st, async () => undefined);
    },
    close(): void {
      closed = true;
      stopReconciled();
      for (const st of [...states.values()]) detach(st);
    },
  };
}

export type TradeSync = ReturnType<typeof createTradeSync>;
