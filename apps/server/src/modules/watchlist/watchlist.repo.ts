import type { Db } from '../../db';
import type { WatchlistItemsTable } from '../../db/schema';

export const GLOBAL_SCOPE = 'global';

export function watchlistRepo(db: Db) {
  return {
    /** The caller's own items and every global item. */
    visibleTo: (userId: string) =>
      db
        .selectFrom('watchlist_items')
        .selectAll()
        .where((eb) => eb.or([eb('scope', '=', userId), eb('scope', '=', GLOBAL_SCOPE)]))
        .orderBy('is_global', 'desc')
        .orderBy('instrument')
        .orderBy('exchange')
        .execute(),
    findPair: (scopes: string[], instrument: string, exchange: string) =>
      db
        .selectFrom('watchlist_items')
        .select('id')
        .where('scope', 'in', scopes)
        .where('instrument', '=', instrument)
        .where('exchange', '=', exchange)
        .executeTakeFirst(),
    visibleById: (userId: string, id: string) =>
      db
        .selectFrom('watchlist_items')
        .selectAll()
        .where('id', '=', id)
        .where((eb) => eb.or([eb('scope', '=', userId), eb('scope', '=', GLOBAL_SCOPE)]))
        .executeTakeFirst(),
    insert: (row: WatchlistItemsTable) => db.insertInto('watchlist_items').values(row).execute(),
    delete: (id: string) => db.deleteFrom('watchlist_items').where('id', '=', id).execute(),
  };
}
