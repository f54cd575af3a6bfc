import { checkTradeRequest, planRequest, profitPlanOf } from '@tradedesk/domain';
import { TRADE_MESSAGES, type TradeExecuteRequest, type TradeExecuteResponse } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { BrokerError, type PlaceOrderResult } from '../../brokers/types';
import type { TradesTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { badRequest, conflict, unprocessable } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { tradeSync } from '../trade-sync/trade-sync';
import { crashPoint } from './crash-point';
import { createGroupWriter } from './group-writer';
import { checkRiskRules } from './risk-check';
import { loadFacts } from './trade-facts';
import { filledFields, submittingRow } from './trade-record';
import { dealRow } from './trades.model';
import { tradesRepo } from './trades.repo';
import { perApp } from '../../lib/per-app';

export interface ExecuteOptions {
  /** The broker's idempotency key for this order (derived from an Idempotency-Key, or fresh). */
  clientOrderId: string;
  /** Stores the answer under this key in the same commit as the trade. */
  onRecorded?: (response: TradeExecuteResponse) => { key: string; bodyHash: string } | undefined;
}

const writerOf = perApp((ctx: AppContext) => createGroupWriter(ctx.db));

/**
 * Places a trade for a user, from any caller (the HTTP route, a bot): load → plan → rules → place →
 * record. The server's own plan is placed; the client's lot is only checked against it. The trade
 * row exists (state `submitting`) before the order leaves, so no broker position is ever without it.
 */
export async function executeTrade(
  ctx: AppContext,
  user: AuthUser,
  body: TradeExecuteRequest,
  opts: ExecuteOptions,
): Promise<TradeExecuteResponse> {
  if ((body.order_type ?? 'MARKET') === 'LIMIT' && typeof body.limit_price !== 'number')
    throw badRequest({ limit_price: ['A limit order needs a positive limit_price.'] });
  const facts = await loadFacts(ctx, user, body);
  const plan = planRequest(body, facts.plan);
  const check = checkTradeRequest(body, plan, facts.plan);
  if (!check.ok) throw unprocessable(check.detail);
  const { account, adapter, symbol } = facts;
  const decision = await checkRiskRules(ctx.db, {
    ...facts,
    user,
    order: { symbol: symbol.symbol, volume: plan.volume, riskMinor: plan.riskMinor },
  });
  if (!decision.allowed) throw unprocessable(decision.detail);

  const profit = profitPlanOf(body);
  const trade = submittingRow({
    account,
    currency: facts.info.currency,
    body,
    plan,
    specs: profit.mode === 'multi' ? profit.targets : [],
    symbol: symbol.symbol,
    entry: facts.plan.entry,
    clientOrderId: opts.clientOrderId,
  });
  const sync = tradeSync(ctx);
  const repo = tradesRepo(ctx.db);
  const writer = writerOf(ctx);
  return sync.inFlight(opts.clientOrderId, async () => {
    try {
      await writer.write(async (trx) => {
        await tradesRepo(trx).insert(trade);
      });
    } catch (e) {
      // The same client order id twice: a retry of a request that is still running or done.
      const existing = isUniqueViolation(e)
        ? await repo.byClientOrderId(account.id, opts.clientOrderId)
        : null;
      if (!existing) throw e;
      if (existing.status === 'submitting') throw conflict(TRADE_MESSAGES.idempotencyBusy);
      return { trade_id: existing.id, status: existing.status, message: TRADE_MESSAGES.executed };
    }
    crashPoint('before_order');
    let result: PlaceOrderResult;
    try {
      result = await adapter.placeOrder({
        client_order_id: opts.clientOrderId,
        symbol: symbol.symbol,
        side: body.direction,
        kind: trade.order_type,
        volume: trade.volume,
        ...(trade.order_type === 'LIMIT' ? { limit_price: facts.plan.entry } : {}),
        stop_loss: { distance: trade.sl_distance! },
        ...(trade.take_profit !== null
          ? { take_profit: tpOrder(trade, facts.plan.entry, profit.mode === 'single' ? profit : null) }
          : {}),
        comment: `tradedesk ${trade.id.slice(0, 8)}`,
      });
    } catch (e) {
      // A refused order never existed: its row goes. Anything else (a timeout) stays submitting
      // until a reconcile finds the position or the order, or finds neither and cancels it.
      if (e instanceof BrokerError && e.kind === 'rejected') await repo.delete(trade.id);
      throw e;
    }
    crashPoint('after_fill');
    let done: TradesTable = { ...trade, status: 'pending', order_id: result.order_id, updated_at: nowIso() };
    if (result.status === 'FILLED' && result.position_id) {
      const fill = {
        position_id: result.position_id,
        order_id: result.order_id,
        price: result.fill_price ?? facts.plan.entry,
        time: result.filled_at ?? nowIso(),
      };
      done = { ...done, ...filledFields(trade, fill, symbol, facts.plan.quoteToAccountRate) };
    }
    const response: TradeExecuteResponse = {
      trade_id: done.id,
      status: done.status === 'submitting' ? 'pending' : done.status,
      message: TRADE_MESSAGES.executed,
    };
    const deals = done.position_id ? sync.takeStash(account.id, done.position_id) : [];
    const idem = opts.onRecorded?.(response);
    // One commit for the fill, the deals seen so far and the idempotent answer.
    await writer.write(async (trx) => {
      const r = tradesRepo(trx);
      await r.transition(trade.id, ['submitting'], done);
      for (const d of deals) await r.insertDeal(dealRow(done, d));
      if (idem) await r.saveRequest(user.id, idem.key, 200, JSON.stringify(response), idem.bodyHash);
    });
    sync.invalidate(account.id);
    if (done.status === 'open') sync.watch(account.id, done);
    else {
      // A limit that filled before its row was complete: its events found nothing, so look once more.
      void sync
        .serial(account.id, () => sync.reconcile(account, adapter, [done]))
        .catch((err: unknown) => ctx.log.warn({ err, trade: done.id }, 'pending trade check failed'));
    }
    return response;
  });
}

/** The broker's take profit: a PRICE target or price stays a price; the others follow the fill. */
function tpOrder(
  trade: TradesTable,
  entry: number,
  single: { takeProfit: { mode: string } } | null,
): { price: number } | { distance: number } {
  const tp = trade.take_profit!;
  const byPrice = single
    ? single.takeProfit.mode === 'price'
    : (JSON.parse(trade.targets ?? '[]') as Array<{ managed_by: string; tp_type: string }>).find(
        (t) => t.managed_by === 'broker',
      )?.tp_type === 'PRICE';
  return byPrice ? { price: tp } : { distance: Math.abs(tp - entry) };
}
