import {
  PENDING_ORDER_MESSAGES,
  type CancelPendingOrderResponse,
  type PendingOrder as PendingOrderBody,
  type PendingOrdersResponse,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { perApp } from '../../lib/per-app';
import { BrokerError, type PendingOrder } from '../../brokers/types';
import type { TradesTable } from '../../db/schema';
import { notFound, unprocessable } from '../../lib/http-error';
import { nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { accountsRepo } from '../accounts/accounts.repo';
import { tradeSync } from '../trade-sync/trade-sync';
import { tradesRepo } from './trades.repo';

const ours = (o: PendingOrder, t: TradesTable) =>
  (t.order_id !== null && t.order_id === o.order_id) ||
  (o.client_order_id !== undefined && o.client_order_id === t.client_order_id);

/**
 * The broker's order with our trade beside it: the broker knows the live levels (an order amended
 * on the platform), our row knows the id the dashboard cancels by and when the trader placed it.
 */
function toBody(o: PendingOrder, t: TradesTable | undefined): PendingOrderBody {
  return {
    id: t?.status === 'pending' ? t.id : null,
    order_id: o.order_id,
    instrument: o.symbol,
    direction: o.side,
    lot_size: o.volume,
    limit_price: o.limit_price,
    stop_loss: o.stop_loss ?? t?.stop_loss ?? null,
    profit_target: o.take_profit ?? t?.take_profit ?? null,
    created_at: t?.created_at ?? o.created_at,
  };
}

/**
 * Pending limit orders of an account, read from the broker through its adapter (SIM, cTrader,
 * MT5), and cancelling one of the user's own. Both run in the account's queue after a reconcile,
 * so an order that filled or was cancelled on the platform meanwhile is settled in our trades first
 * and the history always agrees with the list.
 */
export const pendingOrdersService = perApp((ctx: AppContext) => {
  const repo = tradesRepo(ctx.db);
  const accounts = accountsRepo(ctx.db);
  const sync = tradeSync(ctx);

  async function list(user: AuthUser, accountId: string): Promise<PendingOrdersResponse> {
    const account = await accounts.ownedOr404(user.id, accountId);
    const adapter = await sync.attach(account);
    return sync.serial(account.id, async () => {
      const rec = await adapter.reconcile();
      await sync.reconcile(account, adapter, await repo.liveFor(user.id, account.id), rec);
      const live = await repo.liveFor(user.id, account.id);
      return {
        pending_orders: rec.orders
          .filter((o) => o.kind === 'LIMIT')
          .map((o) =>
            toBody(
              o,
              live.find((t) => ours(o, t)),
            ),
          ),
      };
    });
  }

  async function cancel(user: AuthUser, id: string): Promise<CancelPendingOrderResponse> {
    const trade = await repo.byIdFor(user.id, id);
    if (!trade) throw notFound(PENDING_ORDER_MESSAGES.notFound);
    const account = await accounts.ownedOr404(user.id, trade.account_id);
    if (trade.status !== 'pending' || !trade.order_id)
      throw unprocessable(PENDING_ORDER_MESSAGES.notPending(trade.status));
    const adapter = await sync.attach(account);
    await sync.serial(account.id, async () => {
      try {
        await adapter.cancelOrder(trade.order_id!);
      } catch (e) {
        if (!(e instanceof BrokerError && e.kind === 'not_found')) throw e;
        // Gone at the broker: it filled, or was cancelled on the platform. The reconcile says which.
        await sync.reconcile(account, adapter, [trade]);
        const now = await repo.byIdFor(user.id, id);
        if (now?.status === 'open' || now?.status === 'closed')
          throw unprocessable(PENDING_ORDER_MESSAGES.filledMeanwhile);
      }
      await repo.transition(trade.id, ['pending'], { status: 'cancelled', updated_at: nowIso() });
    });
    sync.invalidate(account.id);
    return { message: PENDING_ORDER_MESSAGES.cancelled, trade_id: trade.id, status: 'cancelled' };
  }

  return { list, cancel };
});
