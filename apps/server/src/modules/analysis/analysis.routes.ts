import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  analysisInstrument,
  analysisInstrumentCreate,
  analysisJob,
  analysisJobStatus,
  analysisResult,
  analyzeRequest,
  errorBody,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { analysisJobsService } from './analysis-jobs.service';
import { instrumentsService } from './instruments.service';

export function registerAnalysisRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const instruments = instrumentsService(ctx);
  const jobs = analysisJobsService(ctx);
  const tags = ['analysis'];

  r.get(
    '/api/analysis/instruments/',
    { schema: { tags, response: { 200: z.array(analysisInstrument) } } },
    (request) => instruments.list(request.user),
  );

  r.post(
    '/api/analysis/instruments/',
    {
      schema: {
        tags,
        body: analysisInstrumentCreate,
        response: {
          200: analysisInstrument,
          201: analysisInstrument,
          400: errorBody,
          404: errorBody,
          409: errorBody,
          502: errorBody,
        },
      },
    },
    async (request, reply) => {
      // 201 for a new instrument, 200 when an existing one starts refreshing.
      const { instrument, created } = await instruments.add(request.user, request.body ?? {});
      reply.status(created ? 201 : 200);
      return instrument;
    },
  );

  r.post(
    '/api/analysis/analyze/',
    {
      schema: { tags, body: analyzeRequest, response: { 201: analysisJob, 400: errorBody, 409: errorBody } },
    },
    async (request, reply) => {
      const job = await jobs.submit(request.user, request.body ?? {});
      reply.status(201);
      return job;
    },
  );

  r.get('/api/analysis/jobs/', { schema: { tags, response: { 200: z.array(analysisJob) } } }, (request) =>
    jobs.list(request.user),
  );

  r.get(
    '/api/analysis/jobs/:id/status/',
    { schema: { tags, params: uuidParam, response: { 200: analysisJobStatus, 404: errorBody } } },
    (request) => jobs.status(request.user, request.params.id),
  );

  r.get(
    '/api/analysis/jobs/:id/results/',
    {
      schema: { tags, params: uuidParam, response: { 200: analysisResult, 404: errorBody, 409: errorBody } },
    },
    (request) => jobs.results(request.user, request.params.id),
  );
}
