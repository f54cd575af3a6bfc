import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db';
import type { SimDealsTable, SimOrdersTable, SimPositionsTable } from '../../db/schema';
import { newId } from '../../lib/ids';
import {
  BrokerError,
  allCapabilities,
  type AccountInfo,
  type BrokerAdapter,
  type BrokerEvent,
  type ConnectionState,
  type Deal,
  type DealReason,
  type PendingOrder,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  type Position,
  type PriceOrDistance,
  type Quote,
  type Side,
  type SymbolInfo,
} from '../types';
import type { SimMarket, SimSymbolSpec } from './market-types';
import { simStore, SimStateConflict, type SimChange } from './sim-store';

export interface SimAdapterOptions {
  db: Db;
  market: SimMarket;
  now: () => number;
  account: { id: string; user_id: string; currency: string; leverage: number };
  log?: FastifyBaseLogger;
}

/** Minor-unit decimals of the account currencies the simulator offers. */
export const currencyDecimals = (currency: string): number =>
  ['JPY', 'KRW', 'HUF'].includes(currency) ? 0 : 2;

const roundTo = (v: number, decimals: number) => Number(v.toFixed(decimals));
const iso = (ms: number) => new Date(ms).toISOString();
const opposite = (s: Side): Side => (s === 'BUY' ? 'SELL' : 'BUY');
/** An amended SL or TP: undefined keeps the current level, null removes it, a price is rounded. */
const amendedStop = (v: number | null | undefined, current: number | null, digits: number) =>
  v === undefined ? current : v === null ? null : roundTo(v, digits);

export function toSymbolInfo(s: SimSymbolSpec): SymbolInfo {
  return {
    symbol: s.symbol,
    description: s.description,
    digits: s.digits,
    pip_size: s.pip_size,
    tick_size: s.tick_size,
    contract_size: s.contract_size,
    base_currency: s.base_currency,
    quote_currency: s.quote_currency,
    volume_min: s.volume_min,
    volume_step: s.volume_step,
    volume_max: s.volume_max,
  };
}

/**
 * The simulated broker of one SIM account: a matching engine over the simulated market.
 * State lives in memory for the tick path and in the DB for restarts; every change is written
 * in one transaction first. Changes run one at a time (a per-account queue), so that a user's close
 * and a stop-loss trigger on the same tick can never both close one position.
 */
