import type { Db } from '../../db';
import type { SimDealsTable, SimOrdersTable, SimPositionsTable } from '../../db/schema';
import { newId } from '../../lib/ids';

/** Queries of the simulated broker's state; every one scoped by account and owning user. */
export function simStore(db: Db, accountId: string, userId: string) {
  return {
    account: () =>
      db
        .selectFrom('sim_accounts')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    positions: () =>
      db
        .selectFrom('sim_positions')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .orderBy('opened_at')
        .execute(),
    pendingOrders: () =>
      db
        .selectFrom('sim_orders')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .where('status', '=', 'PENDING')
        .orderBy('created_at')
        .execute(),
    orderByClientId: (clientOrderId: string) =>
      db
        .selectFrom('sim_orders')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .where('client_order_id', '=', clientOrderId)
        .executeTakeFirst(),
    deals: (fromIso: string, toIso: string) =>
      db
        .selectFrom('sim_deals')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .where('time', '>=', fromIso)
        .where('time', '<', toIso)
        .orderBy('time')
        .orderBy('id')
        .execute(),
    balanceHistory: () =>
      db
        .selectFrom('sim_balance_history')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('user_id', '=', userId)
        .orderBy('time')
        .execute(),

    /** Writes one state change atomically: the in-memory state is updated only after it commits. */
    apply: (change: SimChange) =>
      db.transaction().execute(async (trx) => {
        if (change.insertOrder) await trx.insertInto('sim_orders').values(change.insertOrder).execute();
        if (change.updateOrder) {
          const { id, ...rest } = change.updateOrder;
          await trx
            .updateTable('sim_orders')
            .set(rest)
            .where('id', '=', id)
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId)
            .execute();
        }
        if (change.insertPosition)
          await trx.insertInto('sim_positions').values(change.insertPosition).execute();
        if (change.updatePosition) {
          const { id, ...rest } = change.updatePosition;
          await trx
            .updateTable('sim_positions')
            .set(rest)
            .where('id', '=', id)
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId)
            .execute();
        }
        if (change.deletePosition) {
          await trx
            .deleteFrom('sim_positions')
            .where('id', '=', change.deletePosition)
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId)
            .execute();
        }
        if (change.insertDeal) await trx.insertInto('sim_deals').values(change.insertDeal).execute();
        if (change.balance && change.balance.delta !== 0) {
          await trx
            .updateTable('sim_accounts')
            .set({ balance_minor: change.balance.after, updated_at: change.balance.time })
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId)
            .execute();
          await trx
            .insertInto('sim_balance_history')
            .values({
              id: newId(),
              account_id: accountId,
              user_id: userId,
              time: change.balance.time,
              delta_minor: change.balance.delta,
              balance_minor: change.balance.after,
              reason: 'DEAL',
              deal_id: change.insertDeal?.id ?? null,
            })
            .execute();
        }
      }),
  };
}

export interface SimChange {
  insertOrder?: SimOrdersTable;
  updateOrder?: Partial<SimOrdersTable> & { id: string };
  insertPosition?: SimPositionsTable;
  updatePosition?: Partial<SimPositionsTable> & { id: string };
  deletePosition?: string;
  insertDeal?: SimDealsTable;
  balance?: { delta: number; after: number; time: string };
}

/** Opens the simulated ledger of a new SIM account with its first deposit. */
export async function openSimLedger(
  db: Db,
  accountId: string,
  userId: string,
  balanceMinor: number,
  time: string,
): Promise<void> {
  await db
    .insertInto('sim_accounts')
    .values({
      account_id: accountId,
      user_id: userId,
      balance_minor: balanceMinor,
      created_at: time,
      updated_at: time,
    })
    .execute();
  await db
    .insertInto('sim_balance_history')
    .values({
      id: newId(),
      account_id: accountId,
      user_id: userId,
      time,
      delta_minor: balanceMinor,
      balance_minor: balanceMinor,
      reason: 'DEPOSIT',
      deal_id: null,
    })
    .execute();
}

/** SIM accounts that have open positions or pending orders: their checkers start at boot. */
export async function simAccountsWithOpenWork(db: Db): Promise<string[]> {
  const positions = await db.selectFrom('sim_positions').select('account_id').distinct().execute();
  const orders = await db
    .selectFrom('sim_orders')
    .select('account_id')
    .where('status', '=', 'PENDING')
    .distinct()
    .execute();
  return [...new Set([...positions, ...orders].map((r) => r.account_id))];
}
