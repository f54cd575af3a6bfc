import { useQuery } from '@tanstack/react-query';
import { cleanSymbol } from '@tradedesk/domain';
import {
  indicatorResponse,
  openPositionsResponse,
  tradeActionResponse,
  tradeExecuteResponse,
  TRADE_MESSAGES,
  type OpenPosition,
  type TradeExecuteRequest,
  type TradeTarget,
} from '@tradedesk/contract';
import { api } from '../../app/api';
import { ApiError, serverMessage } from '../../app/errors';

/** The spec's texts for trading (sections 5 and 8), word for word. */
export const TRADE_TEXT = {
  executed: TRADE_MESSAGES.executed,
  executing: 'Executing Trade...',
  closed: TRADE_MESSAGES.closed,
  closeFailed: 'Failed to close trade. Please try again.',
  closing: 'Closing...',
  fetchPositionsFailed: 'Failed to fetch open positions',
  noPositions: 'No open positions to show',
  slRequired: 'This field is required and must be a number.',
  tpInvalid: 'Take profit must be a valid number.',
  volumePositive: 'Volume must be a positive number.',
  slFailed: 'Failed to update stop loss due to an unknown error',
  tpFailed: 'Failed to update take profit due to an unknown error',
  partialFailed: 'Failed to partially close trade due to an unknown error',
} as const;

export type Direction = 'BUY' | 'SELL';
export type { OpenPosition, TradeTarget };
export type TradeRequest = TradeExecuteRequest;
export type SlUpdateType = 'specific_price' | 'breakeven' | 'distance_pips' | 'distance_price';

export const openPositionsKey = (accountId: string) => ['open-positions', accountId] as const;

export async function fetchOpenPositions(accountId: string): Promise<OpenPosition[]> {
  const data = await api.get(`/trades/open-positions/${encodeURIComponent(accountId)}/`, {
    schema: openPositionsResponse,
  });
  return data.open_positions;
}

/** Open positions of an account, polled every 10 s (spec section 9). */
export function useOpenPositions(accountId: string | null) {
  return useQuery({
    queryKey: openPositionsKey(accountId ?? ''),
    queryFn: () => fetchOpenPositions(accountId!),
    enabled: !!accountId,
    refetchInterval: 10_000,
    refetchIntervalInBackground: false,
  });
}

export const executeTrade = (body: TradeRequest, idempotencyKey: string) =>
  api.post('/trades/execute/', body, {
    schema: tradeExecuteResponse,
    headers: { 'Idempotency-Key': idempotencyKey },
  });

export const closeTrade = (id: string) =>
  api.delete(`/trades/close/${encodeURIComponent(id)}/`, { schema: tradeActionResponse });

export const partialClose = (id: string, volume: number) =>
  api.post(
    `/trades/${encodeURIComponent(id)}/partial-close/`,
    { volume_to_close: volume },
    { schema: tradeActionResponse },
  );

export const updateStopLoss = (body: {
  trade_id: string;
  sl_update_type: SlUpdateType;
  value?: number;
  specific_price?: number;
}) => api.post('/trades/update-sl/', body, { schema: tradeActionResponse });

export const updateTakeProfit = (id: string, takeProfit: number) =>
  api.put(
    `/trades/update-tp/${encodeURIComponent(id)}/`,
    { take_profit: takeProfit },
    { schema: tradeActionResponse },
  );

/** ATR of the symbol on the timeframe, in price units; null when the server could not compute it. */
export function useAtr(accountId: string | null, symbol: string | null, timeframe: string, enabled: boolean) {
  return useQuery<number | null>({
    queryKey: ['atr', accountId, symbol, timeframe],
    queryFn: async () => {
      const sym = encodeURIComponent(cleanSymbol(symbol!));
      const q = accountId ? `?account_id=${encodeURIComponent(accountId)}` : '';
      const data = await api.get(`/get_indicator/${sym}/${encodeURIComponent(timeframe)}/ATR${q}`, {
        schema: indicatorResponse,
      });
      return data.value !== null && data.value > 0 ? data.value : null;
    },
    enabled: enabled && !!symbol,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * The execute failure text (spec section 8): a plain string body first, then detail, then error,
 * then the serialized body.
 */
export function executeFailureMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const body = err.body;
    if (typeof body === 'string' && body.trim()) return body;
    const own = serverMessage(body);
    if (own) return own;
    if (body !== null && body !== undefined) return JSON.stringify(body);
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** The server's detail when it gave one, else the spec's fallback. */
export function actionFailure(err: unknown, fallback: string): string {
  return err instanceof ApiError ? (serverMessage(err.body) ?? fallback) : fallback;
}

export const formatPrice = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : v.toFixed(5);
export const formatLots = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : v.toFixed(2);
