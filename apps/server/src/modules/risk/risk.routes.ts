import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accountParam,
  errorBody,
  riskSettings,
  riskSettingsPatch,
  riskSettingsUpdate,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { riskService } from './risk.service';

export function registerRiskRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = riskService(ctx);
  const tags = ['risk settings'];
  const url = '/api/risk/settings/:account/';

  r.get(
    url,
    { schema: { tags, params: accountParam, response: { 200: riskSettings, 404: errorBody } } },
    (request) => service.get(request.user, request.params.account),
  );

  r.put(
    url,
    {
      schema: {
        tags,
        description: 'Replaces the rule fields; 409 while the last change is less than 7 days old.',
        params: accountParam,
        body: riskSettingsUpdate,
        response: { 200: riskSettings, 400: errorBody, 404: errorBody, 409: errorBody },
      },
    },
    (request) => service.put(request.user, request.params.account, request.body),
  );

  r.patch(
    url,
    {
      schema: {
        tags,
        description: "Sets the account's default TP profile (default_tp_profile_id; null clears it).",
        params: accountParam,
        body: riskSettingsPatch,
        response: { 200: riskSettings, 400: errorBody, 404: errorBody },
      },
    },
    (request) => service.patch(request.user, request.params.account, request.body),
  );
}
