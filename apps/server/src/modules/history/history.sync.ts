import type { HistorySyncResult } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import { brokerRegistry } from '../../brokers/registry';
import type { BrokerAdapter, Deal, Position } from '../../brokers/types';
import type { TradingAccountsTable, TradesTable } from '../../db/schema';
import { nowIso } from '../../lib/ids';
import { dealRow, externalTrade } from '../trades/trades.model';
import { tradesRepo } from '../trades/trades.repo';
import { tradeSync as tradeSyncOf } from '../trade-sync/trade-sync';
import { historyRepo } from './history.repo';

/** How far before the last watermark a run reads again, for deals the broker reports late. */
export const SYNC_OVERLAP_MS = 60 * 60_000;
/** How far back the first run of an account reads. */
export const SYNC_INITIAL_LOOKBACK_MS = 90 * 86_400_000;
/** Background runs while an account is connected. */
export const SYNC_INTERVAL_MS = 3 * 60_000;
/** A position younger than this may belong to an execute call still in flight: not adopted yet. */
const IN_FLIGHT_MS = 30_000;
/** A quiet run (nothing new) still moves the watermark once this much broker time has passed. */
const WATERMARK_EVERY_MS = SYNC_OVERLAP_MS / 2;
/** Bursts of closes (a close, its fills) end in one run. */
const DEBOUNCE_MS = 1000;

const EPS = 1e-9;
const iso = (ms: number) => new Date(ms).toISOString();

interface Totals {
  new_deals: number;
  new_trades: number;
  updated_trades: number;
}

/** The app's one history sync: created with the history routes, stopped on shutdown. */
export const historySync: (ctx: AppContext) => HistorySync = perApp((ctx) => createHistorySync(ctx));

/**
 * Pulls each account's deal history from its broker and files it under our trades:
 * deals are matched to trades by position id (or, for an order that filled while we were away, by
 * order id); positions opened in the broker's own terminal become trades with source 'external';
 * a trade is closed once its volume is fully closed, with its P/L the sum of its deals' profit,
 * commission and swap and closed_at its last closing deal. The broker's deal id is unique per
 * account, so a run that sees the same deals again adds nothing. Trades are never deleted.
 *
 * Runs on every connect, after every close the broker reports and every few minutes while the
 * account is connected; runs of one account never overlap, and they run in the trade sync's order
 * so they never interleave with its event handling.
 */
