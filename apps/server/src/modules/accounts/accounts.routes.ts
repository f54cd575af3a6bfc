import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountCreate,
  accountDetails,
  accountSummary,
  accountSummaryQuery,
  accountUpdate,
  errorBody,
  mt5AccountDetails,
  tradingAccount,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { brokerRegistry } from '../../brokers/registry';
import { simAccountsWithOpenWork } from '../../brokers/sim/sim-store';
import { accountsRepo } from './accounts.repo';
import { accountsService } from './accounts.service';
import { accountSummaryService } from './account-summary.service';

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = accountsService(ctx);
  const tags = ['accounts'];
  ctx.onUserCreated((userId) => service.createDefaultSim(userId));
  app.addHook('onReady', () => startSimCheckers(ctx));

  r.get('/api/accounts/', { schema: { tags, response: { 200: z.array(tradingAccount) } } }, (request) =>
    service.list(request.user),
  );

  r.get(
    '/api/accounts/details/:id',
    {
      schema: { tags, params: uuidParam, response: { 200: accountDetails, 404: errorBody, 502: errorBody } },
    },
    (request) => service.details(request.user, request.params.id),
  );

  const summaries = accountSummaryService(ctx);
  r.get(
    '/api/accounts/:id/summary/',
    {
      schema: {
        tags,
        description:
          'The account strip: balance, equity, margin, free margin, margin level, open P/L and the P/L realised ' +
          'today (the calendar day that contains `as_of`, the broker clock, in `tz`; without `tz` in the zone ' +
          'saved at /api/users/me/settings/, else UTC).',
        params: uuidParam,
        querystring: accountSummaryQuery,
        response: { 200: accountSummary, 400: errorBody, 404: errorBody, 502: errorBody },
      },
    },
    (request) => summaries.summary(request.user, request.params.id, request.query.tz),
  );

  r.post(
    '/api/accounts/create/',
    { schema: { tags, body: accountCreate, response: { 201: tradingAccount, 400: errorBody } } },
    async (request, reply) => {
      const account = await service.create(request.user, request.body);
      reply.status(201);
      return account;
    },
  );

  r.delete(
    '/api/accounts/delete/:id/',
    { schema: { tags, params: uuidParam, response: { 204: z.null(), 404: errorBody } } },
    async (request, reply) => {
      await service.remove(request.user, request.params.id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/accounts/:id/',
    { schema: { tags, params: uuidParam, response: { 200: tradingAccount, 404: errorBody } } },
    (request) => service.get(request.user, request.params.id),
  );

  r.put(
    '/api/accounts/:id/',
    {
      schema: {
        tags,
        params: uuidParam,
        body: accountUpdate,
        response: { 200: tradingAccount, 400: errorBody, 404: errorBody },
      },
    },
    (request) => service.update(request.user, request.params.id, request.body ?? {}),
  );

  r.get(
    '/api/accounts/:id/mt5/',
    { schema: { tags, params: uuidParam, response: { 200: mt5AccountDetails, 404: errorBody } } },
    (request) => service.mt5(request.user, request.params.id),
  );
}

/**
 * Open positions and pending orders keep being checked against prices after a restart: every SIM
 * account that has some is connected at boot, which starts its checker.
 */
async function startSimCheckers(ctx: AppContext): Promise<void> {
  const ids = await simAccountsWithOpenWork(ctx.db);
  const rows = await accountsRepo(ctx.db).byIds(ids);
  const registry = brokerRegistry(ctx);
  for (const row of rows) {
    try {
      await registry.connected(row);
    } catch (err) {
      ctx.log.error({ err, account: row.id }, 'could not resume the sim checker');
    }
  }
}
