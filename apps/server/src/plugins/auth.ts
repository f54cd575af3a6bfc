import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '@tradedesk/contract';
import { unauthorized } from '../lib/http-error';
import type { TokenService } from '../modules/auth/tokens';
import type { AuthUser } from '../request-context';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Route answers without a bearer token. */
    public?: boolean;
  }
  interface FastifyRequest {
    user: AuthUser;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m?.[1]?.trim();
}

/** Every /api route needs a valid access token unless its config says `public: true`. */
export function registerAuth(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('user', null as unknown as AuthUser);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') || request.routeOptions.config?.public) return;
    const token = bearerToken(request);
    if (!token) throw unauthorized(AUTH_MESSAGES.noCredentials);
    const user = await tokens.verifyAccess(token);
    if (!user) throw unauthorized(AUTH_MESSAGES.tokenInvalid);
    request.user = user;
  });
}
