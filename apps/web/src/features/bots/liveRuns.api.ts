import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  LIVE_RUN_MESSAGES,
  liveRun,
  liveRunDetail,
  liveRunLogLine,
  liveRunSocketMessage,
  liveRunStartResponse,
  type LiveRunDetail,
  type LiveRunLogLine,
  type LiveRunStatus,
  WS_CLOSE,
} from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';
import { session } from '../../app/session';

export const LIVE_RUN_TEXT = {
  /** Spec section 8, word for word. */
  startFailed: LIVE_RUN_MESSAGES.startFailed,
  started: (id: string) => `Live run started. ID: ${id}`,
  fetchRun: 'Failed to fetch live run.',
  stopFailed: 'Failed to stop live run. Please try again.',
} as const;

const ACTIVE: ReadonlySet<LiveRunStatus> = new Set(['STARTING', 'RUNNING', 'STOPPING']);
export const isActive = (s: LiveRunStatus | undefined) => s !== undefined && ACTIVE.has(s);

export const STATUS_COLOR: Record<LiveRunStatus, string> = {
  STARTING: 'yellow',
  RUNNING: 'green',
  STOPPING: 'orange',
  STOPPED: 'gray',
  FAILED: 'red',
};

export const liveRunsKey = (versionId: string) => ['bots', 'version', versionId, 'live-runs'] as const;
export const liveRunKey = (id: string) => ['bots', 'live-run', id] as const;

export const useLiveRuns = (versionId: string) =>
  useQuery({
    queryKey: liveRunsKey(versionId),
    queryFn: () =>
      api.get(`/bots/live-runs/?bot_version_id=${encodeURIComponent(versionId)}`, {
        schema: z.array(liveRun),
      }),
    refetchInterval: (q) => (q.state.data?.some((r) => isActive(r.status)) ? 5000 : false),
  });

/** The run with its trades and P/L, polled every 5 s while it is active. */
export const useLiveRun = (id: string) =>
  useQuery({
    queryKey: liveRunKey(id),
    queryFn: () => api.get(`/bots/live-runs/${id}/`, { schema: liveRunDetail }),
    refetchInterval: (q) => (isActive(q.state.data?.status) ? 5000 : false),
  });

export const startLiveRun = (versionId: string) =>
  api.post('/bots/live-runs/start/', { bot_version_id: versionId }, { schema: liveRunStartResponse });

export const stopLiveRun = (id: string, closePositions: boolean): Promise<LiveRunDetail> =>
  api.post(`/bots/live-runs/${id}/stop/`, { close_positions: closePositions }, { schema: liveRunDetail });

/** Open trades of an account placed by bots: trade id → bot name (the dashboard's Bot badge). */
const MAX_LINES = 500;

/**
 * The run's log, following new lines: the last lines over HTTP, then the socket /ws/live-runs/{id}
 * (authorised like the price feed: the token as the first message), reconnecting while the run is
 * active. Lines are kept in order of their sequence number, each once.
 */
export function useLiveRunLog(id: string, onStatus: (s: LiveRunStatus) => void) {
  const [lines, setLines] = useState<LiveRunLogLine[]>([]);
  const statusRef = useRef(onStatus);
  statusRef.current = onStatus;
  useEffect(() => {
    let stopped = false;
    let ws: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const add = (more: LiveRunLogLine[]) =>
      setLines((prev) => {
        const bySeq = new Map(prev.map((l) => [l.seq, l]));
        for (const l of more) bySeq.set(l.seq, l);
        return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-MAX_LINES);
      });
    void api
      .get(`/bots/live-runs/${id}/logs/?limit=200`, { schema: z.array(liveRunLogLine) })
      .then((l) => !stopped && add(l))
      .catch(() => undefined);
    const open = () => {
      const proto = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
      const socket = new WebSocket(
        `${proto}//${window.location.host}/ws/live-runs/${encodeURIComponent(id)}`,
      );
      ws = socket;
      socket.onopen = () => socket.send(JSON.stringify({ token: session.token() ?? '' }));
      socket.onmessage = (ev: MessageEvent) => {
        let data: unknown;
        try {
          data = JSON.parse(String(ev.data));
        } catch {
          return;
        }
        const m = liveRunSocketMessage.safeParse(data);
        if (!m.success || stopped) return;
        if (m.data.type === 'log') add([m.data.line]);
        else statusRef.current(m.data.status);
      };
      socket.onclose = (ev: CloseEvent) => {
        if (stopped || ev.code === WS_CLOSE.unauthorized || ev.code === WS_CLOSE.notFound) return;
        retry = setTimeout(open, 3000);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      ws?.close();
    };
  }, [id]);
  return lines;
}
