import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountParam,
  cancelPendingOrderResponse,
  errorBody,
  pendingOrdersResponse,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { pendingOrdersService } from './pending-orders.service';

const errors = { 400: errorBody, 404: errorBody, 422: errorBody, 502: errorBody };

/** Pending limit orders of an account, and cancelling one, on every platform's adapter. */
export function registerPendingOrderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const orders = pendingOrdersService(ctx);
  const tags = ['trades'];

  r.get(
    '/api/trades/pending-orders/:account/',
    {
      schema: {
        tags,
        description:
          "The account's pending limit orders as its broker holds them. `id` is the trade id to cancel by; " +
          "null for an order placed on the platform itself. Another user's account is 404.",
        params: accountParam,
        response: { 200: pendingOrdersResponse, ...errors },
      },
    },
    (request) => orders.list(request.user, request.params.account),
  );

  r.delete(
    '/api/trades/pending-orders/:id/',
    {
      schema: {
        tags,
        description:
          'Cancels a pending limit order at the broker; the trade becomes cancelled in the history. ' +
          "A trade that is not pending (filled meanwhile, closed) is 422; another user's is 404.",
        params: uuidParam,
        response: { 200: cancelPendingOrderResponse, ...errors },
      },
    },
    (request) => orders.cancel(request.user, request.params.id),
  );
}
