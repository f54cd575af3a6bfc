import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ctraderAccountStatus,
  ctraderCallbackQuery,
  ctraderMessage,
  ctraderRedirectQuery,
  ctraderRedirectResponse,
  ctraderSelectAccount,
  errorBody,
  uuidParam,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { ctraderService } from './ctrader.service';

/**
 * cTrader OAuth2 authorisation-code flow (docs/ctrader.md). The paths keep the double prefix of the
 * product's API (`/api/ctrader/api/ctrader/...`). The callback is public: the browser arrives from
 * cTrader without our bearer token, and the signed `state` says whose account it is.
 */
export function registerCTraderRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = ctraderService(ctx);
  const tags = ['ctrader'];
  const errors = { 400: errorBody, 404: errorBody, 502: errorBody, 503: errorBody };

  r.get(
    '/api/ctrader/api/ctrader/redirect/',
    {
      schema: {
        tags,
        querystring: ctraderRedirectQuery,
        response: { 200: ctraderRedirectResponse, ...errors },
      },
    },
    async (request) => ({ redirect_url: await service.redirectUrl(request.user, request.query.account_id) }),
  );

  r.get(
    '/api/ctrader/api/ctrader/callback/',
    {
      config: { public: true },
      schema: { tags, querystring: ctraderCallbackQuery, response: errors },
      // warn: the URL carries the authorisation code (worth a token pair with our client secret),
      // and info-level request lines would log it.
      logLevel: 'warn',
    },
    async (request, reply) => reply.redirect(await service.callback(request.query), 302),
  );

  r.post(
    '/api/ctrader/api/ctrader/select-account/',
    { schema: { tags, body: ctraderSelectAccount, response: { 200: ctraderMessage, ...errors } } },
    (request) => service.selectAccount(request.user, request.body),
  );

  r.get(
    '/api/ctrader/api/ctrader/account/:id/',
    {
      schema: { tags, params: uuidParam, response: { 200: ctraderAccountStatus, 422: errorBody, ...errors } },
    },
    (request) => service.status(request.user, request.params.id),
  );
}
