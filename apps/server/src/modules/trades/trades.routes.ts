import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBody,
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
import { tradesService } from './trades.service';

const accountParam = z.object({ account: z.string().min(1).max(64) });
const indicatorParams = z.object({ symbol: z.string().min(1).max(40), timeframe: z.string().min(1).max(10) });
const indicatorQuery = z.object({ account_id: z.string().max(64).optional() });
const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(200).optional() });

const errors = { 400: errorBody, 404: errorBody, 409: errorBody, 422: errorBody, 502: errorBody };

export function registerTradeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = tradesService(ctx);
  const tags = ['trades'];
  // Trades placed before a restart keep being synced and their targets managed.
  app.addHook('onReady', () => {
    void service.sync.resume();
  });

  r.post(
    '/api/trades/execute/',
    {
      schema: {
        tags,
        description:
          'Places a trade sized from risk. stop_loss_distance and take_profit_distance are in price units. ' +
          'The server recomputes the lot size and refuses (422) a lot_size that differs by more than one volume step ' +
          'or 2 %; risk rules are checked first (422 naming the rule). An Idempotency-Key header makes a retry return the first answer.',
        body: tradeExecuteRequest,
        headers: idempotencyHeaders,
        response: { 200: tradeExecuteResponse, ...errors },
      },
    },
    (request) => service.execute(request.user, request.body, request.headers['idempotency-key']),
  );

  r.get(
    '/api/trades/open-positions/:account/',
    { schema: { tags, params: accountParam, response: { 200: openPositionsResponse, ...errors } } },
    async (request, reply) => {
      const body = await service.openPositions(request.user, request.params.account);
      // Already serialized (and cached per account for one tick).
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  r.delete(
    '/api/trades/close/:id/',
    { schema: { tags, params: uuidParam, response: { 200: tradeActionResponse, ...errors } } },
    (request) => service.close(request.user, request.params.id),
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
    (request) => service.partialClose(request.user, request.params.id, request.body?.volume_to_close),
  );

  r.post(
    '/api/trades/update-sl/',
    { schema: { tags, body: updateSlRequest, response: { 200: tradeActionResponse, ...errors } } },
    (request) => service.updateStopLoss(request.user, request.body),
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
    (request) => service.updateTakeProfit(request.user, request.params.id, request.body?.take_profit),
  );

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
      value: await service.atr(
        request.user,
        request.params.symbol,
        request.params.timeframe,
        request.query.account_id || undefined,
      ),
    }),
  );
}
