import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountParam,
  errorBody,
  indicatorParams,
  indicatorResponse,
  openPositionsResponse,
  partialCloseRequest,
  tradeActionResponse,
  tradeExecuteRequest,
  tradeExecuteResponse,
  updateSlRequest,
  updateTpRequest,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { executeIdempotent } from './idempotency';
import { atrFor } from './indicator';
import { registerPendingOrderRoutes } from './pending-orders.routes';
import { positionsService } from './positions.service';

const indicatorQuery = z.object({ account_id: z.string().max(64).optional() });
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

const errors = { 400: errorBody, 404: errorBody, 409: errorBody, 422: errorBody, 502: errorBody };

export function registerTradeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const positions = positionsService(ctx);
  const tags = ['trades'];

  r.post(
    '/api/trades/execute/',
    {
      schema: {
        tags,
        description:
          'Places a trade sized from risk. stop_loss_distance and take_profit_distance are in price units. ' +
          'The server plans the trade itself (domain planTrade) and places its own lot size; a lot_size above it, ' +
          'or more than one volume step below it, is refused (422), and so is a minimum volume that risks more than ' +
          'asked unless allow_min_volume is true. Risk rules are checked first (422 naming the rule). ' +
          'An Idempotency-Key header makes a retry with the same body return the first answer; another body is 422.',
        body: tradeExecuteRequest,
        headers: idempotencyHeaders,
        response: { 200: tradeExecuteResponse, ...errors },
      },
    },
    (request) => executeIdempotent(ctx, request.user, request.body, request.headers['idempotency-key']),
  );

  r.get(
    '/api/trades/open-positions/:account/',
    { schema: { tags, params: accountParam, response: { 200: openPositionsResponse, ...errors } } },
    async (request, reply) => {
      const body = await positions.openPositions(request.user, request.params.account);
      // Already serialized (and cached per account for one tick).
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  r.delete(
    '/api/trades/close/:id/',
    { schema: { tags, params: uuidParam, response: { 200: tradeActionResponse, ...errors } } },
    (request) => positions.close(request.user, request.params.id),
  );

  r.post(
    '/api/trades/:id/partial-close/',
    {
      schema: {
        tags,
        params: uuidParam,
        body: partialCloseRequest,
        response: { 200: tradeActionResponse, ...errors },
      },
    },
    (request) => positions.partialClose(request.user, request.params.id, request.body?.volume_to_close),
  );

  r.post(
    '/api/trades/update-sl/',
    { schema: { tags, body: updateSlRequest, response: { 200: tradeActionResponse, ...errors } } },
    (request) => positions.updateStopLoss(request.user, request.body),
  );

  r.put(
    '/api/trades/update-tp/:id/',
    {
      schema: {
        tags,
        params: uuidParam,
        body: updateTpRequest,
        response: { 200: tradeActionResponse, ...errors },
      },
    },
    (request) => positions.updateTakeProfit(request.user, request.params.id, request.body?.take_profit),
  );

  registerPendingOrderRoutes(app, ctx);

  r.get(
    '/api/get_indicator/:symbol/:timeframe/ATR',
    {
      schema: {
        tags,
        params: indicatorParams,
        querystring: indicatorQuery,
        response: { 200: indicatorResponse, 404: errorBody },
      },
    },
    async (request) => ({
      value: await atrFor(
        ctx,
        request.user,
        request.params.symbol,
        request.params.timeframe,
        request.query.account_id || undefined,
      ),
    }),
  );
}