function createHistorySync(ctx: AppContext) {
  const repo = historyRepo(ctx.db);
  const trades = tradesRepo(ctx.db);
  const brokers = brokerRegistry(ctx);
  const tradeSync = tradeSyncOf(ctx);
  const queues = new Map<string, Promise<unknown>>();
  const closeListeners = new Map<string, { adapter: BrokerAdapter; stop: () => void }>();
  const timers = new Map<string, { timer: NodeJS.Timeout; due: number }>();
  /** Accounts seen connecting, for the periodic runs. */
  const watched = new Map<string, TradingAccountsTable>();
  let closed = false;

  const clockOf = (account: TradingAccountsTable): number =>
    account.platform === 'SIM' ? brokers.sim.now() : Date.now();

  /** Runs one sync of the account after any run already queued for it. */
  function run(account: TradingAccountsTable): Promise<HistorySyncResult> {
    const prev = queues.get(account.id) ?? Promise.resolve();
    const next = prev.then(
      () => runOnce(account),
      () => runOnce(account),
    );
    const tail = next.catch(() => undefined);
    queues.set(account.id, tail);
    void tail.then(() => {
      if (queues.get(account.id) === tail) queues.delete(account.id);
    });
    return next;
  }

  /** A background run soon; errors are logged, never thrown. */
  function schedule(account: TradingAccountsTable, delayMs = DEBOUNCE_MS): void {
    if (closed || timers.has(account.id)) return;
    const timer = setTimeout(() => {
      timers.delete(account.id);
      if (closed) return;
      run(account).catch((err: unknown) =>
        ctx.log.warn({ err, account: account.id }, 'history sync failed; the next run retries'),
      );
    }, delayMs);
    timer.unref();
    timers.set(account.id, { timer, due: Date.now() + delayMs });
  }

  async function runOnce(account: TradingAccountsTable): Promise<HistorySyncResult> {
    if (closed) throw new Error('The server is shutting down.');
    const adapter = await tradeSync.attach(account);
    const state = await repo.syncState(account.id);
    const now = clockOf(account);
    const fromMs = state?.synced_to
      ? Date.parse(state.synced_to) - SYNC_OVERLAP_MS
      : now - SYNC_INITIAL_LOOKBACK_MS;
    try {
      const deals = adapter.capabilities.dealHistory
        ? await adapter.deals(iso(fromMs), iso(now + 60_000))
        : [];
      const totals = await tradeSync.serial(account.id, () => apply(account, adapter, deals, now));
      const changed = totals.new_deals + totals.new_trades + totals.updated_trades > 0;
      // A run that found nothing moves the watermark only now and then: the next run reads from an
      // hour before it anyway, and quiet runs then cost no write at all.
      const stale =
        !state?.synced_to ||
        state.last_error !== null ||
        now - Date.parse(state.synced_to) > WATERMARK_EVERY_MS;
      const syncedTo =
        adapter.capabilities.dealHistory && (changed || stale) ? iso(now) : (state?.synced_to ?? null);
      if (changed || stale || !state)
        await repo.saveSyncState({
          account_id: account.id,
          user_id: account.user_id,
          synced_to: syncedTo,
          last_run_at: nowIso(),
          last_error: null,
          updated_at: nowIso(),
        });
      if (totals.new_deals || totals.new_trades || totals.updated_trades)
        ctx.log.info({ account: account.id, ...totals }, 'history synced');
      return { ...totals, synced_to: syncedTo };
    } catch (err) {
      await repo
        .saveSyncState({
          account_id: account.id,
          user_id: account.user_id,
          synced_to: state?.synced_to ?? null,
          last_run_at: nowIso(),
          last_error: err instanceof Error ? err.message : String(err),
          updated_at: nowIso(),
        })
        .catch(() => undefined);
      throw err;
    }
  }

  async function apply(
    account: TradingAccountsTable,
    adapter: BrokerAdapter,
    deals: Deal[],
    now: number,
  ): Promise<Totals> {
    const totals: Totals = { new_deals: 0, new_trades: 0, updated_trades: 0 };
    const rec = await adapter.reconcile();
    const open = new Map(rec.positions.map((p) => [p.position_id, p]));

    // Positions at the broker that no trade claims yet are adopted by the trade sync's reconcile,
    // unless one is so young that its execute call may still be about to record it.
    let young = false;
    for (const p of rec.positions) {
      if (now - Date.parse(p.opened_at) >= IN_FLIGHT_MS) continue;
      if (await trades.byPositionId(account.id, p.position_id)) continue;
      if (p.client_order_id && (await trades.byClientOrderId(account.id, p.client_order_id))) continue;
      young = true;
    }
    const openIds = rec.positions.map((p) => p.position_id);
    const before = await repo.countByPositions(account.id, openIds);
    if (young) schedule(account, IN_FLIGHT_MS);
    else await tradeSync.reconcile(account, adapter, await trades.liveFor(account.user_id, account.id), rec);
    totals.new_trades += (await repo.countByPositions(account.id, openIds)) - before;

    const known = await repo.knownDealIds(
      account.id,
      deals.map((d) => d.deal_id),
    );
    const byPosition = new Map<string, Deal[]>();
    for (const d of deals) {
      if (!d.position_id) continue;
      const list = byPosition.get(d.position_id) ?? [];
      list.push(d);
      byPosition.set(d.position_id, list);
    }
    for (const [positionId, list] of byPosition) {
      if (list.every((d) => known.has(d.deal_id))) continue;
      let trade = await findTrade(account, positionId, list, open.get(positionId));
      if (!trade) {
        // Open positions are adopted by the reconcile above; a closed one is filed here once no
        // execute call can still be recording it.
        if (open.has(positionId)) continue;
        if (list.some((d) => now - Date.parse(d.time) < IN_FLIGHT_MS)) {
          schedule(account, IN_FLIGHT_MS);
          continue;
        }
        trade = await insertExternal(account, positionId, list);
        if (!trade) continue;
        totals.new_trades++;
      }
      for (const d of list) {
        if (known.has(d.deal_id)) continue;
        const res = await ctx.db
          .insertInto('trade_deals')
          .values(dealRow(trade, d))
          .onConflict((oc) => oc.columns(['account_id', 'broker_deal_id']).doNothing())
          .executeTakeFirst();
        totals.new_deals += Number(res.numInsertedOrUpdatedRows ?? 0n);
      }
      if (await settle(trade, positionId, open.has(positionId))) totals.updated_trades++;
    }
    return totals;
  }

  async function findTrade(
    account: TradingAccountsTable,
    positionId: string,
    deals: Deal[],
    position: Position | undefined,
  ): Promise<TradesTable | undefined> {
    const byPosition = await trades.byPositionId(account.id, positionId);
    if (byPosition) return byPosition;
    // An order of ours that filled while we were not listening: its opening deal names the order.
    for (const d of deals) {
      if (d.entry !== 'IN' || !d.order_id) continue;
      const t = await trades.byOrderId(account.id, d.order_id);
      if (t && t.position_id === null) return t;
    }
    if (position?.client_order_id) {
      const t = await trades.byClientOrderId(account.id, position.client_order_id);
      if (t && t.position_id === null) return t;
    }
    return undefined;
  }

  /** A position opened and closed outside the app (or closed before we saw it open) becomes a trade. */
  async function insertExternal(
    account: TradingAccountsTable,
    positionId: string,
    deals: Deal[],
  ): Promise<TradesTable | undefined> {
    const ins = deals.filter((d) => d.entry === 'IN');
    const outs = deals.filter((d) => d.entry === 'OUT');
    const first = ins[0] ?? deals[0]!;
    const inVolume = ins.reduce((s, d) => s + d.volume, 0);
    const outVolume = outs.reduce((s, d) => s + d.volume, 0);
    const entry = inVolume > 0 ? ins.reduce((s, d) => s + d.price * d.volume, 0) / inVolume : null;
    const side = ins[0]?.side ?? (outs[0]!.side === 'BUY' ? 'SELL' : 'BUY');
    const now = nowIso();
    const row = externalTrade(
      account,
      {
        client_order_id: `external:${positionId}`,
        order_id: first.order_id || null,
        position_id: positionId,
        symbol: first.symbol,
        direction: side,
        order_type: first.entry === 'IN' && first.reason === 'LIMIT' ? 'LIMIT' : 'MARKET',
        volume: inVolume > 0 ? inVolume : outVolume,
        remaining_volume: Math.max(0, Math.round((inVolume - outVolume) * 1e8) / 1e8),
        entry_price: entry,
        stop_loss: null,
        take_profit: null,
        sl_distance: null,
        rr_ratio: null,
        created_at: first.time,
        opened_at: ins[0]?.time ?? null,
      },
      now,
    );
    await ctx.db
      .insertInto('trades')
      .values(row)
      .onConflict((oc) => oc.columns(['account_id', 'client_order_id']).doNothing())
      .execute();
    return trades.byPositionId(account.id, positionId);
  }

  /**
   * Brings a trade in line with all its recorded deals: closed once the opened volume is fully
   * closed (or, when the opening deal is older than the history read, once the position is gone),
   * with P/L the sum of profit, commission and swap and closed_at the last closing deal.
   */
  async function settle(trade: TradesTable, positionId: string, isOpen: boolean): Promise<boolean> {
    const deals = await trades.dealsOf(trade.id);
    const ins = deals.filter((d) => d.entry === 'IN');
    const outs = deals.filter((d) => d.entry === 'OUT');
    const inVolume = ins.reduce((s, d) => s + d.filled_volume, 0);
    const outVolume = outs.reduce((s, d) => s + d.filled_volume, 0);
    const fullyClosed = outs.length > 0 && (inVolume > 0 ? outVolume >= inVolume - EPS && !isOpen : !isOpen);
    if (!fullyClosed) return false;
    const pl = deals.reduce(
      (s, d) => s + Number(d.profit_minor) + Number(d.commission_minor) + Number(d.swap_minor),
      0,
    );
    const closedAt = outs
      .map((d) => d.filled_at)
      .sort()
      .at(-1)!;
    const fill: Partial<TradesTable> = {};
    if (trade.position_id === null) fill.position_id = positionId;
    if (trade.entry_price === null && inVolume > 0) {
      fill.entry_price = ins.reduce((s, d) => s + d.filled_price * d.filled_volume, 0) / inVolume;
      fill.opened_at = ins[0]!.filled_at;
    }
    if (trade.status === 'open' || trade.status === 'pending') {
      if (Object.keys(fill).length) await trades.update(trade.id, fill);
      // The trade sync's own close: cancels pending targets, stops watching, refreshes caches.
      await tradeSync.finalizeClosed({ ...trade, ...fill }, closedAt);
      return true;
    }
    if (trade.status === 'closed' && Number(trade.actual_pl_minor) === pl && trade.closed_at === closedAt)
      return false;
    // A closed trade whose deals arrived late, or an order taken for cancelled that had filled.
    await trades.transition(trade.id, ['closed', 'cancelled'], {
      ...fill,
      status: 'closed',
      remaining_volume: 0,
      actual_pl_minor: pl,
      closed_at: closedAt,
      updated_at: nowIso(),
    });
    tradeSync.invalidate(trade.account_id);
    return true;
  }

  /** Every close the broker reports (ours, a stop or target hit, the terminal's) is followed by a run. */
  function followCloses(account: TradingAccountsTable, adapter: BrokerAdapter): void {
    const current = closeListeners.get(account.id);
    if (current?.adapter === adapter) return;
    current?.stop();
    const stop = adapter.onEvent((e) => {
      if (
        (e.type === 'position' && e.status === 'CLOSED') ||
        (e.type === 'execution' && e.deal.entry === 'OUT')
      )
        schedule(account);
    });
    closeListeners.set(account.id, { adapter, stop });
  }

  const stopConnected = brokers.onConnected((account) => {
    watched.set(account.id, account);
    schedule(account, 0);
    brokers
      .connected(account)
      .then((adapter) => followCloses(account, adapter))
      .catch(() => undefined);
  });
  const interval = setInterval(() => {
    for (const account of watched.values())
      if (brokers.state(account.id) === 'connected') schedule(account, 0);
  }, SYNC_INTERVAL_MS);
  interval.unref();

  ctx.onShutdown(async () => {
    closed = true;
    stopConnected();
    for (const l of closeListeners.values()) l.stop();
    closeListeners.clear();
    clearInterval(interval);
    for (const t of timers.values()) clearTimeout(t.timer);
    timers.clear();
    await Promise.all([...queues.values()]);
  });

  return {
    run,
    schedule,
    /** Resolves once the runs queued or due within a few seconds for the account have finished (tests). */
    async idle(accountId: string): Promise<void> {
      for (;;) {
        const queued = queues.get(accountId);
        const timer = timers.get(accountId);
        if (queued) await queued;
        else if (timer && timer.due - Date.now() <= 3 * DEBOUNCE_MS)
          await new Promise((r) => setTimeout(r, 20));
        else return;
      }
    },
  };
}

export type HistorySync = ReturnType<typeof createHistorySync>;
