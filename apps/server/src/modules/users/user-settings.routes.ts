import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBody, userSettings, userSettingsUpdate } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { userSettingsService } from './user-settings.service';

export function registerUserSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = userSettingsService(ctx);
  const tags = ['users'];

  r.get(
    '/api/users/me/settings/',
    {
      schema: {
        tags,
        summary: "The signed-in user's settings: the time zone reports and the account strip use",
        response: { 200: userSettings, 401: errorBody },
      },
    },
    (request) => service.get(request.user),
  );

  r.patch(
    '/api/users/me/settings/',
    {
      schema: {
        tags,
        summary: 'Changes the fields sent: time_zone is an IANA zone name or UTC, null clears it',
        body: userSettingsUpdate,
        response: { 200: userSettings, 400: errorBody, 401: errorBody },
      },
    },
    (request) => service.update(request.user, request.body),
  );
}
