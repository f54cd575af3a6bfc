import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorBody,
  snapshotConfig,
  snapshotConfigWrite,
  snapshotExecute,
  snapshotRequest,
  snapshotRequestAccepted,
  snapshotTask,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { configsService } from './configs.service';
import { executeService } from './execute.service';
import { tasksService } from './tasks.service';
// Registers the snapshot job kind in every process that builds the app (server and workers).
import './snapshots.jobs';

export function registerSnapshotRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const configs = configsService(ctx);
  const executor = executeService(ctx);
  const tasks = tasksService(ctx);
  const tags = ['chart-snapshots'];
  const errors = { 400: errorBody, 403: errorBody, 404: errorBody };

  r.get(
    '/api/chart-snapshots/configs/',
    { schema: { tags, response: { 200: z.array(snapshotConfig) } } },
    (request) => configs.list(request.user),
  );
  r.post(
    '/api/chart-snapshots/configs/',
    { schema: { tags, body: snapshotConfigWrite, response: { 201: snapshotConfig, ...errors } } },
    async (request, reply) => {
      const created = await configs.create(request.user, request.body);
      reply.status(201);
      return created;
    },
  );
  r.get(
    '/api/chart-snapshots/configs/:id/',
    { schema: { tags, params: uuidParam, response: { 200: snapshotConfig, ...errors } } },
    (request) => configs.get(request.user, request.params.id),
  );
  r.put(
    '/api/chart-snapshots/configs/:id/',
    {
      schema: {
        tags,
        params: uuidParam,
        body: snapshotConfigWrite,
        response: { 200: snapshotConfig, ...errors },
      },
    },
    (request) => configs.update(request.user, request.params.id, request.body),
  );
  r.delete(
    '/api/chart-snapshots/configs/:id/',
    { schema: { tags, params: uuidParam, response: { 200: z.object({ message: z.string() }), ...errors } } },
    (request) => configs.remove(request.user, request.params.id),
  );

  r.post(
    '/api/chart-snapshots/configs/:id/execute/',
    {
      schema: {
        tags,
        description:
          'Draws one chart with this template on the default account and answers the PNG (image/png, 1600×900).',
        params: uuidParam,
        body: snapshotExecute,
        response: { ...errors, 422: errorBody, 502: errorBody },
      },
    },
    async (request, reply) => {
      const png = await executor.execute(request.user, request.params.id, request.body);
      // A Buffer goes out as it is (Fastify never serialises one); the typed reply only knows the JSON errors.
      return reply
        .type('image/png')
        .header('cache-control', 'no-store')
        .send(png as unknown as z.infer<typeof errorBody>);
    },
  );
  r.post(
    '/api/chart-snapshots/request/',
    { schema: { tags, body: snapshotRequest, response: { 202: snapshotRequestAccepted, ...errors } } },
    async (request, reply) => {
      const accepted = await tasks.request(request.user, request.body);
      reply.status(202);
      return accepted;
    },
  );
  r.get(
    '/api/chart-snapshots/tasks/:task_id/',
    {
      schema: {
        tags,
        params: z.object({ task_id: z.string().min(1).max(64) }),
        response: { 200: snapshotTask, 404: errorBody },
      },
    },
    (request) => tasks.get(request.user, request.params.task_id),
  );
}
