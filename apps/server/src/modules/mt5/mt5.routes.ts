import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorBody,
  mt5AccountInfo,
  mt5ConnectRequest,
  mt5ConnectResponse,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { mt5Service } from './mt5.service';

export function registerMt5Routes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = mt5Service(ctx);
  const tags = ['mt5'];
  const errors = { 400: errorBody, 404: errorBody, 422: errorBody, 502: errorBody };

  r.post(
    '/api/mt5/connect/',
    { schema: { tags, body: mt5ConnectRequest, response: { 200: mt5ConnectResponse, ...errors } } },
    (request) => service.connect(request.user, request.body ?? {}),
  );

  r.get(
    '/api/mt5/account/:id',
    { schema: { tags, params: uuidParam, response: { 200: mt5AccountInfo, ...errors } } },
    (request) => service.account(request.user, request.params.id),
  );
}
