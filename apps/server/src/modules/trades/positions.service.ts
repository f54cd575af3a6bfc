import { floorVolume, roundToDigits, stopSideErrors } from '@tradedesk/domain';
import { TRADE_MESSAGES, type OpenPositionsResponse, type TradeActionResponse } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import { BrokerError, type Deal } from '../../brokers/types';
import type { TradingAccountsTable, TradesTable } from '../../db/schema';
import { badRequest, notFound, unprocessable } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { tradeSync } from '../trade-sync/trade-sync';
import { closePriceOf, dealRow, parseTargets, toOpenPosition } from './trades.model';
import { tradesRepo } from './trades.repo';

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

/**
 * Position management, one per app: open positions (cached per account for one tick), close,
 * partial close, stop loss and take profit of a trade the user owns.
 */
export const positionsService = perApp(build);

function build(ctx: AppContext) {
  const repo = tradesRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);
  const sync = tradeSync(ctx);
  const positionsCache = new Map<string, { at: number; body: string }>();
  sync.onInvalidate((accountId) => positionsCache.delete(accountId));

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

  async function openPositions(user: AuthUser, accountId: string): Promise<string> {
    const account = await ownedAccount(user, accountId);
    const cached = positionsCache.get(account.id);
    if (cached && Date.now() - cached.at < POSITIONS_CACHE_MS) return cached.body;
    const started = Date.now();
    const adapter = await sync.attach(account);
    const body = await sync.serial(account.id, async () => {
      const live = await repo.liveFor(user.id, account.id);
      const positions = await sync.reconcile(account, adapter, live);
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
      status: t.status === 'submitting' ? 'pending' : t.status,
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
      if (trade.order_id) await adapter.cancelOrder(trade.order_id!);
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
      throw e;
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
    const symbol = await adapter.symbolInfo(trade.symbol);
    const volume = floorVolume(requested, symbol.volume_step);
    if (volume < symbol.volume_min - 1e-9)
      throw badRequest(
        `Volume must be at least ${symbol.volume_min} lots (in steps of ${symbol.volume_step}) for ${trade.symbol}.`,
      );
    const deal = await adapter.closePosition(trade.position_id!, volume);
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
    const [symbol, quote] = await Promise.all([
      adapter.symbolInfo(trade.symbol),
      adapter.quote(trade.symbol),
    ]);
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
    const position = await adapter.amendPosition(trade.position_id!, { stop_loss: sl });
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
    const position = await adapter.amendPosition(trade.position_id!, { take_profit: price });
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

  return { openPositions, close, partialClose, updateStopLoss, updateTakeProfit, ownedTrade };
}
