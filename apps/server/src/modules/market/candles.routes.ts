import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CANDLES_HTTP_MAX_BARS,
  candleImportForm,
  candleImportResult,
  candlesQuery,
  candlesResponse,
  errorBody,
} from '@tradedesk/contract';
import {
  CHART_TIMEFRAMES,
  isCandleTimeframe,
  seriesColumns,
  TIMEFRAME_MS,
  type CandleTimeframe,
} from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { badRequest, HttpError } from '../../lib/http-error';
import { importCandleFile } from '../../market/candle-import';
import { candleStore } from '../../market/candle-store';

const tags = ['market'];

const tooLarge = () => new HttpError(413, 'The file is too large: at most 10 MB.');

const tooMany = () =>
  badRequest(`Too many candles: ask for at most ${CANDLES_HTTP_MAX_BARS.toLocaleString('en-US')} at a time.`);

/** The store's timeframe for a wire name (M1 … MN1 or a chart choice such as 1h). */
function timeframeOf(name: string): CandleTimeframe {
  return isCandleTimeframe(name) ? name : CHART_TIMEFRAMES[name as keyof typeof CHART_TIMEFRAMES];
}

export function registerCandleRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const store = candleStore(ctx);

  r.get(
    '/api/market/candles/',
    {
      schema: {
        tags,
        querystring: candlesQuery,
        response: { 200: candlesResponse, 400: errorBody, 404: errorBody, 502: errorBody },
      },
    },
    async (request) => {
      const q = request.query;
      const timeframe = timeframeOf(q.timeframe);
      const fromMs = Date.parse(q.from);
      const toMs = Date.parse(q.to);
      // Refuse a range far too long before reading it; gaps (weekends) make the estimate generous.
      const barMs = timeframe === 'MN1' ? 28 * 86_400_000 : TIMEFRAME_MS[timeframe];
      if ((toMs - fromMs) / barMs > 2 * CANDLES_HTTP_MAX_BARS) throw tooMany();
      const s = await store.series({
        userId: request.user.id,
        ...(q.account !== undefined ? { accountId: q.account } : { source: q.source }),
        symbol: q.symbol,
        timeframe,
        fromMs,
        toMs,
      });
      if (s.time.length > CANDLES_HTTP_MAX_BARS) throw tooMany();
      return { symbol: q.symbol, timeframe, ...seriesColumns(s) };
    },
  );

  r.post(
    '/api/market/candles/import/',
    {
      schema: {
        tags,
        summary: 'Imports a CSV file of M1 bars into your own candle store (read back with source=csv)',
        multipart: candleImportForm,
        response: { 201: candleImportResult, 400: errorBody, 413: errorBody },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data.');
      const fields: Record<string, string> = {};
      let file: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            if (part.file.truncated) throw tooLarge();
            if (part.fieldname === 'file') file = data;
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (e instanceof HttpError) throw e;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        if (code === 'FST_FILES_LIMIT') throw badRequest('Send one file per request.');
        throw e;
      }
      const result = await importCandleFile(ctx, request.user.id, fields, file);
      reply.status(201);
      return result;
    },
  );
}
