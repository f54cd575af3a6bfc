import { roundToDigits } from '@tradedesk/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import { brokerRegistry } from '../../brokers/registry';
import type { BrokerAdapter, BrokerEvent, Position, Reconciliation } from '../../brokers/types';
import type { TradingAccountsTable, TradesTable } from '../../db/schema';
import { nowIso } from '../../lib/ids';
import { accountsRepo } from '../accounts/accounts.repo';
import { quoteToAccount } from '../trades/conversion';
import { filledFields, type FillInfo } from '../trades/trade-record';
import { externalTrade } from '../trades/trades.model';
import { tradesRepo } from '../trades/trades.repo';
import { accountQueue } from './account-queue';
import { settlement } from './settle';
import { targetsWatcher } from './targets-watcher';

/** A pending trade younger than this may still be inside its execute call: a reconcile leaves it alone. */
const IN_FLIGHT_MS = 30_000;

interface AccountState {
  account: TradingAccountsTable;
  adapter: BrokerAdapter;
  stopEvents: () => void;
}

/**
 * Keeps our trades in step with the broker: records the deals it reports (fills, partial closes,
 * SL/TP hits), completes trades whose order filled (a `submitting` row whose answer never came
 * included), closes trades whose position is gone, adopts positions opened elsewhere, and keeps the
 * targets watcher fed. The app's one trade sync, wired in app.ts: it resumes on start.
 */
export const tradeSync = perApp(createTradeSync);

