import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Db } from '../../db';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface TokenService {
  /** A new session: an access token and the first refresh token of a new family. */
  issue(user: AuthUser): Promise<TokenPair>;
  /** Rotates a refresh token; a token used twice revokes its whole family. Null when not valid. */
  refresh(refreshToken: string): Promise<TokenPair | null>;
  /** Logout: revokes the family of this refresh token (unknown tokens are ignored). */
  revoke(refreshToken: string): Promise<void>;
  verifyAccess(token: string): Promise<AuthUser | null>;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Short-lived signed access tokens (HS256 JWT, checked without a DB read) and opaque refresh tokens
 * kept server-side as SHA-256 hashes, rotated on every use (docs/security.md, "Sessions").
 */
export function createTokenService(
  db: Db,
  secret: string,
  accessTtl: number,
  refreshTtl: number,
  now: () => number = Date.now,
): TokenService {
  // Imported once: handing jose the raw bytes imports the key again on every sign and verify.
  const keyPromise = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );

  const signAccess = async (user: AuthUser) =>
    new SignJWT({ typ: 'access', username: user.username, is_staff: user.is_staff })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime(Math.floor(now() / 1000) + accessTtl)
      .sign(await keyPromise);

  async function newRefresh(userId: string, familyId: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await db
      .insertInto('refresh_tokens')
      .values({
        id: newId(),
        token_hash: hashToken(token),
        family_id: familyId,
        user_id: userId,
        expires_at: now() + refreshTtl * 1000,
        used_at: null,
        revoked_at: null,
        created_at: nowIso(),
      })
      .execute();
    return token;
  }

  const revokeFamily = (familyId: string) =>
    db
      .updateTable('refresh_tokens')
      .set({ revoked_at: nowIso() })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();

  return {
    async issue(user) {
      return { access: await signAccess(user), refresh: await newRefresh(user.id, newId()) };
    },

    async refresh(token) {
      const row = await db
        .selectFrom('refresh_tokens')
        .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
        .select([
          'refresh_tokens.id',
          'refresh_tokens.family_id',
          'refresh_tokens.expires_at',
          'users.id as user_id',
          'users.username',
          'users.is_staff',
        ])
        .where('refresh_tokens.token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (!row) return null;
      // Claim the token: only one caller can, so a copy used before or at the same time as the owner's
      // finds it claimed, which means the family leaked.
      const claimed = await db
        .updateTable('refresh_tokens')
        .set({ used_at: nowIso() })
        .where('id', '=', row.id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) {
        await revokeFamily(row.family_id);
        return null;
      }
      if (Number(row.expires_at) <= now()) return null;
      // The staff flag comes from the user row, never from the token.
      const user = { id: row.user_id, username: row.username, is_staff: row.is_staff === 1 };
      return { access: await signAccess(user), refresh: await newRefresh(user.id, row.family_id) };
    },

    async revoke(token) {
      const row = await db
        .selectFrom('refresh_tokens')
        .select('family_id')
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
      if (row) await revokeFamily(row.family_id);
    },

    async verifyAccess(token) {
      try {
        const { payload } = await jwtVerify(token, await keyPromise, { algorithms: ['HS256'] });
        if (
          payload.typ !== 'access' ||
          typeof payload.sub !== 'string' ||
          typeof payload.username !== 'string'
        )
          return null;
        return { id: payload.sub, username: payload.username, is_staff: payload.is_staff === true };
      } catch {
        return null;
      }
    },
  };
}
