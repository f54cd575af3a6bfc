import { z } from 'zod';
import { tradeDirection } from './trades';

/** Texts of the pending-orders calls, shared by the server and the dashboard. */
export const PENDING_ORDER_MESSAGES = {
  cancelled: 'Order cancelled successfully.',
  notFound: 'Order not found.',
  notPending: (status: string) => `Only a pending order can be cancelled; this trade is ${status}.`,
  filledMeanwhile: 'The order was filled before it could be cancelled; it is now an open position.',
} as const;

/**
 * A limit order waiting at the broker (GET /api/trades/pending-orders/{account}/). `id` is our trade
 * id, the one DELETE /api/trades/pending-orders/{id}/ takes; it is null for an order placed outside
 * the app (on the platform itself), which the dashboard lists but cannot cancel. Prices are absolute
 * prices of the symbol; `lot_size` is in lots.
 */
export const pendingOrder = z.object({
  id: z.string().nullable(),
  order_id: z.string(),
  instrument: z.string(),
  direction: tradeDirection,
  lot_size: z.number(),
  limit_price: z.number(),
  stop_loss: z.number().nullable(),
  profit_target: z.number().nullable(),
  created_at: z.string(),
});
export type PendingOrder = z.infer<typeof pendingOrder>;

export const pendingOrdersResponse = z.object({ pending_orders: z.array(pendingOrder) });
export type PendingOrdersResponse = z.infer<typeof pendingOrdersResponse>;

/** DELETE /api/trades/pending-orders/{id}/: the trade is cancelled in the history too. */
export const cancelPendingOrderResponse = z.object({
  message: z.string(),
  trade_id: z.string(),
  status: z.literal('cancelled'),
});
export type CancelPendingOrderResponse = z.infer<typeof cancelPendingOrderResponse>;
