import { useQuery } from '@tanstack/react-query';
import { botPosition } from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';

/**
 * Which open positions of the account a bot opened (trade id → bot name), for the dashboard's Bot
 * badge. Its own module so that the dashboard's first load does not carry the live-run screens' API.
 */
export function useBotPositions(accountId: string | null) {
  return useQuery({
    queryKey: ['bots', 'positions', accountId],
    enabled: Boolean(accountId),
    queryFn: async () =>
      new Map(
        (
          await api.get(`/bots/live-runs/positions/?account_id=${encodeURIComponent(accountId ?? '')}`, {
            schema: z.array(botPosition),
          })
        ).map((p) => [p.trade_id, p.bot_name]),
      ),
    refetchInterval: 10_000,
  });
}
