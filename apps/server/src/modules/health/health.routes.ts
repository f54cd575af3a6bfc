import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthResponse } from '@tradedesk/contract';
import type { DbHandle } from '../../db';

export function registerHealthRoutes(app: FastifyInstance, handle: DbHandle, version: string): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { public: true },
      schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } },
    },
    async (_request, reply) => {
      const dbOk = await handle.ping();
      reply.status(dbOk ? 200 : 503);
      return {
        status: dbOk ? 'ok' : 'degraded',
        db: dbOk ? 'ok' : 'down',
        dialect: handle.dialect,
        version,
      } as const;
    },
  );
}
