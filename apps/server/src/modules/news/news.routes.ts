import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, newsAnalysis, newsAnalyzeRequest } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { bearerToken } from '../../plugins/auth';
import { NewsRefused, newsService } from './news.service';

export function registerNewsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = newsService(ctx);

  r.post(
    '/api/news/analyze/',
    {
      // The landing page is public; a valid token only raises the caller's quota.
      config: { public: true },
      schema: {
        tags: ['news'],
        summary:
          'Summary and market impact of a pasted news text (a model provider, or the offline analyser)',
        security: [{}, { bearer: [] }],
        body: newsAnalyzeRequest,
        response: { 200: newsAnalysis, 400: errorBody, 429: errorBody, 503: errorBody },
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      const user = token ? await ctx.tokens.verifyAccess(token) : null;
      try {
        return await service.analyze({ ip: request.ip, userId: user?.id }, request.body.text, request.log);
      } catch (err) {
        if (err instanceof NewsRefused) void reply.header('retry-after', String(err.retryAfter));
        throw err;
      }
    },
  );
}
