import { AUTH_MESSAGES } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { Db } from '../../db';
import type { UsersTable } from '../../db/schema';
import { badRequest, conflict } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import type { AuthUser } from '../../request-context';
import { COMMON_PASSWORDS } from '../auth/common-passwords';
import { isUniqueViolation } from '../../db/unique-violation';
import { usernameKey, usersRepo } from './users.repo';

/** The rules the contract cannot check alone: not a common password, not the username. */
export function passwordProblem(username: string, password: string): string | undefined {
  const p = password.trim().toLowerCase();
  if (COMMON_PASSWORDS.has(p)) return AUTH_MESSAGES.passwordCommon;
  if (p === usernameKey(username)) return AUTH_MESSAGES.passwordIsUsername;
  return undefined;
}

export function usersService(ctx: AppContext) {
  const repo = usersRepo(ctx.db);
  const taken = () => conflict({ username: [AUTH_MESSAGES.usernameTaken] });

  async function newRow(username: string, password: string, isStaff: boolean): Promise<UsersTable> {
    const name = username.trim();
    const problem = passwordProblem(name, password);
    if (problem) throw badRequest({ password: [problem] });
    if (await repo.byUsername(name)) throw taken();
    return {
      id: newId(),
      username: name,
      username_key: usernameKey(name),
      is_staff: isStaff ? 1 : 0,
      password_hash: await hashPassword(password),
      created_at: nowIso(),
    };
  }
  async function insert(row: UsersTable, write: (db: Db) => Promise<unknown>): Promise<AuthUser> {
    try {
      await write(ctx.db);
    } catch (e) {
      // Two requests for one name (in any case) can pass the check above together; the index decides.
      if (isUniqueViolation(e) && (await repo.byUsername(row.username))) throw taken();
      throw e;
    }
    await ctx.userCreated(row.id);
    return { id: row.id, username: row.username, is_staff: row.is_staff === 1 };
  }

  return {
    async create(username: string, password: string, isStaff: boolean): Promise<AuthUser> {
      const row = await newRow(username, password, isStaff);
      return insert(row, (db) => repo.insert(row, db));
    },
    async needsBootstrap(): Promise<boolean> {
      return !(await repo.bootstrapDone()) && (await repo.count()) === 0;
    },
    /**
     * The very first user, made from the login page; staff so that they can manage global items.
     * The marker row and the user are written in one transaction, and the marker's primary key lets
     * exactly one of any number of simultaneous bootstraps commit.
     */
    async bootstrap(username: string, password: string): Promise<AuthUser> {
      if (!(await this.needsBootstrap())) throw conflict(AUTH_MESSAGES.bootstrapDone);
      const row = await newRow(username, password, true);
      try {
        return await insert(row, (db) =>
          db.transaction().execute(async (tx) => {
            await repo.claimBootstrap(row.id, tx);
            await repo.insert(row, tx);
          }),
        );
      } catch (e) {
        if (isUniqueViolation(e) && (await repo.bootstrapDone())) throw conflict(AUTH_MESSAGES.bootstrapDone);
        throw e;
      }
    },
  };
}
