import { useQuery } from '@tanstack/react-query';
import { symbolList } from '@tradedesk/contract';
import { api } from '../../app/api';

export const symbolsKey = (accountId: string) => ['symbols', accountId] as const;

/** `GET /trades/symbols/{account}/`: every symbol the account's broker trades, with its description. */
export function useSymbols(accountId: string | null | undefined) {
  return useQuery({
    queryKey: symbolsKey(accountId ?? ''),
    queryFn: () => api.get(`/trades/symbols/${encodeURIComponent(accountId!)}/`, { schema: symbolList }),
    enabled: !!accountId,
    // A broker's symbol list hardly changes during a session.
    staleTime: 10 * 60_000,
    retry: false,
  });
}
