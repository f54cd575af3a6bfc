import type { Db } from '../../db';
import type { SnapshotTasksTable } from '../../db/schema';

/** Snapshot task rows: the queue of the snapshot runner and what the task endpoint reads. */
export function tasksRepo(db: Db) {
  return {
    insert: (row: SnapshotTasksTable) => db.insertInto('snapshot_tasks').values(row).execute(),
    ownedById: (userId: string, id: string) =>
      db
        .selectFrom('snapshot_tasks')
        .selectAll()
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst(),
    /** Runner only: the id comes from our own queue. */
    byId: (id: string) => db.selectFrom('snapshot_tasks').selectAll().where('id', '=', id).executeTakeFirst(),
    update: (
      id: string,
      set: Partial<
        Pick<SnapshotTasksTable, 'status' | 'error' | 'attachment_ids' | 'attempts' | 'updated_at'>
      >,
    ) => db.updateTable('snapshot_tasks').set(set).where('id', '=', id).execute(),
    /** The trade behind a journal entry of this user, for the account, levels and time of the charts. */
    journalTrade: (userId: string, journalId: string) =>
      db
        .selectFrom('trade_journals as j')
        .innerJoin('trades as t', 't.id', 'j.trade_id')
        .select([
          't.account_id',
          't.symbol',
          't.direction',
          't.entry_price',
          't.limit_price',
          't.stop_loss',
          't.take_profit',
          't.opened_at',
          't.created_at',
        ])
        .where('j.user_id', '=', userId)
        .where('j.id', '=', journalId)
        .executeTakeFirst(),
  };
}
