import { createHash } from 'node:crypto';
import {
  calculateLotSize,
  DEFAULT_TARGETS,
  evaluateRiskRules,
  floorVolume,
  priceToPips,
  profitLoss,
  rateTable,
  resolveTakeProfit,
  resolveTargets,
  roundToDigits,
  roundToStep,
  findConversionRate,
  stopSideErrors,
  TradeValidationError,
  type ClosedTradeToday,
  type OpenPositionRisk,
  type ResolvedTarget,
  type RiskSettings as DomainRiskSettings,
  type TargetSpec,
  type TakeProfitMode,
} from '@tradedesk/domain';
import {
  LOT_SIZE_TOLERANCE,
  RISK_SETTINGS_DEFAULTS,
  TRADE_MESSAGES,
  type OpenPositionsResponse,
  type TradeActionResponse,
  type TradeExecuteRequest,
  type TradeExecuteResponse,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import { brokerErrorToHttp, brokerRegistry } from '../../brokers/registry';
import {
  BrokerError,
  type AccountInfo,
  type BrokerAdapter,
  type Deal,
  type PriceOrDistance,
  type Quote,
  type SymbolInfo,
} from '../../brokers/types';
import type { TradingAccountsTable, TradesTable } from '../../db/schema';
import { badRequest, HttpError, notFound, unprocessable } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import { accountsRepo } from '../accounts/accounts.repo';
import type { AuthUser } from '../auth/tokens';
import { riskRepo } from '../risk/risk.repo';
import { atrOf, parseTimeframe, resolveSymbol } from './indicator';
import {
  closePriceOf,
  dealRow,
  minor,
  money,
  openRisk,
  parseTargets,
  toOpenPosition,
  type ManagedTarget,
} from './trades.model';
import { tradesRepo } from './trades.repo';
import { createTradeSync, type FillInfo } from './trades.sync';
import { createGroupWriter } from './trades.writer';

type Body = TradeExecuteRequest;

/**
 * The open-positions answer is reused for this long per account unless a trade of the account
 * changes: the simulator ticks every 250 ms, so a poll never sees a P/L older than one tick.
 */
const POSITIONS_CACHE_MS = 250;

const num = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  return null;
};

const toHttp = (e: unknown): unknown => {
  if (e instanceof TradeValidationError) return unprocessable(e.message);
  return brokerErrorToHttp(e);
};

async function broker<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toHttp(e);
  }
}

/** One trades service per app: it owns the broker sync and the positions cache. */
export const tradesService = perApp(build);

