import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  backtestConfig,
  backtestConfigWrite,
  backtestLaunch,
  backtestRun,
  backtestRunDetail,
  bot,
  botCreate,
  botVersion,
  botVersionCreate,
  errorBody,
  strategyTemplate,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { backtestsService } from './backtests.service';
import { botsService } from './bots.service';
import { strategyTemplates } from './templates';

const errors = { 400: errorBody, 404: errorBody, 422: errorBody };

export function registerBotsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const bots = botsService(ctx);
  const backtests = backtestsService(ctx);
  const tags = ['bots'];

  r.get('/api/bots/bots/', { schema: { tags, response: { 200: z.array(bot) } } }, (req) =>
    bots.listBots(req.user),
  );
  r.post(
    '/api/bots/bots/',
    { schema: { tags, body: botCreate, response: { 201: bot, ...errors } } },
    async (req, reply) => {
      const created = await bots.createBot(req.user, req.body ?? {});
      return reply.status(201).send(created);
    },
  );
  r.get(
    '/api/bots/bots/:id/',
    { schema: { tags, params: uuidParam, response: { 200: bot, ...errors } } },
    (req) => bots.getBot(req.user, req.params.id),
  );
  r.delete(
    '/api/bots/bots/:id/',
    { schema: { tags, params: uuidParam, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await bots.deleteBot(req.user, req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/bots/strategy-templates/',
    { schema: { tags, response: { 200: z.array(strategyTemplate) } } },
    () => strategyTemplates(),
  );

  r.get(
    '/api/bots/versions/',
    {
      schema: {
        tags,
        querystring: z.object({ bot_id: z.string().max(64).optional() }),
        response: { 200: z.array(botVersion), ...errors },
      },
    },
    (req) => bots.listVersions(req.user, req.query.bot_id),
  );
  r.post(
    '/api/bots/versions/',
    { schema: { tags, body: botVersionCreate, response: { 201: botVersion, ...errors } } },
    async (req, reply) => {
      const created = await bots.createVersion(req.user, req.body ?? {});
      return reply.status(201).send(created);
    },
  );
  r.get(
    '/api/bots/versions/:id/',
    { schema: { tags, params: uuidParam, response: { 200: botVersion, ...errors } } },
    (req) => bots.getVersion(req.user, req.params.id),
  );
  r.delete(
    '/api/bots/versions/:id/',
    { schema: { tags, params: uuidParam, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await bots.deleteVersion(req.user, req.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/bots/backtest-configs/',
    {
      schema: {
        tags,
        querystring: z.object({ bot_version_id: z.string().max(64).optional() }),
        response: { 200: z.array(backtestConfig), ...errors },
      },
    },
    (req) => bots.listConfigs(req.user, req.query.bot_version_id),
  );
  r.post(
    '/api/bots/backtest-configs/',
    { schema: { tags, body: backtestConfigWrite, response: { 201: backtestConfig, ...errors } } },
    async (req, reply) => {
      const created = await bots.createConfig(req.user, req.body ?? {});
      return reply.status(201).send(created);
    },
  );
  r.get(
    '/api/bots/backtest-configs/:id/',
    { schema: { tags, params: uuidParam, response: { 200: backtestConfig, ...errors } } },
    (req) => bots.getConfig(req.user, req.params.id),
  );
  r.put(
    '/api/bots/backtest-configs/:id/',
    {
      schema: {
        tags,
        params: uuidParam,
        body: backtestConfigWrite,
        response: { 200: backtestConfig, ...errors },
      },
    },
    (req) => bots.updateConfig(req.user, req.params.id, req.body ?? {}),
  );

  r.post(
    '/api/bots/backtests/launch/',
    { schema: { tags, body: backtestLaunch, response: { 201: backtestRun, ...errors } } },
    async (req, reply) => {
      const run = await backtests.launch(req.user, req.body ?? {});
      return reply.status(201).send(run);
    },
  );
  r.get(
    '/api/bots/backtest-runs/',
    {
      schema: {
        tags,
        querystring: z.object({ bot_version_id: z.string().max(64).optional() }),
        response: { 200: z.array(backtestRun), ...errors },
      },
    },
    (req) => backtests.listRuns(req.user, req.query.bot_version_id),
  );
  r.get(
    '/api/bots/backtest-runs/:id/',
    { schema: { tags, params: uuidParam, response: { 200: backtestRunDetail, ...errors } } },
    (req) => backtests.getRun(req.user, req.params.id),
  );
}
