import { WATCHLIST_MESSAGES, type WatchlistCreate, type WatchlistItem } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import type { WatchlistItemsTable } from '../../db/schema';
import { isUniqueViolation } from '../../db/unique-violation';
import { badRequest, conflict, forbidden, notFound } from '../../lib/http-error';
import { newId, nowIso } from '../../lib/ids';
import type { AuthUser } from '../../request-context';
import { GLOBAL_SCOPE, watchlistRepo } from './watchlist.repo';

const toItem = (r: WatchlistItemsTable): WatchlistItem => ({
  id: r.id,
  instrument: r.instrument,
  exchange: r.exchange,
  is_global: r.is_global === 1,
});

export function watchlistService(ctx: AppContext) {
  const repo = watchlistRepo(ctx.db);
  return {
    async list(user: AuthUser): Promise<WatchlistItem[]> {
      return (await repo.visibleTo(user.id)).map(toItem);
    },

    async create(user: AuthUser, body: WatchlistCreate): Promise<WatchlistItem> {
      const instrument = (body.instrument ?? '').trim().toUpperCase();
      const exchange = (body.exchange ?? '').trim().toUpperCase();
      if (!instrument || !exchange) throw badRequest(WATCHLIST_MESSAGES.required);
      const isGlobal = body.is_global === true;
      if (isGlobal && !user.is_staff) throw forbidden(WATCHLIST_MESSAGES.globalStaffOnly);
      const scope = isGlobal ? GLOBAL_SCOPE : user.id;
      // A pair the user already sees (own or global) would only show twice in their list.
      const scopes = isGlobal ? [GLOBAL_SCOPE] : [user.id, GLOBAL_SCOPE];
      if (await repo.findPair(scopes, instrument, exchange)) throw conflict(WATCHLIST_MESSAGES.duplicate);
      const row: WatchlistItemsTable = {
        id: newId(),
        user_id: user.id,
        scope,
        instrument,
        exchange,
        is_global: isGlobal ? 1 : 0,
        created_at: nowIso(),
      };
      try {
        await repo.insert(row);
      } catch (e) {
        if (isUniqueViolation(e)) throw conflict(WATCHLIST_MESSAGES.duplicate);
        throw e;
      }
      return toItem(row);
    },

    async remove(user: AuthUser, id: string): Promise<void> {
      const row = await repo.visibleById(user.id, id);
      if (!row) throw notFound();
      if (row.is_global === 1 && !user.is_staff) throw forbidden(WATCHLIST_MESSAGES.globalStaffOnly);
      await repo.delete(id);
    },
  };
}
