import { useQuery } from '@tanstack/react-query';
import {
  analysisInstrument,
  analysisJob,
  analysisJobStatus,
  type AnalysisInstrument,
  type AnalysisJob,
  type AnalysisJobStatusBody,
} from '@tradedesk/contract';
import { z } from 'zod';
import { api } from '../../app/api';
import { POLL, isFinished } from './analysis.texts';

export const INSTRUMENTS_KEY = ['analysis', 'instruments'] as const;
export const JOBS_KEY = ['analysis', 'jobs'] as const;
export const jobKey = (id: string) => ['analysis', 'job', id] as const;

export const fetchInstruments = () =>
  api.get<AnalysisInstrument[]>('/analysis/instruments/', { schema: z.array(analysisInstrument) });
export const addInstrument = (symbol: string) =>
  api.post<AnalysisInstrument>('/analysis/instruments/', { symbol }, { schema: analysisInstrument });
export const submitAnalysisJob = (body: {
  instrument_symbol: string;
  analysis_type: string;
  target_timeframe: string;
  start_date: string;
  end_date: string;
}) => api.post<AnalysisJob>('/analysis/analyze/', body, { schema: analysisJob });
export const fetchJobs = () => api.get<AnalysisJob[]>('/analysis/jobs/', { schema: z.array(analysisJob) });
export const fetchJobStatus = (id: string) =>
  api.get<AnalysisJobStatusBody>(`/analysis/jobs/${id}/status/`, { schema: analysisJobStatus });
/** Results are read loosely: the renderer shows what it can and says what it cannot. */
export const fetchJobResults = (id: string) =>
  api.get<unknown>(`/analysis/jobs/${id}/results/`, { schema: z.unknown() });

export function useInstruments() {
  return useQuery({ queryKey: INSTRUMENTS_KEY, queryFn: fetchInstruments });
}

/** The jobs list, polled every 5 s. */
export function useJobs() {
  return useQuery({ queryKey: JOBS_KEY, queryFn: fetchJobs, refetchInterval: POLL.jobsMs });
}

/** One unfinished job's status, polled with the list (5 s) until it finishes. */
export function useJobStatus(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...jobKey(id), 'status'],
    queryFn: () => fetchJobStatus(id),
    enabled,
    refetchInterval: (q) => (q.state.data && isFinished(q.state.data.status) ? false : POLL.jobsMs),
  });
}
