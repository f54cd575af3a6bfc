import { useQuery } from '@tanstack/react-query';
import { journalEntry, type JournalCreate, type JournalEntry } from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';
import { ApiError, serverMessage } from '../../app/errors';

export const JOURNAL_TEXT = {
  fetchFailed: 'Failed to fetch journal entries for trade',
  snapshotsUnavailable: 'chart snapshots are not available yet',
  snapshotFailed: (detail: string) => `Auto snapshot failed: ${detail}. Please attach manually if needed.`,
} as const;

export const JOURNAL_ACTIONS = [
  'Opened Position',
  'Closed Position',
  'Partial Close',
  'Moved Stop Loss',
  'Moved Take Profit',
  'Added to Position',
  'Review',
  'Note',
] as const;
export const DEFAULT_JOURNAL_ACTION = 'Opened Position';
export const JOURNAL_TIMEFRAMES = ['1M', '5M', '15M', '1H', '4H', '1D', '1W'] as const;
export const DEFAULT_JOURNAL_TIMEFRAME = '1H';

/** Automated snapshot constants (spec section 9). */
export const SNAPSHOT_TIMEFRAMES = [
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '1D',
  '1W',
  '1M',
] as const;
export const DEFAULT_SNAPSHOT_TIMEFRAMES = ['5m', '15m', '1h', '4h', '1D'];
export const DEFAULT_SNAPSHOT_SYMBOLS = ['USDJPY', 'AUDUSD', 'EURUSD', 'GBPUSD', 'XAUUSD', 'US100'];
export const MAX_SNAPSHOT_TIMEFRAMES = 5;

export const SNAPSHOT_MESSAGES = {
  symbolRequired: 'Symbol is required for automated snapshot when a configuration is selected.',
  timeframeRequired: 'At least one timeframe must be selected for automated snapshot.',
  tooManyTimeframes: 'No more than 5 timeframes can be selected for automated snapshot.',
  maxHint: 'Maximum 5 timeframes selected.',
  noneHint: 'Please select at least one timeframe.',
} as const;

/** A new snapshot symbol joins the list only when non-empty and not already there (spec section 5). */
export function addSymbol(list: readonly string[], raw: string): string[] {
  const s = raw.trim().toUpperCase();
  if (!s || list.includes(s)) return [...list];
  return [...list, s];
}

/** The automated-snapshot checks (spec section 5), only when a template is chosen; null when fine. */
export function snapshotError(
  configId: string | null,
  symbol: string | null,
  timeframes: readonly string[],
): string | null {
  if (!configId) return null;
  if (!symbol || !symbol.trim()) return SNAPSHOT_MESSAGES.symbolRequired;
  if (timeframes.length === 0) return SNAPSHOT_MESSAGES.timeframeRequired;
  if (timeframes.length > MAX_SNAPSHOT_TIMEFRAMES) return SNAPSHOT_MESSAGES.tooManyTimeframes;
  return null;
}

export const journalsKey = (tradeId: string) => ['journals', tradeId] as const;

export function useTradeJournals(tradeId: string | null | undefined) {
  return useQuery<JournalEntry[]>({
    queryKey: journalsKey(tradeId ?? ''),
    queryFn: () =>
      api.get(`/trade_journal/journals/?trade=${encodeURIComponent(tradeId!)}`, {
        schema: z.array(journalEntry),
      }),
    enabled: !!tradeId,
  });
}

export const createJournal = (body: JournalCreate) =>
  api.post<{ id: string }>('/trade_journal/journals/', body);

/** One call per file (spec section 7). */
export function uploadAttachment(journalId: string, file: File) {
  const form = new FormData();
  form.append('journal', journalId);
  form.append('files', file, file.name);
  return api.post('/trade_journal/attachments/', form);
}

export interface SnapshotConfigChoice {
  id: string;
  name: string;
  is_global: boolean;
}

/**
 * Snapshot templates, or `available: false` when the server has no chart-snapshot endpoint yet
 * (the select then offers nothing and the modal explains why).
 */
export function useSnapshotConfigs(enabled: boolean) {
  return useQuery<{ available: boolean; configs: SnapshotConfigChoice[] }>({
    queryKey: ['chart-snapshot-configs', 'choices'],
    queryFn: async () => {
      try {
        const data = await api.get<unknown>('/chart-snapshots/configs/');
        const list = Array.isArray(data)
          ? data
          : data && typeof data === 'object' && Array.isArray((data as { results?: unknown }).results)
            ? (data as { results: unknown[] }).results
            : [];
        const configs = list
          .filter((c): c is Record<string, unknown> => !!c && typeof c === 'object')
          .filter((c) => c.id !== undefined && typeof c.name === 'string')
          .map((c) => ({ id: String(c.id), name: String(c.name), is_global: c.is_global === true }));
        return { available: true, configs };
      } catch (e) {
        if (e instanceof ApiError && (e.status === 404 || e.status === 405))
          return { available: false, configs: [] };
        throw e;
      }
    },
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * Ask the server to render the snapshots for a journal entry. Resolves to null on success, else the
 * honest reason: the server's detail, or that snapshots are not available yet when there is no endpoint.
 */
export async function requestSnapshot(
  configId: string,
  body: { symbol: string; timeframes: string[]; journal_entry_id: string },
): Promise<string | null> {
  try {
    await api.post(`/chart-snapshots/configs/${encodeURIComponent(configId)}/execute/`, body);
    return null;
  } catch (e) {
    if (e instanceof ApiError) {
      const detail =
        e.body && typeof e.body === 'object' && 'detail' in (e.body as object)
          ? serverMessage(e.body)
          : undefined;
      // The server's generic answer for a route it does not have: snapshots are not built yet.
      const noRoute = (e.status === 404 && (!detail || detail === 'Not found.')) || e.status === 405;
      if (noRoute) return JOURNAL_TEXT.snapshotsUnavailable;
      if (detail) return detail;
      return serverMessage(e.body) ?? `the server answered ${e.status}`;
    }
    return e instanceof Error ? e.message : String(e);
  }
}
