import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorBody,
  reportBreakdowns,
  reportBreakdownsQuery,
  reportExcursions,
  reportExcursionsQuery,
  reportSummary,
  reportsQuery,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { reportsService } from './reports.service';

export function registerReportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = reportsService(ctx);
  const tags = ['reports'];
  const errors = { 400: errorBody, 401: errorBody, 404: errorBody };

  r.get(
    '/api/reports/summary/',
    {
      schema: {
        tags,
        summary: 'Figures, P/L calendar, R histogram, equity with drawdown, streaks and journal discipline',
        querystring: reportsQuery,
        response: { 200: reportSummary, ...errors },
      },
    },
    (request) => service.summary(request.user, request.query),
  );

  r.get(
    '/api/reports/breakdowns/',
    {
      schema: {
        tags,
        summary:
          'The figures grouped by instrument, direction, weekday, hour, session, holding time, journal tags, trader or bot vs manual',
        querystring: reportBreakdownsQuery,
        response: { 200: reportBreakdowns, ...errors },
      },
    },
    (request) => service.breakdowns(request.user, request.query),
  );

  r.get(
    '/api/reports/excursions/',
    {
      schema: {
        tags,
        summary:
          'MFE and MAE of the closed trades from stored M1 candles, winners that went negative first, money left on the table per R target',
        querystring: reportExcursionsQuery,
        response: { 200: reportExcursions, ...errors },
      },
    },
    (request) => service.excursions(request.user, request.query),
  );
}
