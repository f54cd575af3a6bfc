import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, uuidParam, watchlistCreate, watchlistItem } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { watchlistService } from './watchlist.service';

export function registerWatchlistRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = watchlistService(ctx);
  const tags = ['watchlist'];

  r.get(
    '/api/trades/watchlists/',
    { schema: { tags, response: { 200: z.array(watchlistItem) } } },
    (request) => service.list(request.user),
  );

  r.post(
    '/api/trades/watchlists/',
    {
      schema: {
        tags,
        body: watchlistCreate,
        response: { 201: watchlistItem, 400: errorBody, 403: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const item = await service.create(request.user, request.body ?? {});
      reply.status(201);
      return item;
    },
  );

  r.delete(
    '/api/trades/watchlists/:id/',
    { schema: { tags, params: uuidParam, response: { 204: z.null(), 403: errorBody, 404: errorBody } } },
    async (request, reply) => {
      await service.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