function createTradeSync(ctx: AppContext) {
  const repo = tradesRepo(ctx.db);
  const brokers = brokerRegistry(ctx);
  const queue = accountQueue(ctx);
  const settle = settlement(ctx);
  const watcher = targetsWatcher(ctx);
  const states = new Map<string, AccountState>();
  /** Client order ids of execute calls between their order and their trade row. */
  const inFlight = new Set<string>();
  let closed = false;
  const { invalidate } = settle;
  const serial = <T>(st: AccountState, fn: () => Promise<T>) => queue.serial(st.account.id, fn);
  /** Closes a trade whose position is gone and stops watching its targets. */
  async function finalizeClosed(trade: TradesTable, closedAt: string | undefined): Promise<void> {
    await settle.finalizeClosed(trade, closedAt);
    watcher.unwatch(trade);
  }
  async function closeFromHistory(trade: TradesTable, adapter: BrokerAdapter): Promise<void> {
    await settle.closeFromHistory(trade, adapter);
    watcher.unwatch(trade);
  }
  function watch(accountId: string, trade: TradesTable): void {
    const st = states.get(accountId);
    if (st && !closed) watcher.watch(st.adapter, trade);
  }

  /** The connected adapter of an account, with our listeners attached to it (once per adapter). */
  async function attach(account: TradingAccountsTable): Promise<BrokerAdapter> {
    const adapter = await brokers.connected(account);
    const existing = states.get(account.id);
    if (existing && existing.adapter === adapter) return adapter;
    if (existing) detach(existing);
    const st: AccountState = { account, adapter, stopEvents: () => undefined };
    st.stopEvents = adapter.onEvent((e) => onEvent(st, e));
    states.set(account.id, st);
    return adapter;
  }

  function detach(st: AccountState): void {
    st.stopEvents();
    watcher.unwatchAccount(st.account.id);
    settle.forget(st.account.id);
    states.delete(st.account.id);
  }

  function onEvent(st: AccountState, e: BrokerEvent): void {
    if (closed) return;
    // Deals are stashed at once, so that an execute call that is still running finds its fill.
    if (e.type === 'execution') settle.stashDeal(st.account.id, e.deal);
    if (e.type === 'quote' || e.type === 'account' || e.type === 'connection') return;
    void serial(st, () => handle(st, e)).catch((err: unknown) =>
      ctx.log.error({ err, account: st.account.id, event: e.type }, 'trade sync failed'),
    );
  }

  async function handle(st: AccountState, e: BrokerEvent): Promise<void> {
    const accountId = st.account.id;
    if (e.type === 'execution') {
      const trade = await repo.byPositionId(accountId, e.deal.position_id);
      if (trade) await settle.claimStash(trade);
    } else if (e.type === 'position') {
      const p = e.position;
      let trade = await repo.byPositionId(accountId, p.position_id);
      if (!trade && p.client_order_id) trade = await repo.byClientOrderId(accountId, p.client_order_id);
      if (!trade) return;
      if (e.status === 'CLOSED') await finalizeClosed(trade, undefined);
      else if (
        (trade.status === 'pending' || trade.status === 'submitting') &&
        !inFlight.has(trade.client_order_id)
      )
        await completeFill(trade, fillOf(p), st.adapter);
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

  /**
   * Completes a submitting or pending trade whose order filled: stops and targets are re-resolved
   * from the real fill price, one R and projections are stored. Runs once per trade.
   */
  async function completeFill(trade: TradesTable, fill: FillInfo, adapter: BrokerAdapter): Promise<void> {
    if (trade.status !== 'pending' && trade.status !== 'submitting') return;
    const symbol = await adapter.symbolInfo(trade.symbol);
    const rate = await quoteToAccount(adapter, symbol, trade.currency, await adapter.quote(trade.symbol));
    const updated = filledFields(trade, fill, symbol, rate);
    if (!(await repo.transition(trade.id, ['submitting', 'pending'], updated))) return;
    const opened: TradesTable = { ...trade, ...updated };
    await settle.claimStash(opened);
    invalidate(trade.account_id);
    watch(trade.account_id, opened);
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
      } else if (t.status === 'pending' || t.status === 'submitting') {
        const p = byClient.get(t.client_order_id);
        const order = r.orders.find(
          (o) => o.order_id === t.order_id || o.client_order_id === t.client_order_id,
        );
        if (p) claimed.add(p.position_id);
        // An execute call of this process still owns its row: it completes it itself.
        if (t.status === 'submitting' && inFlight.has(t.client_order_id)) continue;
        if (p) {
          await completeFill(t, fillOf(p), adapter);
        } else if (order && t.status === 'submitting') {
          // The order reached the broker but its answer never reached us: it is a pending order.
          if (
            await repo.transition(t.id, ['submitting'], {
              status: 'pending',
              order_id: order.order_id,
              updated_at: nowIso(),
            })
          )
            invalidate(account.id);
        } else if (!order && nowMs - Date.parse(t.updated_at) > IN_FLIGHT_MS) {
          // Neither a position nor an order: the order never reached the broker, or was cancelled.
          if (
            await repo.transition(t.id, ['pending', 'submitting'], {
              status: 'cancelled',
              updated_at: nowIso(),
            })
          )
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
              ? roundToDigits(
                  Math.abs(p.take_profit - p.entry_price) / Math.abs(p.entry_price - p.stop_loss),
                  2,
                )
              : null,
          created_at: p.opened_at || now,
          opened_at: p.opened_at || now,
        },
        now,
      ),
    );
    invalidate(account.id);
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
    unwatch: watcher.unwatch,
    finalizeClosed,
    claimStash: settle.claimStash,
    takeStash: settle.takeStash,
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
    serial: queue.serial,
    onInvalidate: settle.onInvalidate,
    idle: queue.idle,
    close(): void {
      closed = true;
      stopReconciled();
      for (const st of [...states.values()]) detach(st);
      watcher.close();
    },
  };
}

export type TradeSync = ReturnType<typeof createTradeSync>;

/**
 * Wires the trade sync into the app: trades placed before a restart keep being synced (submitting
 * rows completed or cancelled, positions adopted) and their targets managed; it stops on shutdown.
 */
export function registerTradeSync(app: FastifyInstance, ctx: AppContext): void {
  const sync = tradeSync(ctx);
  ctx.onShutdown(() => sync.close());
  app.addHook('onReady', () => {
    void sync.resume();
  });
}
