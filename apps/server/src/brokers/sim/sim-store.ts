import type { Db } from '../../db';
import type { SelectQueryBuilder, Selectable } from 'kysely';
import type {
  Database,
  SimBalanceHistoryTable,
  SimDealsTable,
  SimOrdersTable,
  SimPositionsTable,
} from '../../db/schema';
import { newId } from '../../lib/ids';

type SimTable = 'sim_accounts' | 'sim_positions' | 'sim_orders' | 'sim_deals' | 'sim_balance_history';

/** Queries of the simulated broker's state; every one scoped by account and owning user. */
export function simStore(db: Db, accountId: string, userId: string) {
  /**
   * One table's rows of this account, as the owning user: the scope of every read below. Kysely cannot
   * type a table chosen by a type parameter, hence the cast back to the named table's rows.
   */
  const owned = <T extends SimTable>(table: T) =>
    db
      .selectFrom(table as SimTable)
      .selectAll()
      .where('account_id', '=', accountId)
      .where('user_id', '=', userId) as unknown as SelectQueryBuilder<Database, T, Selectable<Database[T]>>;

  return {
    account: () => owned('sim_accounts').executeTakeFirst(),
    positions: () => owned('sim_positions').orderBy('opened_at').execute(),
    pendingOrders: () => owned('sim_orders').where('status', '=', 'PENDING').orderBy('created_at').execute(),
    orderByClientId: (clientOrderId: string) =>
      owned('sim_orders').where('client_order_id', '=', clientOrderId).executeTakeFirst(),
    deals: (fromIso: string, toIso: string) =>
      owned('sim_deals')
        .where('time', '>=', fromIso)
        .where('time', '<', toIso)
        .orderBy('time')
        .orderBy('id')
        .execute(),
    balanceHistory: () => owned('sim_balance_history').orderBy('time').execute(),

    /**
     * Writes one state change atomically and returns the balance after it. Updates of positions and
     * orders are guarded by the state they were read in (volume, PENDING status): when another server
     * process got there first nothing matches, the transaction rolls back and SimStateConflict is thrown,
     * so a position can never be closed twice or an order filled twice.
     */
    apply: (change: SimChange): Promise<number | undefined> =>
      db.transaction().execute(async (trx) => {
        const guard = (n: bigint | undefined, what: string) => {
          if (Number(n ?? 0) !== 1) throw new SimStateConflict(what);
        };
        if (change.insertOrder) await trx.insertInto('sim_orders').values(change.insertOrder).execute();
        if (change.updateOrder) {
          const { id, ...rest } = change.updateOrder;
          const r = await trx
            .updateTable('sim_orders')
            .set(rest)
            .where('id', '=', id)
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId)
            .where('status', '=', 'PENDING')
            .executeTakeFirst();
          guard(r.numUpdatedRows, `order ${id} is no longer pending`);
        }
        if (change.insertPosition)
          await trx.insertInto('sim_positions').values(change.insertPosition).execute();
        if (change.updatePosition) {
          const { id, expectVolume, ...rest } = change.updatePosition;
          let q = trx
            .updateTable('sim_positions')
            .set(rest)
            .where('id', '=', id)
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId);
          if (expectVolume !== undefined) q = q.where('volume', '=', expectVolume);
          guard((await q.executeTakeFirst()).numUpdatedRows, `position ${id} changed`);
        }
        if (change.deletePosition) {
          const r = await trx
            .deleteFrom('sim_positions')
            .where('id', '=', change.deletePosition.id)
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId)
            .where('volume', '=', change.deletePosition.expectVolume)
            .executeTakeFirst();
          guard(r.numDeletedRows, `position ${change.deletePosition.id} changed`);
        }
        if (change.insertDeal) await trx.insertInto('sim_deals').values(change.insertDeal).execute();
        if (!change.balance) return undefined;
        const { delta, time } = change.balance;
        if (delta !== 0) {
          // Relative update: concurrent writers add up instead of overwriting each other.
          await trx
            .updateTable('sim_accounts')
            .set((eb) => ({ balance_minor: eb('balance_minor', '+', delta), updated_at: time }))
            .where('account_id', '=', accountId)
            .where('user_id', '=', userId)
            .execute();
        }
        const after = Number(
          (
            await trx
              .selectFrom('sim_accounts')
              .select('balance_minor')
              .where('account_id', '=', accountId)
              .where('user_id', '=', userId)
              .executeTakeFirstOrThrow()
          ).balance_minor,
        );
        if (delta !== 0) {
          await trx
            .insertInto('sim_balance_history')
            .values(ledgerEntry(accountId, userId, time, delta, after, 'DEAL', change.insertDeal?.id ?? null))
            .execute();
        }
        return after;
      }),
  };
}

/** The stored state moved on (another process filled, closed or cancelled first). */
export class SimStateConflict extends Error {
  constructor(what: string) {
    super(`Simulated broker state changed: ${what}.`);
    this.name = 'SimStateConflict';
  }
}

export interface SimChange {
  insertOrder?: SimOrdersTable;
  /** Applies only to a PENDING order. */
  updateOrder?: Partial<SimOrdersTable> & { id: string };
  insertPosition?: SimPositionsTable;
  updatePosition?: Partial<SimPositionsTable> & { id: string; expectVolume?: number };
  deletePosition?: { id: string; expectVolume: number };
  insertDeal?: SimDealsTable;
  balance?: { delta: number; time: string };
}

/** One line of the balance history: a change of `delta` leaving the balance at `after` (minor units). */
const ledgerEntry = (
  accountId: string,
  userId: string,
  time: string,
  delta: number,
  after: number,
  reason: 'DEAL' | 'DEPOSIT',
  dealId: string | null,
): SimBalanceHistoryTable => ({
  id: newId(),
  account_id: accountId,
  user_id: userId,
  time,
  delta_minor: delta,
  balance_minor: after,
  reason,
  deal_id: dealId,
});

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
    .values(ledgerEntry(accountId, userId, time, balanceMinor, balanceMinor, 'DEPOSIT', null))
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
