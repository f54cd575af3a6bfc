import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  historyStats,
  historyTrade,
  historyTradesPage,
  type HistorySort,
  type HistoryStats,
  type HistoryTrade,
} from '@tradedesk/contract';
import { api, authorizedFetch } from '../../app/api';

export interface HistoryFilters {
  /** ISO instants (the browser's local day bounds, converted to UTC). */
  from?: string;
  to?: string;
  sort: HistorySort;
}

const PAGE = 100;

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The account's trades, one keyset page after another as the list scrolls. */
export function useHistoryTrades(accountId: string, f: HistoryFilters) {
  return useInfiniteQuery({
    queryKey: ['history', accountId, 'trades', f],
    queryFn: ({ pageParam }) =>
      api.get(
        `/history/accounts/${accountId}/trades/${query({ from: f.from, to: f.to, sort: f.sort, limit: String(PAGE), cursor: pageParam })}`,
        { schema: historyTradesPage },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: !!accountId,
  });
}

export function useHistoryStats(accountId: string, f: Pick<HistoryFilters, 'from' | 'to'>) {
  return useQuery<HistoryStats>({
    queryKey: ['history', accountId, 'stats', f.from, f.to],
    queryFn: () =>
      api.get(`/history/accounts/${accountId}/stats/${query({ from: f.from, to: f.to })}`, {
        schema: historyStats,
      }),
    enabled: !!accountId,
  });
}

export function useHistoryTrade(tradeId: string | undefined) {
  return useQuery<HistoryTrade>({
    queryKey: ['history', 'trade', tradeId],
    queryFn: () => api.get(`/history/trades/${tradeId}/`, { schema: historyTrade }),
    enabled: !!tradeId,
  });
}

/** Downloads the CSV export with the bearer token (a plain link could not send it). */
export async function downloadTradesCsv(accountId: string, f: HistoryFilters): Promise<void> {
  const res = await authorizedFetch(
    'GET',
    `/history/accounts/${accountId}/trades.csv${query({ from: f.from, to: f.to, sort: f.sort })}`,
  );
  if (!res.ok) throw new Error(`CSV export failed (${res.status})`);
  const blob = await res.blob();
  const name =
    /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'trades.csv';
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  a.click();
  URL.revokeObjectURL(url);
}

/** Local calendar day bounds as UTC instants, so "Today" means the trader's today. */
export function dayStart(date: string): string {
  return new Date(`${date}T00:00:00`).toISOString();
}
export function dayEnd(date: string): string {
  return new Date(`${date}T23:59:59.999`).toISOString();
}
export function localDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}
/** Monday of the week containing `d` (ISO weeks start on Monday). */
export function weekStart(d: Date): string {
  const m = new Date(d);
  m.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return localDate(m);
}