export function createSimAdapter(opts: SimAdapterOptions): BrokerAdapter {
  const { db, market, now, account, log } = opts;
  const store = simStore(db, account.id, account.user_id);
  const ccy = account.currency;
  const minorFactor = 10 ** currencyDecimals(ccy);
  const toMinor = (amount: number) => Math.round(amount * minorFactor);
  const fromMinor = (minor: number) => minor / minorFactor;

  let state: ConnectionState = 'disconnected';
  let loading: Promise<void> | undefined;
  let balanceMinor = 0;
  const positions = new Map<string, SimPositionsTable>();
  const orders = new Map<string, SimOrdersTable>();
  /** Positions and orders whose trigger is queued, so that later ticks do not queue it again. */
  const triggered = new Set<string>();
  const tickSubs = new Map<string, () => void>();
  const listeners = new Set<(e: BrokerEvent) => void>();

  let queue: Promise<unknown> = Promise.resolve();
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  }

  function emit(e: BrokerEvent): void {
    for (const l of listeners) {
      try {
        l(e);
      } catch (err) {
        log?.error({ err }, 'sim event listener failed');
      }
    }
  }

  function specOf(symbol: string): SimSymbolSpec {
    const s = market.spec(symbol);
    if (!s) throw new BrokerError(`Unknown symbol: ${symbol}.`, 'not_found');
    return s;
  }

  const toAccount = (amount: number, from: string, t: number) =>
    from === ccy || amount === 0 ? amount : market.convert(amount, from, ccy, t);

  function normaliseVolume(volume: number, s: SimSymbolSpec): number {
    if (!Number.isFinite(volume) || volume <= 0)
      throw new BrokerError('Volume must be a positive number.', 'rejected');
    const v = roundTo(Math.round(volume / s.volume_step) * s.volume_step, 8);
    if (v < s.volume_min - 1e-9 || v > s.volume_max + 1e-9) {
      throw new BrokerError(
        `Volume must be between ${s.volume_min} and ${s.volume_max} lots for ${s.symbol}.`,
        'rejected',
      );
    }
    return v;
  }

  /** P/L of `volume` lots from entry to exit, in the account currency at instant t. */
  function profitOf(
    s: SimSymbolSpec,
    side: Side,
    volume: number,
    entry: number,
    exit: number,
    t: number,
  ): number {
    const inQuote = (exit - entry) * (side === 'BUY' ? 1 : -1) * volume * s.contract_size;
    return toAccount(inQuote, s.quote_currency, t);
  }

  /**
   * Margin in the account currency: notional (in the quote currency) over the leverage that applies
   * to the symbol, the account's unless the broker caps the instrument lower (crypto, indices, gold).
   */
  const marginOf = (s: SimSymbolSpec, volume: number, price: number, t: number) =>
    toAccount(
      (volume * s.contract_size * price) / Math.min(account.leverage, s.max_leverage),
      s.quote_currency,
      t,
    );

  /** Commission per side, as a negative amount in minor units of the account currency. */
  const commissionMinor = (s: SimSymbolSpec, volume: number, t: number) =>
    -toMinor(toAccount(s.commission_per_lot * volume, 'USD', t));

  /** The price a position would close at now: buys close at the bid, sells at the ask. */
  const closePrice = (side: Side, q: Quote) => (side === 'BUY' ? q.bid : q.ask);

  function unrealised(p: SimPositionsTable, t: number): number {
    const s = specOf(p.symbol);
    return profitOf(s, p.side, p.volume, p.entry_price, closePrice(p.side, market.quoteAt(p.symbol, t)), t);
  }

  function infoAt(t: number): AccountInfo {
    let floating = 0;
    let margin = 0;
    for (const p of positions.values()) {
      floating += unrealised(p, t);
      margin += marginOf(specOf(p.symbol), p.volume, p.entry_price, t);
    }
    const balance = fromMinor(balanceMinor);
    const equity = roundTo(balance + floating, 8);
    const marginRounded = fromMinor(toMinor(margin));
    return {
      balance,
      equity: fromMinor(toMinor(equity)),
      margin: marginRounded,
      free_margin: fromMinor(toMinor(equity - margin)),
      currency: ccy,
      leverage: account.leverage,
    };
  }

  function toPosition(p: SimPositionsTable, t: number): Position {
    return {
      position_id: p.id,
      symbol: p.symbol,
      side: p.side,
      volume: p.volume,
      entry_price: p.entry_price,
      stop_loss: p.stop_loss,
      take_profit: p.take_profit,
      profit: fromMinor(toMinor(unrealised(p, t))),
      swap: fromMinor(p.swap_minor),
      commission: fromMinor(p.commission_minor),
      opened_at: p.opened_at,
      ...(p.client_order_id ? { client_order_id: p.client_order_id } : {}),
    };
  }

  const toOrder = (o: SimOrdersTable): PendingOrder => ({
    order_id: o.id,
    symbol: o.symbol,
    side: o.side,
    kind: o.kind,
    volume: o.volume,
    limit_price: o.limit_price ?? 0,
    stop_loss: o.stop_loss,
    take_profit: o.take_profit,
    created_at: o.created_at,
    client_order_id: o.client_order_id,
  });

  const toDeal = (d: SimDealsTable): Deal => ({
    deal_id: d.id,
    order_id: d.order_id,
    position_id: d.position_id,
    symbol: d.symbol,
    side: d.side,
    entry: d.entry,
    volume: d.volume,
    price: d.price,
    profit: fromMinor(d.profit_minor),
    commission: fromMinor(d.commission_minor),
    swap: fromMinor(d.swap_minor),
    reason: d.reason as DealReason,
    time: d.time,
  });

  const resultOf = (o: SimOrdersTable): PlaceOrderResult => ({
    client_order_id: o.client_order_id,
    order_id: o.id,
    status: o.status === 'FILLED' ? 'FILLED' : 'PENDING',
    ...(o.position_id ? { position_id: o.position_id } : {}),
    ...(o.fill_price !== null ? { fill_price: o.fill_price } : {}),
    ...(o.filled_at ? { filled_at: o.filled_at } : {}),
  });

  /** A stop or target as a price: distances count from `from` (the fill, or the limit price). */
  function stopPrice(
    v: PriceOrDistance | undefined,
    which: 'sl' | 'tp',
    side: Side,
    from: number,
    digits: number,
  ): number | null {
    if (!v) return null;
    if ('price' in v) return roundTo(v.price, digits);
    const away = (which === 'sl') === (side === 'BUY') ? -1 : 1;
    return roundTo(from + away * v.distance, digits);
  }

  /** Stops must sit on the losing side (SL) and winning side (TP) of `ref`, or they would fire at once. */
  function checkStops(side: Side, ref: number, sl: number | null, tp: number | null): void {
    const below = (x: number) => x < ref;
    if (sl !== null && (sl <= 0 || (side === 'BUY' ? !below(sl) : below(sl) || sl === ref))) {
      throw new BrokerError(
        `Invalid stop loss ${sl}: a ${side === 'BUY' ? 'buy' : 'sell'} stop must be ${side === 'BUY' ? 'below' : 'above'} ${ref}.`,
        'rejected',
      );
    }
    if (tp !== null && (tp <= 0 || (side === 'BUY' ? below(tp) || tp === ref : !below(tp)))) {
      throw new BrokerError(
        `Invalid take profit ${tp}: a ${side === 'BUY' ? 'buy' : 'sell'} target must be ${side === 'BUY' ? 'above' : 'below'} ${ref}.`,
        'rejected',
      );
    }
  }

  function requireMargin(s: SimSymbolSpec, volume: number, price: number, t: number): void {
    const needed = marginOf(s, volume, price, t) - fromMinor(commissionMinor(s, volume, t));
    const free = infoAt(t).free_margin;
    if (needed > free) {
      throw new BrokerError(
        `Not enough free margin: ${fromMinor(toMinor(needed)).toFixed(currencyDecimals(ccy))} ${ccy} required, ` +
          `${free.toFixed(currencyDecimals(ccy))} ${ccy} available.`,
        'rejected',
      );
    }
  }

  /**
   * Persists a change, then adopts the stored balance. When another server process changed the same
   * position or order first, the state is reloaded from the DB and the caller is told it is gone.
   */
  async function write(change: SimChange, what: string): Promise<void> {
    try {
      const after = await store.apply(change);
      if (after !== undefined) balanceMinor = after;
    } catch (e) {
      if (!(e instanceof SimStateConflict) && !/unique|duplicate key/i.test(String((e as Error)?.message)))
        throw e;
      await load();
      throw new BrokerError(
        `${what} was changed by another request; it is no longer in that state.`,
        'not_found',
      );
    }
  }

  async function load(): Promise<void> {
    const acc = await store.account();
    if (!acc) throw new BrokerError('The simulated account has no ledger.', 'not_found');
    balanceMinor = Number(acc.balance_minor);
    positions.clear();
    orders.clear();
    for (const p of await store.positions()) positions.set(p.id, p);
    for (const o of await store.pendingOrders()) orders.set(o.id, o);
    state = 'connected';
    syncSubscriptions();
    // Catch up at once: a stop may have been crossed while the server was down.
    for (const symbol of tickSubs.keys()) {
      if (market.isOpen(symbol, now())) onTick(market.quoteAt(symbol, now()));
    }
  }

  function ensureLoaded(): Promise<void> {
    if (!loading) {
      state = 'connecting';
      loading = load().catch((e: unknown) => {
        state = 'error';
        loading = undefined;
        throw e;
      });
    }
    return loading;
  }

  /** The checker watches exactly the symbols with open positions or pending orders. */
  function syncSubscriptions(): void {
    if (state !== 'connected') return;
    const needed = new Set<string>();
    for (const p of positions.values()) needed.add(p.symbol);
    for (const o of orders.values()) needed.add(o.symbol);
    for (const [symbol, unsubscribe] of tickSubs) {
      if (!needed.has(symbol)) {
        unsubscribe();
        tickSubs.delete(symbol);
      }
    }
    for (const symbol of needed) {
      if (!tickSubs.has(symbol)) tickSubs.set(symbol, market.subscribe(symbol, onTick));
    }
  }

  /** Another process that closed or filled first is not an error: the state was reloaded. */
  function triggerFailed(err: unknown, id: string): void {
    if (err instanceof BrokerError && err.kind === 'not_found')
      log?.debug({ id }, 'sim trigger already handled');
    else log?.error({ err, id }, 'sim trigger failed');
  }

  function onTick(q: Quote): void {
    if (listeners.size > 0) emit({ type: 'quote', quote: q });
    for (const p of positions.values()) {
      if (p.symbol !== q.symbol || triggered.has(p.id)) continue;
      const px = closePrice(p.side, q);
      let reason: DealReason | undefined;
      if (p.side === 'BUY') {
        if (p.stop_loss !== null && px <= p.stop_loss) reason = 'STOP_LOSS';
        else if (p.take_profit !== null && px >= p.take_profit) reason = 'TAKE_PROFIT';
      } else {
        if (p.stop_loss !== null && px >= p.stop_loss) reason = 'STOP_LOSS';
        else if (p.take_profit !== null && px <= p.take_profit) reason = 'TAKE_PROFIT';
      }
      if (!reason) continue;
      const r = reason;
      triggered.add(p.id);
      void serial(async () => {
        const live = positions.get(p.id);
        if (live) await closeVolume(live, live.volume, px, q.time, r);
      })
        .catch((err: unknown) => triggerFailed(err, p.id))
        .finally(() => triggered.delete(p.id));
    }
    for (const o of orders.values()) {
      if (o.symbol !== q.symbol || triggered.has(o.id) || o.limit_price === null) continue;
      const crossed = o.side === 'BUY' ? q.ask <= o.limit_price : q.bid >= o.limit_price;
      if (!crossed) continue;
      triggered.add(o.id);
      void serial(async () => {
        const live = orders.get(o.id);
        if (live) await fillPending(live, q);
      })
        .catch((err: unknown) => triggerFailed(err, o.id))
        .finally(() => triggered.delete(o.id));
    }
  }

  /** Opens the position of an order at the quote: buys at the ask, sells at the bid. */
  async function fill(
    order: SimOrdersTable,
    q: Quote,
    t: number,
    isNew: boolean,
  ): Promise<{ order: SimOrdersTable; position: SimPositionsTable; deal: SimDealsTable }> {
    const s = specOf(order.symbol);
    const price = order.side === 'BUY' ? q.ask : q.bid;
    const time = iso(t);
    const sl =
      order.stop_loss ??
      (order.stop_loss_distance !== null
        ? stopPrice({ distance: order.stop_loss_distance }, 'sl', order.side, price, s.digits)
        : null);
    const tp =
      order.take_profit ??
      (order.take_profit_distance !== null
        ? stopPrice({ distance: order.take_profit_distance }, 'tp', order.side, price, s.digits)
        : null);
    const commission = commissionMinor(s, order.volume, t);
    const positionId = newId();
    const position: SimPositionsTable = {
      id: positionId,
      account_id: account.id,
      user_id: account.user_id,
      order_id: order.id,
      client_order_id: order.client_order_id,
      symbol: order.symbol,
      side: order.side,
      volume: order.volume,
      entry_price: price,
      stop_loss: sl,
      take_profit: tp,
      commission_minor: commission,
      swap_minor: 0,
      opened_at: time,
    };
    const deal: SimDealsTable = {
      id: newId(),
      account_id: account.id,
      user_id: account.user_id,
      order_id: order.id,
      position_id: positionId,
      symbol: order.symbol,
      side: order.side,
      entry: 'IN',
      volume: order.volume,
      price,
      profit_minor: 0,
      commission_minor: commission,
      swap_minor: 0,
      reason: order.kind === 'LIMIT' ? 'LIMIT' : 'MARKET',
      time,
    };
    const filled: SimOrdersTable = {
      ...order,
      status: 'FILLED',
      position_id: positionId,
      fill_price: price,
      filled_at: time,
      stop_loss: sl,
      take_profit: tp,
    };
    const change: SimChange = {
      insertPosition: position,
      insertDeal: deal,
      balance: { delta: commission, time },
    };
    if (isNew) change.insertOrder = filled;
    else
      change.updateOrder = {
        id: order.id,
        status: 'FILLED',
        position_id: positionId,
        fill_price: price,
        filled_at: time,
        stop_loss: sl,
        take_profit: tp,
      };
    await write(change, `Order ${order.id}`);
    orders.delete(order.id);
    positions.set(positionId, position);
    syncSubscriptions();
    emit({ type: 'execution', deal: toDeal(deal) });
    if (!isNew) emit({ type: 'order', order: toOrder(filled), status: 'FILLED' });
    emit({ type: 'position', position: toPosition(position, t), status: 'OPENED' });
    emit({ type: 'account', info: infoAt(t) });
    return { order: filled, position, deal };
  }

  async function fillPending(o: SimOrdersTable, q: Quote): Promise<void> {
    const s = specOf(o.symbol);
    try {
      requireMargin(s, o.volume, o.side === 'BUY' ? q.ask : q.bid, q.time);
    } catch (e) {
      // Like a real broker: a limit that can no longer be covered is cancelled, not left hanging.
      await cancelPending(o, q.time);
      log?.info({ order: o.id, reason: (e as Error).message }, 'sim limit order cancelled at fill');
      return;
    }
    await fill(o, q, q.time, false);
  }

  async function cancelPending(o: SimOrdersTable, t: number): Promise<void> {
    await write({ updateOrder: { id: o.id, status: 'CANCELLED' } }, `Order ${o.id}`);
    orders.delete(o.id);
    syncSubscriptions();
    emit({ type: 'order', order: toOrder(o), status: 'CANCELLED' });
    emit({ type: 'account', info: infoAt(t) });
  }

  async function closeVolume(
    p: SimPositionsTable,
    volume: number,
    price: number,
    t: number,
    reason: DealReason,
  ): Promise<Deal> {
    const s = specOf(p.symbol);
    const full = volume >= p.volume - 1e-9;
    const closed = full ? p.volume : volume;
    const profit = toMinor(profitOf(s, p.side, closed, p.entry_price, price, t));
    const commission = commissionMinor(s, closed, t);
    const time = iso(t);
    const deal: SimDealsTable = {
      id: newId(),
      account_id: account.id,
      user_id: account.user_id,
      order_id: newId(),
      position_id: p.id,
      symbol: p.symbol,
      // The closing deal trades the other way, as on MT5 and cTrader.
      side: opposite(p.side),
      entry: 'OUT',
      volume: closed,
      price,
      profit_minor: profit,
      commission_minor: commission,
      swap_minor: 0,
      reason: !full && (reason === 'CLOSE' || reason === 'PARTIAL_CLOSE') ? 'PARTIAL_CLOSE' : reason,
      time,
    };
    const delta = profit + commission;
    const remaining = roundTo(p.volume - closed, 8);
    const updated: SimPositionsTable = {
      ...p,
      volume: remaining,
      commission_minor: p.commission_minor + commission,
    };
    await write(
      {
        insertDeal: deal,
        balance: { delta, time },
        ...(full
          ? { deletePosition: { id: p.id, expectVolume: p.volume } }
          : {
              updatePosition: {
                id: p.id,
                expectVolume: p.volume,
                volume: remaining,
                commission_minor: updated.commission_minor,
              },
            }),
      },
      `Position ${p.id}`,
    );
    if (full) positions.delete(p.id);
    else positions.set(p.id, updated);
    syncSubscriptions();
    const out = toDeal(deal);
    emit({ type: 'execution', deal: out });
    emit({
      type: 'position',
      position: toPosition(full ? p : updated, t),
      status: full ? 'CLOSED' : 'UPDATED',
    });
    emit({ type: 'account', info: infoAt(t) });
    return out;
  }

  function positionOr404(id: string): SimPositionsTable {
    const p = positions.get(id);
    if (!p) throw new BrokerError(`Position ${id} is not open.`, 'not_found');
    return p;
  }

  function requireOpen(symbol: string, t: number): void {
    if (!market.isOpen(symbol, t)) throw new BrokerError(`The market for ${symbol} is closed.`, 'rejected');
  }

  async function placeOnce(req: PlaceOrderRequest): Promise<PlaceOrderResult> {
    await ensureLoaded();
    const existing = await store.orderByClientId(req.client_order_id);
    if (existing) return resultOf(existing);
    const s = specOf(req.symbol);
    const volume = normaliseVolume(req.volume, s);
    const t = now();
    const base: SimOrdersTable = {
      id: newId(),
      account_id: account.id,
      user_id: account.user_id,
      client_order_id: req.client_order_id,
      symbol: s.symbol,
      side: req.side,
      kind: req.kind,
      volume,
      limit_price: null,
      stop_loss: null,
      take_profit: null,
      stop_loss_distance: null,
      take_profit_distance: null,
      comment: req.comment ?? '',
      status: 'PENDING',
      position_id: null,
      fill_price: null,
      filled_at: null,
      created_at: iso(t),
    };
    if (req.kind === 'MARKET') {
      requireOpen(s.symbol, t);
      const q = market.quoteAt(s.symbol, t);
      const price = req.side === 'BUY' ? q.ask : q.bid;
      const sl = stopPrice(req.stop_loss, 'sl', req.side, price, s.digits);
      const tp = stopPrice(req.take_profit, 'tp', req.side, price, s.digits);
      checkStops(req.side, closePrice(req.side, q), sl, tp);
      requireMargin(s, volume, price, t);
      const { order } = await fill({ ...base, stop_loss: sl, take_profit: tp }, q, t, true);
      return resultOf(order);
    }
    if (req.limit_price === undefined || !(req.limit_price > 0)) {
      throw new BrokerError('A limit order needs a positive limit price.', 'rejected');
    }
    const limit = roundTo(req.limit_price, s.digits);
    const slPrice = req.stop_loss && 'price' in req.stop_loss ? roundTo(req.stop_loss.price, s.digits) : null;
    const tpPrice =
      req.take_profit && 'price' in req.take_profit ? roundTo(req.take_profit.price, s.digits) : null;
    checkStops(
      req.side,
      limit,
      slPrice ?? stopPrice(req.stop_loss, 'sl', req.side, limit, s.digits),
      tpPrice ?? stopPrice(req.take_profit, 'tp', req.side, limit, s.digits),
    );
    requireMargin(s, volume, limit, t);
    const order: SimOrdersTable = {
      ...base,
      limit_price: limit,
      stop_loss: slPrice,
      take_profit: tpPrice,
      stop_loss_distance: req.stop_loss && 'distance' in req.stop_loss ? req.stop_loss.distance : null,
      take_profit_distance:
        req.take_profit && 'distance' in req.take_profit ? req.take_profit.distance : null,
    };
    await write({ insertOrder: order }, `Order ${order.client_order_id}`);
    orders.set(order.id, order);
    syncSubscriptions();
    emit({ type: 'order', order: toOrder(order), status: 'PLACED' });
    // A limit that is already marketable fills on the current price, at that price or better.
    if (market.isOpen(s.symbol, t)) onTick(market.quoteAt(s.symbol, t));
    return resultOf(order);
  }

  return {
    platform: 'SIM',
    capabilities: allCapabilities(),
    async connect() {
      await ensureLoaded();
      emit({ type: 'connection', state: 'connected' });
    },
    async disconnect() {
      for (const unsubscribe of tickSubs.values()) unsubscribe();
      tickSubs.clear();
      state = 'disconnected';
      loading = undefined;
      // Let queued fills and closes finish writing before the DB goes away.
      await serial(async () => undefined);
      emit({ type: 'connection', state: 'disconnected' });
    },
    connectionState: () => state,

    async accountInfo() {
      await ensureLoaded();
      return infoAt(now());
    },
    async symbols() {
      return market.specs().map(toSymbolInfo);
    },
    async symbolInfo(symbol) {
      return toSymbolInfo(specOf(symbol));
    },
    async quote(symbol) {
      specOf(symbol);
      return market.quoteAt(symbol, now());
    },
    subscribeQuotes(symbol, onQuote) {
      specOf(symbol);
      // A new watcher sees the current price at once, even while the market is closed and no tick comes.
      let active = true;
      queueMicrotask(() => {
        if (active) onQuote(market.quoteAt(symbol, now()));
      });
      const stop = market.subscribe(symbol, onQuote);
      return () => {
        active = false;
        stop();
      };
    },
    async candles(symbol, timeframe, fromMs, toMs) {
      specOf(symbol);
      return market.candles(symbol, timeframe, fromMs, toMs, now());
    },

    placeOrder(req: PlaceOrderRequest) {
      return serial(() =>
        placeOnce(req).catch(async (e: unknown) => {
          // Another process may have placed the same client order id a moment earlier: its result stands.
          const existing =
            e instanceof BrokerError ? await store.orderByClientId(req.client_order_id) : undefined;
          if (existing) return resultOf(existing);
          throw e;
        }),
      );
    },

    amendPosition(positionId, stops) {
      return serial(async () => {
        await ensureLoaded();
        const p = positionOr404(positionId);
        const s = specOf(p.symbol);
        const sl = amendedStop(stops.stop_loss, p.stop_loss, s.digits);
        const tp = amendedStop(stops.take_profit, p.take_profit, s.digits);
        const t = now();
        checkStops(p.side, closePrice(p.side, market.quoteAt(p.symbol, t)), sl, tp);
        await write({ updatePosition: { id: p.id, stop_loss: sl, take_profit: tp } }, `Position ${p.id}`);
        const updated = { ...p, stop_loss: sl, take_profit: tp };
        positions.set(p.id, updated);
        const out = toPosition(updated, t);
        emit({ type: 'position', position: out, status: 'UPDATED' });
        return out;
      });
    },

    closePosition(positionId, volume) {
      return serial(async () => {
        await ensureLoaded();
        const p = positionOr404(positionId);
        const s = specOf(p.symbol);
        const t = now();
        requireOpen(p.symbol, t);
        let closing = p.volume;
        if (volume !== undefined) {
          closing = normaliseVolume(volume, { ...s, volume_max: Number.MAX_VALUE });
          if (closing > p.volume + 1e-9) {
            throw new BrokerError(
              `Cannot close ${closing} lots: the position holds ${p.volume}.`,
              'rejected',
            );
          }
        }
        const full = closing >= p.volume - 1e-9;
        return closeVolume(
          p,
          closing,
          closePrice(p.side, market.quoteAt(p.symbol, t)),
          t,
          full ? 'CLOSE' : 'PARTIAL_CLOSE',
        );
      });
    },

    cancelOrder(orderId) {
      return serial(async () => {
        await ensureLoaded();
        const o = orders.get(orderId);
        if (!o) throw new BrokerError(`Order ${orderId} is not pending.`, 'not_found');
        await cancelPending(o, now());
      });
    },

    async reconcile() {
      await ensureLoaded();
      const t = now();
      return {
        positions: [...positions.values()].map((p) => toPosition(p, t)),
        orders: [...orders.values()].map(toOrder),
      };
    },

    async deals(fromIso, toIso) {
      const rows = await store.deals(new Date(fromIso).toISOString(), new Date(toIso).toISOString());
      return rows.map(toDeal);
    },

    onEvent(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
