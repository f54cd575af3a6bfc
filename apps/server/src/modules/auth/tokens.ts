import { SignJWT, jwtVerify } from 'jose';

export interface AuthUser {
  id: string;
  username: string;
  is_staff: boolean;
}

export interface TokenService {
  issue(user: AuthUser): Promise<{ access: string; refresh: string }>;
  refresh(refreshToken: string): Promise<{ access: string } | null>;
  verifyAccess(token: string): Promise<AuthUser | null>;
}

export function createTokenService(secret: string, accessTtl: number, refreshTtl: number): TokenService {
  const key = new TextEncoder().encode(secret);
  const sign = (user: AuthUser, typ: 'access' | 'refresh', ttl: number) =>
    new SignJWT({ typ, username: user.username, is_staff: user.is_staff })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
      .sign(key);

  async function verify(token: string, typ: 'access' | 'refresh'): Promise<AuthUser | null> {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      if (payload.typ !== typ || typeof payload.sub !== 'string' || typeof payload.username !== 'string')
        return null;
      return { id: payload.sub, username: payload.username, is_staff: payload.is_staff === true };
    } catch {
      return null;
    }
  }

  return {
    async issue(user) {
      return {
        access: await sign(user, 'access', accessTtl),
        refresh: await sign(user, 'refresh', refreshTtl),
      };
    },
    async refresh(token) {
      const user = await verify(token, 'refresh');
      return user ? { access: await sign(user, 'access', accessTtl) } : null;
    },
    verifyAccess: (token) => verify(token, 'access'),
  };
}
