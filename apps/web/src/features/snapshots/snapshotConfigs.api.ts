import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  snapshotConfig,
  snapshotTask,
  type IndicatorSettings,
  type SnapshotConfig,
  type SnapshotTask,
} from '@tradedesk/contract';
import { api } from '../../app/api';

export const TEMPLATE_TEXT = {
  fetchFailed: 'Failed to fetch configurations.',
  deleteFailed: 'Failed to delete configuration template.',
  saveFailed: 'Failed to save configuration.',
  userFailed: 'Could not load user data.',
  deleteConfirm: 'Are you sure you want to delete this template? This cannot be undone.',
} as const;

export const configsKey = ['chart-snapshot-configs'] as const;

export function useSnapshotConfigList() {
  return useQuery<SnapshotConfig[]>({
    queryKey: [...configsKey, 'list'],
    queryFn: () => api.get('/chart-snapshots/configs/', { schema: z.array(snapshotConfig) }),
  });
}

export interface ConfigBody {
  name: string;
  is_global: boolean;
  indicator_settings: IndicatorSettings;
}

export const createConfig = (body: ConfigBody) =>
  api.post('/chart-snapshots/configs/', body, { schema: snapshotConfig });
export const updateConfig = (id: string, body: ConfigBody) =>
  api.put(`/chart-snapshots/configs/${encodeURIComponent(id)}/`, body, { schema: snapshotConfig });
export const deleteConfig = (id: string) =>
  api.delete<{ message?: string }>(`/chart-snapshots/configs/${encodeURIComponent(id)}/`, {
    schema: z.object({ message: z.string().optional() }),
  });

/** Every cached view of the templates (the manager's table, the journal's select) is refreshed. */
export function useInvalidateConfigs() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: configsKey });
}

/** Snapshot tasks asked for from this browser, per trade, so its journal shows them while they run. */
export interface PendingSnapshot {
  taskId: string;
  journalId: string;
}
export const pendingSnapshotsKey = (tradeId: string) => ['snapshot-tasks', tradeId] as const;

export function addPendingSnapshot(qc: QueryClient, tradeId: string, p: PendingSnapshot): void {
  qc.setQueryData<PendingSnapshot[]>(pendingSnapshotsKey(tradeId), (prev = []) => [...prev, p]);
}

/** The snapshot tasks asked for a trade's journal entries in this session (kept in the query cache). */
export function usePendingSnapshots(tradeId: string) {
  return (
    useQuery<PendingSnapshot[]>({
      queryKey: pendingSnapshotsKey(tradeId),
      queryFn: () => [],
      staleTime: Infinity,
      gcTime: Infinity,
    }).data ?? []
  );
}

/** A task's state, polled while it is PENDING or RUNNING. */
export function useSnapshotTask(taskId: string) {
  return useQuery<SnapshotTask>({
    queryKey: ['snapshot-task', taskId],
    queryFn: () => api.get(`/chart-snapshots/tasks/${encodeURIComponent(taskId)}/`, { schema: snapshotTask }),
    refetchInterval: (q) => {
      const s = q.state.data?.status;
      return s === 'COMPLETED' || s === 'FAILED' ? false : 1500;
    },
  });
}
