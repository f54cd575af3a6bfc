import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, profitProfile, profitProfileCreate } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { profitProfilesService } from './profit-profiles.service';

export function registerProfitProfileRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = profitProfilesService(ctx);
  const tags = ['profit profiles'];

  r.get(
    '/api/accounts/profit-profiles/',
    { schema: { tags, response: { 200: z.array(profitProfile) } } },
    (request) => service.list(request.user),
  );

  r.post(
    '/api/accounts/profit-profiles/',
    {
      schema: {
        tags,
        body: profitProfileCreate,
        response: { 201: profitProfile, 400: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      const profile = await service.create(request.user, request.body ?? {});
      reply.status(201);
      return profile;
    },
  );
}
