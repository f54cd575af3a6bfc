import type { Db } from '../../db';
import type { ChartSnapshotConfigsTable } from '../../db/schema';

/** Snapshot templates: the caller's own and every global one are visible; only the owner's rows change. */
export function configsRepo(db: Db) {
  return {
    visibleTo: (userId: string) =>
      db
        .selectFrom('chart_snapshot_configs')
        .selectAll()
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('is_global', '=', 1)]))
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    visibleById: (userId: string, id: string) =>
      db
        .selectFrom('chart_snapshot_configs')
        .selectAll()
        .where('id', '=', id)
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('is_global', '=', 1)]))
        .executeTakeFirst(),
    insert: (row: ChartSnapshotConfigsTable) => db.insertInto('chart_snapshot_configs').values(row).execute(),
    update: (
      userId: string,
      id: string,
      set: Pick<ChartSnapshotConfigsTable, 'name' | 'is_global' | 'indicator_settings' | 'updated_at'>,
    ) =>
      db
        .updateTable('chart_snapshot_configs')
        .set(set)
        .where('user_id', '=', userId)
        .where('id', '=', id)
        .execute(),
    delete: (userId: string, id: string) =>
      db.deleteFrom('chart_snapshot_configs').where('user_id', '=', userId).where('id', '=', id).execute(),
  };
}
