import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import {
  journalAttachment,
  journalEntry,
  journalPage,
  MAX_SNAPSHOT_TIMEFRAMES,
  SNAPSHOT_MESSAGES,
  snapshotRequestAccepted,
  snapshotConfig,
  type JournalCreate,
  type JournalEntry,
} from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';
import { errorMessage } from '../../app/errors';

const snapshotConfigChoice = snapshotConfig.pick({ id: true, name: true, is_global: true });

export const JOURNAL_TEXT = {
  fetchFailed: 'Failed to fetch journal entries for trade',
  snapshotRequestFailed: 'Failed to request chart snapshot generation',
  configsFailed: 'Failed to fetch chart snapshot configuration',
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

/** Automated snapshot constants (spec sections 5 and 9) live in the contract, shared with the server. */
export {
  DEFAULT_SNAPSHOT_SYMBOLS,
  DEFAULT_SNAPSHOT_TIMEFRAMES,
  MAX_SNAPSHOT_TIMEFRAMES,
  SNAPSHOT_MESSAGES,
  SNAPSHOT_TIMEFRAMES,
} from '@tradedesk/contract';

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

/** A trade's journals, newest first, one page at a time (`fetchNextPage` while `hasNextPage`). */
export function useTradeJournals(tradeId: string | null | undefined) {
  return useInfiniteQuery({
    queryKey: journalsKey(tradeId ?? ''),
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api.get(
        `/trade_journal/journals/?trade=${encodeURIComponent(tradeId!)}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
        { schema: journalPage },
      ),
    getNextPageParam: (last) => last.next_cursor,
    select: (data): { entries: JournalEntry[]; more: boolean } => ({
      entries: data.pages.flatMap((p) => p.results),
      more: data.pages.at(-1)?.next_cursor != null,
    }),
    enabled: !!tradeId,
  });
}

export const createJournal = (body: JournalCreate) =>
  api.post('/trade_journal/journals/', body, { schema: journalEntry });

/** One call per file (spec section 7). */
export function uploadAttachment(journalId: string, file: File) {
  const form = new FormData();
  form.append('journal', journalId);
  form.append('files', file, file.name);
  return api.post('/trade_journal/attachments/', form, { schema: journalAttachment });
}

export interface SnapshotConfigChoice {
  id: string;
  name: string;
  is_global: boolean;
}

/** The templates the user may snapshot with: their own and the global ones. */
export function useSnapshotConfigs(enabled: boolean) {
  return useQuery<SnapshotConfigChoice[]>({
    queryKey: ['chart-snapshot-configs', 'choices'],
    queryFn: () => api.get('/chart-snapshots/configs/', { schema: z.array(snapshotConfigChoice) }),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * Ask the server to draw the snapshots of a journal entry. It answers at once with a task id; the
 * charts are attached to the entry when the task completes. Resolves to the task id, or the honest
 * reason it could not be asked: the server's detail, else the spec's fallback text.
 */
export async function requestSnapshot(body: {
  config_id: string;
  symbol: string;
  timeframes: string[];
  journal_entry_id: string;
  theme: 'light' | 'dark';
}): Promise<{ taskId: string } | { error: string }> {
  try {
    const res = await api.post('/chart-snapshots/request/', body, { schema: snapshotRequestAccepted });
    return { taskId: res.task_id };
  } catch (e) {
    return { error: errorMessage(e, JOURNAL_TEXT.snapshotRequestFailed) };
  }
}
