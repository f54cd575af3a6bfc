import { useQuery } from '@tanstack/react-query';
import {
  backtestConfig,
  backtestRun,
  backtestRunDetail,
  bot,
  botVersion,
  candlesResponse,
  strategyTemplate,
  type BacktestRunDetail,
} from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';

/** The spec's texts for the bots screens (section 8), word for word. */
export const BOT_TEXT = {
  fetchBots: 'Failed to fetch bots. Please try again.',
  fetchBot: (id: string) => `Failed to fetch details for bot ${id}.`,
  deleteBot: 'Failed to delete bot. Please try again.',
  loadAccounts: 'Failed to load accounts.',
  loadTemplates: 'Failed to load strategy templates.',
  tryAgain: 'Please try again.',
  saveBot: 'Failed to save bot.',
  createVersion: 'Failed to create bot version.',
  launch: 'Failed to launch backtest.',
  deleteVersion: 'Failed to delete bot version. Please try again.',
  deletedVersionNote: 'A deleted version may be inaccessible.',
  loadConfig: 'Failed to load configuration for editing.',
  saveConfig: 'Failed to save configuration.',
  loadVersion: 'Failed to load bot version details.',
  fetchRun: 'Failed to fetch backtest run.',
  updateRun: 'Error updating run details.',
  paramsJson: 'Invalid JSON in Parameters field. Please correct it.',
  riskJson: 'Invalid JSON in Risk JSON field. Please correct it.',
  datesRequired: 'Start and End dates are required.',
} as const;

export const botsKey = ['bots'] as const;

export const useBots = () =>
  useQuery({ queryKey: botsKey, queryFn: () => api.get('/bots/bots/', { schema: z.array(bot) }) });
export const useBot = (id: string) =>
  useQuery({ queryKey: ['bots', id], queryFn: () => api.get(`/bots/bots/${id}/`, { schema: bot }) });
export const useTemplates = () =>
  useQuery({
    queryKey: ['bots', 'templates'],
    queryFn: () => api.get('/bots/strategy-templates/', { schema: z.array(strategyTemplate) }),
    staleTime: Infinity,
  });
export const useVersions = (botId: string) =>
  useQuery({
    queryKey: ['bots', botId, 'versions'],
    queryFn: () =>
      api.get(`/bots/versions/?bot_id=${encodeURIComponent(botId)}`, { schema: z.array(botVersion) }),
  });
export const useVersion = (id: string) =>
  useQuery({
    queryKey: ['bots', 'version', id],
    queryFn: () => api.get(`/bots/versions/${id}/`, { schema: botVersion }),
  });
export const useConfigs = (versionId: string) =>
  useQuery({
    queryKey: ['bots', 'version', versionId, 'configs'],
    queryFn: () =>
      api.get(`/bots/backtest-configs/?bot_version_id=${encodeURIComponent(versionId)}`, {
        schema: z.array(backtestConfig),
      }),
  });
export const useConfig = (id: string | undefined) =>
  useQuery({
    queryKey: ['bots', 'config', id],
    queryFn: () => api.get(`/bots/backtest-configs/${id}/`, { schema: backtestConfig }),
    enabled: Boolean(id),
  });
export const useRuns = (versionId: string) =>
  useQuery({
    queryKey: ['bots', 'version', versionId, 'runs'],
    queryFn: () =>
      api.get(`/bots/backtest-runs/?bot_version_id=${encodeURIComponent(versionId)}`, {
        schema: z.array(backtestRun),
      }),
  });

const unfinished = (r: BacktestRunDetail | undefined) => r?.status === 'PENDING' || r?.status === 'RUNNING';
/** The run, polled every 5 s while PENDING or RUNNING (spec section 9). */
export const useRun = (id: string) =>
  useQuery({
    queryKey: ['bots', 'run', id],
    queryFn: () => api.get(`/bots/backtest-runs/${id}/`, { schema: backtestRunDetail }),
    refetchInterval: (q) => (unfinished(q.state.data) ? 5000 : false),
  });

export function useCandles(
  q: { account?: string; symbol: string; timeframe: string; from: string; to: string } | null,
) {
  return useQuery({
    queryKey: ['bots', 'candles', q],
    enabled: q !== null && Boolean(q.account),
    queryFn: () => {
      const p = new URLSearchParams(q as Record<string, string>);
      return api.get(`/market/candles/?${p.toString()}`, { schema: candlesResponse });
    },
  });
}

/** Parses a JSON object typed into a form; null when it is not one. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
