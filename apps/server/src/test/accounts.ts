import { expect } from 'vitest';
import type { Harness } from './harness';

/**
 * An account's stored row, read past the API: tests check what is stored (sealed secrets, meta)
 * and hand the row to the broker registry, which connects accounts by their row.
 */
export function accountRow(h: Harness, id: string) {
  return h.ctx.db.selectFrom('trading_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The stored row of the simulated Demo account every new user gets (their only account at first). */
export function demoAccountRow(h: Harness, userId: string) {
  return h.ctx.db
    .selectFrom('trading_accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('platform', '=', 'SIM')
    .executeTakeFirstOrThrow();
}

/** Creates an account through the API, as the user would, and returns its stored row. */
export async function createAccount(h: Harness, token: string, body: Record<string, unknown>) {
  const res = await h.request('POST', '/api/accounts/create/', { token, body });
  expect(res.statusCode).toBe(201);
  return accountRow(h, res.json().id);
}
