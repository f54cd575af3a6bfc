import type { Transaction } from 'kysely';
import type { Db } from '../../db';
import type { Database } from '../../db/schema';
import type { TradeDealsTable, TradesTable } from '../../db/schema';

/** Trades the sync keeps in step with the broker: a submitting row may already have a position. */
const LIVE = ['submitting', 'pending', 'open'] as const;

/** Queries of trades and their deals; every read a route makes is scoped by the owning user. */
export function tradesRepo(db: Db | Transaction<Database>) {
  return {
    byIdFor: (userId: string, id: string) =>
      db
        .selectFrom('trades')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    /** Open and pending trades of one account (oldest first). */
    liveFor: (userId: string, accountId: string) =>
      db
        .selectFrom('trades')
        .selectAll()
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('status', 'in', [...LIVE])
        .orderBy('created_at')
        .execute(),
    closedSince: (userId: string, accountId: string, sinceIso: string) =>
      db
        .selectFrom('trades')
        .select(['actual_pl_minor', 'closed_at'])
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('status', '=', 'closed')
        .where('closed_at', '>=', sinceIso)
        .execute(),
    /** Accounts with live trades, for the sync to resume after a restart (internal, not a route). */
    liveAccountIds: async () =>
      (
        await db
          .selectFrom('trades')
          .select('account_id')
          .distinct()
          .where('status', 'in', [...LIVE])
          .execute()
      ).map((r) => r.account_id),
    byClientOrderId: (accountId: string, clientOrderId: string) =>
      db
        .selectFrom('trades')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('client_order_id', '=', clientOrderId)
        .executeTakeFirst(),
    byPositionId: (accountId: string, positionId: string) =>
      db
        .selectFrom('trades')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('position_id', '=', positionId)
        .executeTakeFirst(),
    byOrderId: (accountId: string, orderId: string) =>
      db
        .selectFrom('trades')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('order_id', '=', orderId)
        .executeTakeFirst(),
    insert: (row: TradesTable) => db.insertInto('trades').values(row).execute(),
    update: (id: string, set: Partial<TradesTable>) =>
      db.updateTable('trades').set(set).where('id', '=', id).execute(),
    /** Moves a trade to a state only from one of `from`; false when another writer got there first. */
    transition: async (id: string, from: TradesTable['status'][], set: Partial<TradesTable>) => {
      const res = await db
        .updateTable('trades')
        .set(set)
        .where('id', '=', id)
        .where('status', 'in', from)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    delete: (id: string) => db.deleteFrom('trades').where('id', '=', id).execute(),
    /** Records a deal once, however often the broker reports it. */
    insertDeal: (row: TradeDealsTable) =>
      db
        .insertInto('trade_deals')
        .values(row)
        .onConflict((oc) => oc.columns(['account_id', 'broker_deal_id']).doNothing())
        .execute(),
    /** Profit + commission + swap of every deal of the account since an instant, in minor units. */
    dealMoneySince: async (userId: string, accountId: string, sinceIso: string): Promise<number> => {
      const rows = await db
        .selectFrom('trade_deals')
        .select(['profit_minor', 'commission_minor', 'swap_minor'])
        .where('user_id', '=', userId)
        .where('account_id', '=', accountId)
        .where('filled_at', '>=', sinceIso)
        .execute();
      return rows.reduce(
        (s, d) => s + Number(d.profit_minor) + Number(d.commission_minor) + Number(d.swap_minor),
        0,
      );
    },
    dealsOf: (tradeId: string) =>
      db.selectFrom('trade_deals').selectAll().where('trade_id', '=', tradeId).orderBy('filled_at').execute(),

    request: (userId: string, key: string) =>
      db
        .selectFrom('trade_requests')
        .selectAll()
        .where('user_id', '=', userId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst(),
    /** Claims an Idempotency-Key for a body before the request runs; a key already claimed stays as it is. */
    claimRequest: (userId: string, key: string, bodyHash: string) =>
      db
        .insertInto('trade_requests')
        .values({
          user_id: userId,
          idempotency_key: key,
          status: 'pending',
          status_code: null,
          response: null,
          created_at: new Date().toISOString(),
          body_hash: bodyHash,
        })
        .onConflict((oc) => oc.columns(['user_id', 'idempotency_key']).doNothing())
        .execute(),
    /** Stores the first answer to an Idempotency-Key; a later one for the same key is ignored. */
    saveRequest: (userId: string, key: string, statusCode: number, response: string, bodyHash: string) =>
      db
        .insertInto('trade_requests')
        .values({
          user_id: userId,
          idempotency_key: key,
          status: 'done',
          status_code: statusCode,
          response,
          created_at: new Date().toISOString(),
          body_hash: bodyHash,
        })
        .onConflict((oc) =>
          oc
            .columns(['user_id', 'idempotency_key'])
            .doUpdateSet({ status: 'done', status_code: statusCode, response })
            .where('trade_requests.status', '=', 'pending'),
        )
        .execute(),
    byClientOrderIdFor: (userId: string, clientOrderId: string) =>
      db
        .selectFrom('trades')
        .selectAll()
        .where('user_id', '=', userId)
        .where('client_order_id', '=', clientOrderId)
        .executeTakeFirst(),
  };
}

export type TradesRepo = ReturnType<typeof tradesRepo>;
