import type { AnalysisResult, AnalysisTimeframe, AnalysisType } from '@tradedesk/contract';

export const ANALYSIS_JOB = 'analysis.run';

/** What an analysis job row carries (jobs.payload); instants normalised to ISO 8601 UTC. */
export interface AnalysisJobPayload {
  instrumentId: string;
  instrument_symbol: string;
  analysis_type: AnalysisType;
  target_timeframe: AnalysisTimeframe;
  start_date: string;
  end_date: string;
  sessions: Array<{ name: string; startHour: number; endHour: number }> | null;
}

export type AnalysisJobResult = AnalysisResult;