function build(ctx: AppContext) {
  const repo = tradesRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);
  const risk = riskRepo(ctx.db);
  const brokers = brokerRegistry(ctx);
  const sync = createTradeSync(ctx, { onFilled });
  const positionsCache = new Map<string, { at: number; body: string }>();
  const writer = createGroupWriter(ctx.db);
  sync.onInvalidate((accountId) => positionsCache.delete(accountId));
  ctx.onShutdown(() => sync.close());

  /** The broker's clock for an account: the simulator's (tests drive it), else the real one. */
  const clockOf = (account: TradingAccountsTable): number =>
    account.platform === 'SIM' ? brokers.sim.now() : Date.now();

  const ownedAccount = (user: AuthUser, id: string): Promise<TradingAccountsTable> =>
    accounts.ownedOr404(user.id, id);

  async function ownedTrade(
    user: AuthUser,
    id: string,
  ): Promise<{ trade: TradesTable; account: TradingAccountsTable }> {
    const trade = await repo.byIdFor(user.id, id);
    if (!trade) throw notFound('Trade not found.');
    const account = await ownedAccount(user, trade.account_id);
    return { trade, account };
  }

  /** Value in the account currency of one unit of the symbol's quote currency. */
  async function quoteToAccount(
    account: TradingAccountsTable,
    adapter: BrokerAdapter,
    symbol: SymbolInfo,
    accountCurrency: string,
    quote: Quote,
  ): Promise<number> {
    const q = symbol.quote_currency.toUpperCase();
    const a = accountCurrency.toUpperCase();
    if (q === a) return 1;
    if (account.platform === 'SIM') return brokers.sim.market.convert(1, q, a, clockOf(account));
    const mids: Record<string, number> = {
      [`${symbol.base_currency}${symbol.quote_currency}`.toUpperCase()]: (quote.bid + quote.ask) / 2,
    };
    for (const pair of [`${q}${a}`, `${a}${q}`, `${q}USD`, `USD${q}`, `${a}USD`, `USD${a}`]) {
      if (mids[pair] !== undefined || pair.slice(0, 3) === pair.slice(3)) continue;
      try {
        const pq = await adapter.quote(pair);
        mids[pair] = (pq.bid + pq.ask) / 2;
      } catch {
        // not offered by this broker: another route may exist
      }
    }
    const rate = findConversionRate(q, a, rateTable(mids));
    if (rate === undefined)
      throw unprocessable(`No exchange rate is available to convert ${q} into the account currency ${a}.`);
    return rate;
  }

  async function settingsOf(user: AuthUser, accountId: string): Promise<DomainRiskSettings> {
    const row = await risk.settings(user.id, accountId);
    if (!row) return { ...RISK_SETTINGS_DEFAULTS };
    return { ...row, enforce_cooldowns: row.enforce_cooldowns === 1 };
  }

  function targetsFrom(body: Body): TargetSpec[] | null {
    const multi = body.partial_profit === true || (body.targets?.length ?? 0) > 0;
    if (!multi) return null;
    const list = body.targets?.length ? body.targets : DEFAULT_TARGETS;
    return list.map((t) => ({
      rank: t.rank,
      share: t.share,
      tp_type: t.tp_type,
      rr: t.rr ?? null,
      atr_multiplier: t.atr_multiplier ?? null,
      price: t.price ?? null,
    }));
  }

  function managed(resolved: ResolvedTarget[], specs: TargetSpec[]): ManagedTarget[] {
    const withVolume = resolved.filter((t) => t.volume > 0);
    const last = withVolume[withVolume.length - 1];
    return resolved.map((t) => {
      const spec = specs.find((s) => s.rank === t.rank);
      return {
        rank: t.rank,
        share: t.share,
        tp_type: t.tp_type,
        rr: spec?.rr ?? null,
        atr_multiplier: spec?.atr_multiplier ?? null,
        price: t.price,
        r_multiple: t.r_multiple,
        distance: t.distance,
        volume: t.volume,
        managed_by: t === last ? 'broker' : 'server',
        status: t.volume > 0 ? 'pending' : 'skipped',
        closed_at: null,
        close_price: null,
        closed_volume: null,
      };
    });
  }

  /**
   * Completes a trade whose order filled: stops and targets are re-resolved from the real fill
   * price, one R (stop distance and money) and projections are stored. Runs once per trade.
   */
  async function onFilled(trade: TradesTable, fill: FillInfo, adapter: BrokerAdapter): Promise<void> {
    if (trade.status !== 'pending') return;
    const account = await accounts.byIdFor(trade.user_id, trade.account_id);
    if (!account) return;
    const symbol = await adapter.symbolInfo(trade.symbol);
    const rate = await quoteToAccount(
      account,
      adapter,
      symbol,
      trade.currency,
      await adapter.quote(trade.symbol),
    );
    const updated = filledFields(trade, fill, symbol, rate);
    if (!(await repo.transition(trade.id, ['pending'], updated))) return;
    const opened: TradesTable = { ...trade, ...updated };
    await sync.claimStash(trade.account_id, opened);
    sync.invalidate(trade.account_id);
    sync.watch(trade.account_id, opened);
  }

  /** The fields of a trade once its order filled at `fill.price`. */
  function filledFields(
    trade: TradesTable,
    fill: FillInfo,
    symbol: SymbolInfo,
    rate: number,
  ): Partial<TradesTable> {
    const entry = fill.price;
    const volume = fill.volume ?? trade.volume;
    const distance = trade.sl_distance;
    const stopLoss =
      fill.stop_loss !== undefined
        ? fill.stop_loss
        : distance
          ? roundToDigits(entry + (trade.direction === 'BUY' ? -distance : distance), symbol.digits)
          : trade.stop_loss;
    const pnl = (exit: number, lots: number) =>
      profitLoss({
        side: trade.direction,
        entry,
        exit,
        volume: lots,
        contract_size: symbol.contract_size,
        quoteToAccountRate: rate,
        accountCurrency: trade.currency,
      });
    const stored = parseTargets(trade);
    let targets: ManagedTarget[] | null = null;
    let takeProfit = fill.take_profit !== undefined ? fill.take_profit : trade.take_profit;
    let projectedProfit: number | null = takeProfit !== null ? pnl(takeProfit, volume) : null;
    if (stored.length > 0 && distance) {
      // RR and ATR targets move with the fill; PRICE targets stay where they were put.
      targets = stored.map((t) => {
        if (t.tp_type === 'PRICE' || t.status !== 'pending') return t;
        const away = t.tp_type === 'RR' ? (t.rr ?? t.r_multiple) * distance : t.distance;
        const price = roundToDigits(entry + (trade.direction === 'BUY' ? away : -away), symbol.digits);
        return { ...t, price, r_multiple: roundToDigits(Math.abs(price - entry) / distance, 2) };
      });
      const last = targets.find((t) => t.managed_by === 'broker');
      if (last && (takeProfit === null || fill.take_profit === undefined)) takeProfit = last.price;
      projectedProfit = targets.reduce((s, t) => s + (t.volume > 0 ? pnl(t.price, t.volume) : 0), 0);
    }
    const loss = stopLoss !== null ? -pnl(stopLoss, volume) : null;
    return {
      status: 'open',
      position_id: fill.position_id,
      ...(fill.order_id ? { order_id: fill.order_id } : {}),
      entry_price: entry,
      volume,
      remaining_volume: volume,
      stop_loss: stopLoss,
      take_profit: takeProfit,
      sl_distance: stopLoss !== null ? Math.abs(entry - stopLoss) : distance,
      initial_risk_minor: loss !== null ? minor(Math.max(0, loss), trade.currency) : null,
      projected_loss_minor: loss !== null ? minor(Math.max(0, loss), trade.currency) : null,
      projected_profit_minor: projectedProfit !== null ? minor(projectedProfit, trade.currency) : null,
      rr_ratio:
        stopLoss !== null && takeProfit !== null && stopLoss !== entry && targets === null
          ? roundToDigits(Math.abs(takeProfit - entry) / Math.abs(entry - stopLoss), 2)
          : trade.rr_ratio,
      targets: targets ? JSON.stringify(targets) : trade.targets,
      opened_at: fill.time,
      updated_at: nowIso(),
    };
  }

  /** The risk rules that need them: open positions and today's closed trades, read only when a rule is on. */
  async function riskContext(
    user: AuthUser,
    account: TradingAccountsTable,
    settings: DomainRiskSettings,
    info: AccountInfo,
    nowMs: number,
  ) {
    const on = (v: number | null | undefined) => typeof v === 'number' && v > 0;
    const needOpen =
      on(settings.max_open_positions) ||
      on(settings.max_open_trades_same_symbol) ||
      on(settings.max_daily_loss);
    const needClosed =
      on(settings.max_daily_loss) ||
      ((settings.enforce_cooldowns === true || settings.enforce_cooldowns === 1) &&
        on(settings.consecutive_loss_limit));
    const open: OpenPositionRisk[] = needOpen
      ? (await repo.liveFor(user.id, account.id)).map((t) => ({ symbol: t.symbol, open_risk: openRisk(t) }))
      : [];
    const dayStart = new Date(nowMs);
    dayStart.setUTCHours(0, 0, 0, 0);
    const closedToday: ClosedTradeToday[] = needClosed
      ? (await repo.closedSince(user.id, account.id, dayStart.toISOString())).map((t) => ({
          profit_loss: money(t.actual_pl_minor, info.currency) ?? 0,
          closed_at: t.closed_at!,
        }))
      : [];
    return {
      currency: info.currency,
      equity: info.equity,
      balance: info.balance,
      open_positions: open,
      closed_today: closedToday,
      now: nowMs,
    };
  }

  async function execute(
    user: AuthUser,
    body: Body,
    clientOrderId: string,
    idempotencyKey: string | undefined,
  ): Promise<TradeExecuteResponse> {
    const account = await ownedAccount(user, body.account_id);
    const adapter = await sync.attach(account);
    const orderType = body.order_type ?? 'MARKET';
    const [symbol, info] = await broker(() =>
      Promise.all([resolveSymbol(adapter, body.symbol), adapter.accountInfo()]),
    );
    const quote = await broker(() => adapter.quote(symbol.symbol));
    let reference: number;
    if (orderType === 'LIMIT') {
      const lp = body.limit_price;
      if (typeof lp !== 'number' || !(lp > 0))
        throw badRequest({ limit_price: ['A limit order needs a positive limit_price.'] });
      reference = roundToDigits(lp, symbol.digits);
    } else {
      reference = body.direction === 'BUY' ? quote.ask : quote.bid;
    }
    const rate = await broker(() => quoteToAccount(account, adapter, symbol, info.currency, quote));
    const settings = await settingsOf(user, account.id);

    // The server's own size for this risk; the client's must agree within rounding and drift.
    let expected;
    try {
      expected = calculateLotSize({
        equity: info.equity,
        riskPercent: body.risk_percent,
        slDistance: body.stop_loss_distance,
        contractSize: symbol.contract_size,
        quoteToAccountRate: rate,
        limits: symbol,
        maxLotSize: null,
        accountCurrency: info.currency,
      });
    } catch (e) {
      throw badRequest(e instanceof Error ? e.message : String(e));
    }
    if (expected.volume <= 0)
      throw unprocessable(expected.reason ?? 'No volume can be traded for this risk.');
    const tolerance = Math.max(symbol.volume_step, expected.volume * LOT_SIZE_TOLERANCE);
    if (Math.abs(body.lot_size - expected.volume) > tolerance + 1e-9) {
      const pips = priceToPips(body.stop_loss_distance, symbol.pip_size);
      throw unprocessable(
        `lot_size ${body.lot_size} does not match the risk: ${body.risk_percent}% of equity ${info.equity.toFixed(2)} ${info.currency} ` +
          `with the stop ${body.stop_loss_distance} away (${pips} pips) is ${expected.volume.toFixed(2)} lots on ${symbol.symbol} ` +
          `(allowed difference ${tolerance.toFixed(2)} lots). Recalculate the lot size and try again.`,
      );
    }
    const volume = floorVolume(roundToStep(body.lot_size, symbol.volume_step), symbol.volume_step);
    if (volume < symbol.volume_min - 1e-9)
      throw unprocessable(`The lot size must be at least ${symbol.volume_min} lots for ${symbol.symbol}.`);

    const sign = body.direction === 'BUY' ? -1 : 1;
    const slPrice = roundToDigits(reference + sign * body.stop_loss_distance, symbol.digits);
    if (!(slPrice > 0)) throw unprocessable(`The stop loss would be at ${slPrice}, at or below zero.`);
    const slDistance = Math.abs(reference - slPrice);
    const priceCtx = {
      side: body.direction,
      entry: reference,
      pip_size: symbol.pip_size,
      digits: symbol.digits,
    };

    // Take profit: a price, else a distance in price units, else an RR multiple of the stop.
    const specs = targetsFrom(body);
    let tp: PriceOrDistance | undefined;
    let tpPrice: number | null = null;
    let targets: ManagedTarget[] | null = null;
    try {
      if (specs) {
        const timeframe = parseTimeframe(body.timeframe) ?? 'M15';
        const atr = specs.some((t) => t.tp_type === 'ATR')
          ? await broker(() => atrOf(adapter, symbol.symbol, timeframe, clockOf(account)))
          : null;
        const resolved = resolveTargets({
          targets: specs,
          ctx: priceCtx,
          slDistance,
          atr,
          volume,
          volumeStep: Math.max(symbol.volume_step, 0.01),
        });
        targets = managed(resolved, specs);
        const last = targets.find((t) => t.managed_by === 'broker');
        if (last) {
          tpPrice = last.price;
          tp =
            last.tp_type === 'PRICE' ? { price: last.price } : { distance: Math.abs(last.price - reference) };
        }
      } else {
        let mode: TakeProfitMode | null = null;
        if (typeof body.take_profit === 'number' && body.take_profit > 0)
          mode = { mode: 'price', price: body.take_profit };
        else if (typeof body.take_profit_distance === 'number' && body.take_profit_distance > 0)
          mode = { mode: 'distance', pips: body.take_profit_distance / symbol.pip_size };
        else if (typeof body.rr_ratio === 'number' && body.rr_ratio > 0)
          mode = { mode: 'rr_ratio', rr: body.rr_ratio };
        if (mode) {
          const resolved = resolveTakeProfit(mode, priceCtx, slDistance);
          tpPrice = resolved.price;
          tp = mode.mode === 'price' ? { price: resolved.price } : { distance: resolved.distance };
        }
      }
    } catch (e) {
      throw toHttp(e);
    }

    const pnl = (exit: number, lots: number) =>
      profitLoss({
        side: body.direction,
        entry: reference,
        exit,
        volume: lots,
        contract_size: symbol.contract_size,
        quoteToAccountRate: rate,
        accountCurrency: info.currency,
      });
    const orderRisk = Math.max(0, -pnl(slPrice, volume));

    const nowMs = clockOf(account);
    const decision = evaluateRiskRules(settings, await riskContext(user, account, settings, info, nowMs), {
      symbol: symbol.symbol,
      volume,
      risk: orderRisk,
    });
    if (!decision.allowed) throw unprocessable(decision.detail);

    const now = nowIso();
    const trade: TradesTable = {
      id: newId(),
      user_id: user.id,
      account_id: account.id,
      source: 'app',
      client_order_id: clientOrderId,
      order_id: null,
      position_id: null,
      symbol: symbol.symbol,
      direction: body.direction,
      order_type: orderType,
      status: 'pending',
      volume,
      remaining_volume: volume,
      limit_price: orderType === 'LIMIT' ? reference : null,
      entry_price: null,
      stop_loss: slPrice,
      take_profit: tpPrice,
      sl_distance: slDistance,
      initial_risk_minor: minor(orderRisk, info.currency),
      risk_percent: body.risk_percent,
      rr_ratio:
        tpPrice !== null && targets === null
          ? roundToDigits(Math.abs(tpPrice - reference) / slDistance, 2)
          : (body.rr_ratio ?? null),
      projected_profit_minor: null,
      projected_loss_minor: minor(orderRisk, info.currency),
      atr_multiplier: body.atr_multiplier ?? null,
      reason: (body.reason ?? '').trim(),
      trader: (body.trader ?? '').trim(),
      timeframe: (body.timeframe ?? '').trim(),
      targets: targets ? JSON.stringify(targets) : null,
      currency: info.currency,
      created_at: now,
      opened_at: null,
      closed_at: null,
      actual_pl_minor: null,
      updated_at: now,
    };
    if (targets) {
      const rr = targets.reduce((s, t) => s + t.volume * t.r_multiple, 0) / volume;
      trade.rr_ratio = roundToDigits(rr, 2);
      trade.projected_profit_minor = minor(
        targets.reduce((s, t) => s + (t.volume > 0 ? pnl(t.price, t.volume) : 0), 0),
        info.currency,
      );
    } else if (tpPrice !== null) {
      trade.projected_profit_minor = minor(pnl(tpPrice, volume), info.currency);
    }
    return sync.inFlight(clientOrderId, async () => {
      let result;
      try {
        result = await adapter.placeOrder({
          client_order_id: clientOrderId,
          symbol: symbol.symbol,
          side: body.direction,
          kind: orderType,
          volume,
          ...(orderType === 'LIMIT' ? { limit_price: reference } : {}),
          stop_loss: { distance: body.stop_loss_distance },
          ...(tp ? { take_profit: tp } : {}),
          comment: `tradedesk ${trade.id.slice(0, 8)}`,
        });
      } catch (e) {
        throw toHttp(e);
      }
      trade.order_id = result.order_id;
      let row: TradesTable = trade;
      if (result.status === 'FILLED' && result.position_id) {
        const fill = {
          position_id: result.position_id,
          order_id: result.order_id,
          price: result.fill_price ?? reference,
          time: result.filled_at ?? nowIso(),
        };
        row = { ...trade, ...filledFields(trade, fill, symbol, rate) };
      }
      // One commit for the trade, the fill seen so far and the idempotent answer. A broker event
      // that arrives before it finds no row and is settled by the reconcile of the next read.
      const response: TradeExecuteResponse = {
        trade_id: row.id,
        status: row.status,
        message: TRADE_MESSAGES.executed,
      };
      const deals = row.position_id ? sync.takeStash(account.id, row.position_id) : [];
      try {
        await writer.write(async (trx) => {
          const r = tradesRepo(trx);
          await r.insert(row);
          for (const d of deals) await r.insertDeal(dealRow(row, d));
          if (idempotencyKey) await r.saveRequest(user.id, idempotencyKey, 200, JSON.stringify(response));
        });
      } catch (e) {
        // The same client order id placed twice at once: the broker gave both the first order.
        const existing = await repo.byClientOrderId(account.id, clientOrderId);
        if (!existing) throw e;
        return { trade_id: existing.id, status: existing.status, message: TRADE_MESSAGES.executed };
      }
      sync.invalidate(account.id);
      if (row.status === 'open') sync.watch(account.id, row);
      else {
        // A limit that filled before its row existed: its events found nothing, so look once more.
        const pending = row;
        void sync
          .serial(account.id, () => sync.reconcile(account, adapter, [pending]))
          .catch((err: unknown) => ctx.log.warn({ err, trade: pending.id }, 'pending trade check failed'));
      }
      return response;
    });
  }

  /**
   * Execute with an Idempotency-Key: the first answer (success or refusal) is stored and replayed.
   * The key also derives the broker's client order id, so a retry that races the first request
   * gets the same order from the broker and the same trade here.
   */
  async function executeIdempotent(
    user: AuthUser,
    body: Body,
    key: string | undefined,
  ): Promise<TradeExecuteResponse> {
    if (!key) return execute(user, body, newId(), undefined);
    const stored = await repo.request(user.id, key);
    if (stored?.response) {
      const parsed = JSON.parse(stored.response) as TradeExecuteResponse | { detail: string };
      if (stored.status_code === 200) return parsed as TradeExecuteResponse;
      throw new HttpError(stored.status_code ?? 422, (parsed as { detail: string }).detail);
    }
    const clientOrderId = `idem-${createHash('sha256').update(`${user.id}\n${key}`).digest('hex').slice(0, 32)}`;
    try {
      return await execute(user, body, clientOrderId, key);
    } catch (e) {
      // A refusal is an answer; a broker outage is not, so a retry may still go through.
      if (e instanceof HttpError && e.statusCode < 500 && e.statusCode !== 404) {
        const placed = await repo.byClientOrderIdFor(user.id, clientOrderId);
        if (placed) return { trade_id: placed.id, status: placed.status, message: TRADE_MESSAGES.executed };
        await repo.saveRequest(user.id, key, e.statusCode, JSON.stringify({ detail: e.detail }));
      }
      throw e;
    }
  }

  async function openPositions(user: AuthUser, accountId: string): Promise<string> {
    const account = await ownedAccount(user, accountId);
    const cached = positionsCache.get(account.id);
    if (cached && Date.now() - cached.at < POSITIONS_CACHE_MS) return cached.body;
    const started = Date.now();
    const adapter = await sync.attach(account);
    const body = await sync.serial(account.id, async () => {
      const live = await repo.liveFor(user.id, account.id);
      const positions = await broker(() => sync.reconcile(account, adapter, live));
      const rows = await repo.liveFor(user.id, account.id);
      const res: OpenPositionsResponse = {
        open_positions: rows
          .filter((t) => t.status === 'open')
          .map((t) => toOpenPosition(t, t.position_id ? positions.get(t.position_id) : undefined)),
      };
      return JSON.stringify(res);
    });
    positionsCache.set(account.id, { at: started, body });
    return body;
  }

  function action(t: TradesTable, message: string, profit: number | null): TradeActionResponse {
    return {
      message,
      trade_id: t.id,
      status: t.status,
      lot_size: t.remaining_volume,
      stop_loss: t.stop_loss,
      take_profit: t.take_profit,
      profit,
    };
  }

  const dealMoney = (d: Deal) => roundToDigits(d.profit + d.commission + d.swap, 8);

  async function close(user: AuthUser, id: string): Promise<TradeActionResponse> {
    const { trade, account } = await ownedTrade(user, id);
    const adapter = await sync.attach(account);
    if (trade.status === 'pending') {
      if (trade.order_id) await broker(() => adapter.cancelOrder(trade.order_id!));
      await repo.transition(trade.id, ['pending'], { status: 'cancelled', updated_at: nowIso() });
      sync.invalidate(account.id);
      return action({ ...trade, status: 'cancelled' }, 'Order cancelled successfully.', null);
    }
    if (trade.status !== 'open' || !trade.position_id)
      throw unprocessable(`This trade is already ${trade.status}.`);
    let deal: Deal;
    try {
      deal = await adapter.closePosition(trade.position_id);
    } catch (e) {
      if (e instanceof BrokerError && e.kind === 'not_found') {
        await sync.serial(account.id, async () => sync.reconcile(account, adapter, [trade]));
        throw unprocessable('The position was already closed at the broker; it is now in the trade history.');
      }
      throw toHttp(e);
    }
    await repo.insertDeal(dealRow(trade, deal));
    await sync.finalizeClosed(trade, deal.time);
    const after = (await repo.byIdFor(user.id, id)) ?? trade;
    return action(after, TRADE_MESSAGES.closed, dealMoney(deal));
  }

  async function partialClose(user: AuthUser, id: string, raw: unknown): Promise<TradeActionResponse> {
    const requested = num(raw);
    if (requested === null || requested <= 0) throw badRequest(TRADE_MESSAGES.volumePositive);
    const { trade, account } = await ownedTrade(user, id);
    if (trade.status !== 'open' || !trade.position_id)
      throw unprocessable(`Only an open position can be partially closed; this trade is ${trade.status}.`);
    if (requested >= trade.remaining_volume - 1e-9)
      throw badRequest(TRADE_MESSAGES.volumeTooLarge(trade.remaining_volume));
    const adapter = await sync.attach(account);
    const symbol = await broker(() => adapter.symbolInfo(trade.symbol));
    const volume = floorVolume(requested, symbol.volume_step);
    if (volume < symbol.volume_min - 1e-9)
      throw badRequest(
        `Volume must be at least ${symbol.volume_min} lots (in steps of ${symbol.volume_step}) for ${trade.symbol}.`,
      );
    const deal = await broker(() => adapter.closePosition(trade.position_id!, volume));
    await repo.insertDeal(dealRow(trade, deal));
    const remaining = Math.max(0, roundToDigits(trade.remaining_volume - deal.volume, 8));
    await repo.update(trade.id, { remaining_volume: remaining, updated_at: nowIso() });
    sync.invalidate(account.id);
    const after = { ...trade, remaining_volume: remaining };
    sync.watch(account.id, after);
    return action(after, TRADE_MESSAGES.partiallyClosed, dealMoney(deal));
  }

  /** The open trade, its adapter, symbol and the price it would close at now. */
  async function forStops(user: AuthUser, id: string) {
    const { trade, account } = await ownedTrade(user, id);
    if (trade.status !== 'open' || !trade.position_id) {
      throw unprocessable(`Stops can only be changed on an open position; this trade is ${trade.status}.`);
    }
    const adapter = await sync.attach(account);
    const [symbol, quote] = await broker(() =>
      Promise.all([adapter.symbolInfo(trade.symbol), adapter.quote(trade.symbol)]),
    );
    return { trade, account, adapter, symbol, current: closePriceOf(trade.direction, quote) };
  }

  async function updateStopLoss(
    user: AuthUser,
    body: {
      trade_id: string;
      sl_update_type: 'specific_price' | 'breakeven' | 'distance_pips' | 'distance_price';
      value?: unknown;
      specific_price?: unknown;
    },
  ): Promise<TradeActionResponse> {
    const type = body.sl_update_type;
    let value: number | null = null;
    if (type === 'specific_price') {
      value = num(body.specific_price) ?? num(body.value);
      if (value === null || value <= 0) throw badRequest(TRADE_MESSAGES.numberRequired);
    } else if (type !== 'breakeven') {
      value = num(body.value);
      if (value === null || value <= 0) throw badRequest(TRADE_MESSAGES.numberRequired);
    }
    const { trade, adapter, symbol, current } = await forStops(user, body.trade_id);
    const away = trade.direction === 'BUY' ? -1 : 1;
    let sl: number;
    if (type === 'specific_price') sl = value!;
    else if (type === 'breakeven') sl = trade.entry_price!;
    else if (type === 'distance_pips') sl = current + away * value! * symbol.pip_size;
    else sl = current + away * value!;
    sl = roundToDigits(sl, symbol.digits);
    const errors = stopSideErrors(
      { side: trade.direction, entry: current, stopLoss: sl, digits: symbol.digits },
      'current price',
    );
    if (errors[0] || !(sl > 0))
      throw unprocessable(errors[0] ?? `The stop loss would be at ${sl}, at or below zero.`);
    const position = await broker(() => adapter.amendPosition(trade.position_id!, { stop_loss: sl }));
    await repo.update(trade.id, { stop_loss: position.stop_loss, updated_at: nowIso() });
    sync.invalidate(trade.account_id);
    return action({ ...trade, stop_loss: position.stop_loss }, TRADE_MESSAGES.slUpdated, null);
  }

  async function updateTakeProfit(user: AuthUser, id: string, raw: unknown): Promise<TradeActionResponse> {
    const tp = num(raw);
    if (tp === null || tp <= 0) throw badRequest(TRADE_MESSAGES.takeProfitNumber);
    const { trade, adapter, symbol, current } = await forStops(user, id);
    const price = roundToDigits(tp, symbol.digits);
    const errors = stopSideErrors(
      { side: trade.direction, entry: current, takeProfit: price, digits: symbol.digits },
      'current price',
    );
    if (errors[0]) throw unprocessable(errors[0]);
    const position = await broker(() => adapter.amendPosition(trade.position_id!, { take_profit: price }));
    const targets = parseTargets(trade);
    const last = targets.find((t) => t.managed_by === 'broker');
    if (last) last.price = price;
    const rr =
      targets.length === 0 && trade.entry_price !== null && trade.sl_distance
        ? roundToDigits(Math.abs(price - trade.entry_price) / trade.sl_distance, 2)
        : trade.rr_ratio;
    await repo.update(trade.id, {
      take_profit: position.take_profit,
      rr_ratio: rr,
      ...(last ? { targets: JSON.stringify(targets) } : {}),
      updated_at: nowIso(),
    });
    sync.invalidate(trade.account_id);
    return action(
      { ...trade, take_profit: position.take_profit, rr_ratio: rr },
      TRADE_MESSAGES.tpUpdated,
      null,
    );
  }

  /** ATR for the Place a Trade modal; null on any failure (unknown symbol or timeframe, broker down). */
  async function atr(
    user: AuthUser,
    rawSymbol: string,
    rawTimeframe: string,
    accountId?: string,
  ): Promise<number | null> {
    let account: TradingAccountsTable | undefined;
    if (accountId) account = await ownedAccount(user, accountId);
    else account = (await accounts.listFor(user.id)).find((a) => a.platform === 'SIM');
    const timeframe = parseTimeframe(rawTimeframe);
    if (!account || !timeframe) return null;
    try {
      const adapter = await brokers.connected(account);
      const symbol = await resolveSymbol(adapter, rawSymbol);
      const v = await atrOf(adapter, symbol.symbol, timeframe, clockOf(account));
      return v === null ? null : roundToDigits(v, Math.min(15, symbol.digits + 3));
    } catch (err) {
      ctx.log.info({ err, symbol: rawSymbol, timeframe: rawTimeframe }, 'ATR unavailable');
      return null;
    }
  }

  return {
    execute: executeIdempotent,
    openPositions,
    close,
    partialClose,
    updateStopLoss,
    updateTakeProfit,
    atr,
    sync,
    ownedTrade,
  };
}
