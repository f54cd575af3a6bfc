import { AUTH_MESSAGES } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { conflict } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import type { AuthUser } from '../auth/tokens';
import { usersRepo } from './users.repo';

export function usersService(ctx: AppContext) {
  const repo = usersRepo(ctx.db);
  return {
    async create(username: string, password: string, isStaff: boolean): Promise<AuthUser> {
      const name = username.trim();
      if (await repo.byUsername(name))
        throw conflict({ username: ['A user with that username already exists.'] });
      const user = { id: newId(), username: name, is_staff: isStaff };
      await repo.insert({
        ...user,
        is_staff: isStaff ? 1 : 0,
        password_hash: await hashPassword(password),
        created_at: nowIso(),
      });
      await ctx.userCreated(user.id);
      return user;
    },
    async needsBootstrap(): Promise<boolean> {
      return (await repo.count()) === 0;
    },
    /** The very first user, made from the login page; staff so that they can manage global items. */
    async bootstrap(username: string, password: string): Promise<AuthUser> {
      if ((await repo.count()) > 0) throw conflict(AUTH_MESSAGES.bootstrapDone);
      return this.create(username, password, true);
    },
  };
}
