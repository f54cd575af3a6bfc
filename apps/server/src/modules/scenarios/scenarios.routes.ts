import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, scenario, scenarioCreate } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { scenariosService } from './scenarios.service';

export function registerScenarioRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = scenariosService(ctx);
  const tags = ['win-rate scenarios'];

  r.get('/api/user/scenarios/', { schema: { tags, response: { 200: z.array(scenario) } } }, (request) =>
    service.list(request.user),
  );

  r.post(
    '/api/user/scenarios/',
    {
      schema: {
        tags,
        description:
          'Saves a scenario; saving again under an existing name (any case) updates it and answers 200.',
        body: scenarioCreate,
        response: { 200: scenario, 201: scenario, 400: errorBody },
      },
    },
    async (request, reply) => {
      const { scenario: saved, created } = await service.save(request.user, request.body);
      reply.status(created ? 201 : 200);
      return saved;
    },
  );
}
