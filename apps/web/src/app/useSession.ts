import { useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { currentUser, type CurrentUser } from '@tradedesk/contract';
import { api } from './api';
import { session } from './session';

export function useSessionToken(): string | null {
  return useSyncExternalStore(session.subscribe, session.token, () => null);
}

/** The signed-in user (`GET /accounts/me/`). */
export function useMe() {
  const token = useSessionToken();
  return useQuery<CurrentUser>({
    queryKey: ['me', token],
    queryFn: () => api.get('/accounts/me/', { schema: currentUser }),
    enabled: !!token,
    staleTime: 60_000,
  });
}
