import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { watchlistItem, type WatchlistItem } from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';
import { useSessionToken } from '../../app/useSession';

export const WATCHLIST_KEY = ['watchlist'] as const;

function isItem(x: unknown): x is WatchlistItem {
  const i = x as WatchlistItem;
  return (
    !!i && typeof i.id === 'string' && typeof i.instrument === 'string' && typeof i.exchange === 'string'
  );
}

export async function fetchWatchlist(): Promise<WatchlistItem[]> {
  const data = await api.get('/trades/watchlists/', { schema: z.unknown() });
  // A non-list response leaves the watchlist empty (spec section 2).
  return Array.isArray(data) ? data.filter(isItem) : [];
}

/**
 * The watchlist, fetched once a token is stored and the route is neither / nor /login.
 * Until it loads, or when it fails, it reads as empty.
 */
export function useWatchlist() {
  const token = useSessionToken();
  const { pathname } = useLocation();
  const query = useQuery({
    queryKey: WATCHLIST_KEY,
    queryFn: fetchWatchlist,
    enabled: !!token && pathname !== '/' && pathname !== '/login',
  });
  return { ...query, items: query.data ?? [] };
}

export const addWatchlistItem = (body: { instrument: string; exchange: string; is_global?: boolean }) =>
  api.post('/trades/watchlists/', body, { schema: watchlistItem });
export const removeWatchlistItem = (id: string) =>
  api.delete(`/trades/watchlists/${id}/`, { schema: z.null() });
