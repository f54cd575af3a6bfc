import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorBody,
  historyExportQuery,
  historyStats,
  historyStatsQuery,
  historySyncResult,
  historyTrade,
  historyTradesPage,
  historyTradesQuery,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { historyService } from './history.service';

export function registerHistoryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = historyService(ctx);
  const tags = ['history'];
  const errors = { 400: errorBody, 401: errorBody, 404: errorBody };

  r.get(
    '/api/history/accounts/:id/trades/',
    {
      schema: {
        tags,
        summary: 'Trades of an account, filtered and sorted, a keyset page at a time',
        params: uuidParam,
        querystring: historyTradesQuery,
        response: { 200: historyTradesPage, ...errors },
      },
    },
    (request) => service.list(request.user, request.params.id, request.query),
  );

  r.get(
    '/api/history/trades/:id/',
    {
      schema: {
        tags,
        summary: 'One trade with its order history',
        params: uuidParam,
        response: { 200: historyTrade, 401: errorBody, 404: errorBody },
      },
    },
    (request) => service.detail(request.user, request.params.id),
  );

  r.get(
    '/api/history/accounts/:id/stats/',
    {
      schema: {
        tags,
        summary: 'Performance of the trades closed in the range, with the equity curve',
        params: uuidParam,
        querystring: historyStatsQuery,
        response: { 200: historyStats, ...errors },
      },
    },
    (request) => service.stats(request.user, request.params.id, request.query),
  );

  r.get(
    '/api/history/accounts/:id/trades.csv',
    {
      schema: {
        tags,
        summary: 'The filtered trades as a CSV download (same filters and sort as the list)',
        params: uuidParam,
        querystring: historyExportQuery,
        produces: ['text/csv'],
        response: errors,
      },
    },
    async (request, reply) => {
      const { filename, lines } = await service.exportCsv(request.user, request.params.id, request.query);
      void reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store');
      // A stream is sent as it is: the zod serializer only sees the JSON error answers.
      return (reply as FastifyReply).send(Readable.from(lines));
    },
  );

  r.post(
    '/api/history/accounts/:id/sync/',
    {
      schema: {
        tags,
        summary: "Pulls the broker's deal history for the account now",
        params: uuidParam,
        response: { 200: historySyncResult, 401: errorBody, 404: errorBody, 502: errorBody },
      },
    },
    (request) => service.runSync(request.user, request.params.id),
  );
}
