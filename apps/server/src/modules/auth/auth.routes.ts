import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUTH_MESSAGES,
  bootstrapRequest,
  bootstrapStatus,
  createUserRequest,
  currentUser,
  errorBody,
  refreshRequest,
  refreshResponse,
  tokenRequest,
  tokenResponse,
} from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { forbidden, HttpError, unauthorized } from '../../lib/http-error';
import { DUMMY_HASH_PROMISE, verifyPassword } from '../../lib/password';
import { usersRepo } from '../users/users.repo';
import { usersService } from '../users/users.service';
import { createLoginLimiter } from './rate-limit';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const users = usersRepo(ctx.db);
  const service = usersService(ctx);
  const limiter = createLoginLimiter(ctx.db, ctx.config.loginAttemptsPerMinute);
  const tags = ['auth'];

  r.post(
    '/api/token/',
    {
      config: { public: true },
      schema: { tags, body: tokenRequest, response: { 200: tokenResponse, 401: errorBody, 429: errorBody } },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      // Reserved before the password is checked, so attempts in flight count against the limit.
      const wait = await limiter.reserve(request.ip, username);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        throw new HttpError(429, `${AUTH_MESSAGES.tooManyAttempts} (retry in ${wait} s)`);
      }
      const row = await users.byUsername(username);
      const ok = await verifyPassword(password, row?.password_hash ?? (await DUMMY_HASH_PROMISE));
      if (!row || !ok) throw unauthorized(AUTH_MESSAGES.badCredentials);
      await limiter.release(request.ip, username);
      return ctx.tokens.issue({ id: row.id, username: row.username, is_staff: row.is_staff === 1 });
    },
  );

  r.post(
    '/api/token/refresh/',
    {
      config: { public: true },
      schema: {
        tags,
        description:
          'Rotates the refresh token: answers a new pair and spends the one sent. Sending a spent token again revokes every token of that sign-in.',
        body: refreshRequest,
        response: { 200: refreshResponse, 401: errorBody },
      },
    },
    async (request) => {
      const out = await ctx.tokens.refresh(request.body.refresh);
      if (!out) throw unauthorized('Token is invalid or expired');
      return out;
    },
  );

  r.post(
    '/api/token/logout/',
    {
      config: { public: true },
      schema: {
        tags,
        description:
          'Revokes the refresh token sent and every token rotated from the same sign-in. Access tokens already issued stay valid until they expire.',
        body: refreshRequest,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await ctx.tokens.revoke(request.body.refresh);
      return reply.status(204).send(null);
    },
  );

  r.get('/api/accounts/me/', { schema: { tags, response: { 200: currentUser } } }, async (request) => {
    const row = await users.byId(request.user.id);
    if (!row) throw unauthorized(AUTH_MESSAGES.tokenInvalid);
    return { id: row.id, username: row.username, is_staff: row.is_staff === 1 };
  });

  r.get(
    '/api/users/bootstrap/',
    { config: { public: true }, schema: { tags, response: { 200: bootstrapStatus } } },
    async () => ({ needs_bootstrap: await service.needsBootstrap() }),
  );

  r.post(
    '/api/users/bootstrap/',
    {
      config: { public: true },
      schema: { tags, body: bootstrapRequest, response: { 201: tokenResponse, 409: errorBody } },
    },
    async (request, reply) => {
      const user = await service.bootstrap(request.body.username, request.body.password);
      reply.status(201);
      return ctx.tokens.issue(user);
    },
  );

  // Staff add the other users of an installation (the first user is staff).
  r.post(
    '/api/users/',
    {
      schema: {
        tags,
        body: createUserRequest,
        response: { 201: currentUser, 403: errorBody, 409: errorBody },
      },
    },
    async (request, reply) => {
      if (!request.user.is_staff) throw forbidden('Only staff may create users.');
      const { username, password, is_staff } = request.body;
      const user = await service.create(username, password, is_staff ?? false);
      reply.status(201);
      return user;
    },
  );
}
