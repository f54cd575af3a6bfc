import { useQuery } from '@tanstack/react-query';
import { accountSummary, pendingOrdersResponse, type PendingOrder } from '@tradedesk/contract';
import { api } from '../../app/api';
import { useZoneParam } from '../settings/userSettings.api';
import { openPositionsKey } from '../trade/trades.api';

/** How often the strip asks again: the simulator ticks four times a second, a person reads slower. */
export const SUMMARY_REFRESH_MS = 2_000;

export const accountSummaryKey = (accountId: string) => ['accounts', 'summary', accountId] as const;

/**
 * `GET /accounts/{id}/summary/`: the account strip's figures, asked again every 2 s while shown.
 * "Today" is the trader's day: the zone saved in Settings (the server reads it), else the browser's.
 */
export function useAccountSummary(accountId: string | null) {
  const zone = useZoneParam();
  return useQuery({
    queryKey: [...accountSummaryKey(accountId ?? ''), zone.key],
    queryFn: () =>
      api.get(
        `/accounts/${encodeURIComponent(accountId!)}/summary/${zone.tz ? `?tz=${encodeURIComponent(zone.tz)}` : ''}`,
        { schema: accountSummary },
      ),
    enabled: !!accountId && zone.ready,
    refetchInterval: SUMMARY_REFRESH_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
}

/**
 * The account's pending orders for the chart's lines: the same key and answer as the Pending Orders
 * card, so a cancel or a fill there moves the chart's lines too (and one request serves both).
 */
export function useChartPendingOrders(accountId: string | null) {
  return useQuery<PendingOrder[]>({
    queryKey: [...openPositionsKey(accountId ?? ''), 'pending'],
    queryFn: async () =>
      (
        await api.get(`/trades/pending-orders/${encodeURIComponent(accountId!)}/`, {
          schema: pendingOrdersResponse,
        })
      ).pending_orders,
    enabled: !!accountId,
    refetchInterval: 10_000,
    refetchIntervalInBackground: false,
  });
}

/**
 * Money as the strip shows it: the full amount with the currency's decimals up to 100,000, then
 * compact (125.3K, 1.25M) so seven figures fit a phone; the full amount goes in the title.
 */
export function compactMoney(value: number, currency: string, decimals: number, signed = false): string {
  const big = Math.abs(value) >= 100_000;
  const text = new Intl.NumberFormat('en-US', {
    notation: big ? 'compact' : 'standard',
    minimumFractionDigits: big ? 0 : decimals,
    maximumFractionDigits: big ? 2 : decimals,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(value);
  return `${text} ${currency}`;
}

/** The full amount, for a title or a screen reader. */
export const fullMoney = (value: number, currency: string, decimals: number) =>
  `${new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value)} ${currency}`;
