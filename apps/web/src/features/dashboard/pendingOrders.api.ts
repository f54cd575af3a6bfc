import { useQuery } from '@tanstack/react-query';
import { cancelPendingOrderResponse, pendingOrdersResponse, type PendingOrder } from '@tradedesk/contract';
import { api } from '../../app/api';
import { openPositionsKey } from '../trade/trades.api';

export type { PendingOrder };

/** Texts of the Pending Orders card. */
export const PENDING_TEXT = {
  title: 'Pending Orders',
  empty: 'No pending orders to show',
  fetchFailed: 'Failed to fetch pending orders',
  cancelFailed: 'Failed to cancel order. Please try again.',
  cancelling: 'Cancelling...',
  outside: 'Placed on the platform: cancel it there.',
} as const;

/**
 * Under the account's open-positions key, so that everything that reloads the positions (an executed
 * trade, a close) reloads the pending orders too: a limit order that fills moves from one to the other.
 */
export const pendingOrdersKey = (accountId: string) => [...openPositionsKey(accountId), 'pending'] as const;

export async function fetchPendingOrders(accountId: string): Promise<PendingOrder[]> {
  const data = await api.get(`/trades/pending-orders/${encodeURIComponent(accountId)}/`, {
    schema: pendingOrdersResponse,
  });
  return data.pending_orders;
}

/** Pending orders of an account, polled like the open positions (a fill moves one over there). */
export function usePendingOrders(accountId: string | null) {
  return useQuery({
    queryKey: pendingOrdersKey(accountId ?? ''),
    queryFn: () => fetchPendingOrders(accountId!),
    enabled: !!accountId,
    refetchInterval: 10_000,
    refetchIntervalInBackground: false,
  });
}

export const cancelPendingOrder = (id: string) =>
  api.delete(`/trades/pending-orders/${encodeURIComponent(id)}/`, { schema: cancelPendingOrderResponse });
