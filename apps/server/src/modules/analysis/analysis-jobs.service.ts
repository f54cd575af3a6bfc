import {
  ANALYSIS_MESSAGES,
  ANALYSIS_TIMEFRAMES,
  ANALYSIS_TYPES,
  type AnalysisJob,
  type AnalysisJobStatus,
  type AnalysisResult,
  type AnalysisTimeframe,
  type AnalysisType,
  type AnalyzeRequest,
} from '@tradedesk/contract';
import { checkSessions, type SessionWindow } from '@tradedesk/domain';
import type { AppContext } from '../../context';
import { enqueueJob, getJob, listJobs, type Job } from '../../jobs';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import type { AuthUser } from '../../request-context';
import { ANALYSIS_JOB, type AnalysisJobPayload, type AnalysisJobResult } from './analysis-job.types';
import { instrumentsRepo } from './instruments.repo';
import './analysis.jobs';

type AnalysisJobRow = Job<AnalysisJobPayload, AnalysisJobResult>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** An instant must say it is UTC (Z or an offset): a bare local time would mean a different moment per server. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const DAY = 86_400_000;

/**
 * A date means midnight UTC; as the end of a range it means the whole day (up to the next midnight),
 * so start 2026-01-01 and end 2026-01-31 cover all of January.
 */
function parseDate(field: 'start_date' | 'end_date', value: string): number {
  const v = value.trim();
  const t = DATE_ONLY.test(v)
    ? Date.parse(`${v}T00:00:00Z`) + (field === 'end_date' ? DAY : 0)
    : INSTANT.test(v)
      ? Date.parse(v)
      : NaN;
  if (!Number.isFinite(t))
    throw badRequest(`${field} must be an ISO 8601 date (YYYY-MM-DD) or a UTC instant.`);
  return t;
}

/** The job's spec status: the runner's state, or the stage it reported while running. */
export function specStatus(job: Job): AnalysisJobStatus {
  if (job.status === 'succeeded') return 'COMPLETED_SUCCESS';
  if (job.status === 'failed') return 'COMPLETED_FAIL';
  if (job.status === 'running' && job.stage) return job.stage as AnalysisJobStatus;
  return 'PENDING';
}

function toAnalysisJob(job: AnalysisJobRow): AnalysisJob {
  const p = job.payload;
  return {
    job_id: job.id,
    analysis_type: p.analysis_type,
    instrument_symbol: p.instrument_symbol,
    target_timeframe: p.target_timeframe,
    start_date: p.start_date,
    end_date: p.end_date,
    status: specStatus(job),
    progress: Math.round(job.progress),
    error_message: job.error,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}

export function analysisJobsService(ctx: AppContext) {
  async function owned(user: AuthUser, id: string): Promise<AnalysisJobRow> {
    const job = await getJob<AnalysisJobPayload, AnalysisJobResult>(ctx, id);
    if (!job || job.userId !== user.id || job.kind !== ANALYSIS_JOB)
      throw notFound(ANALYSIS_MESSAGES.jobNotFound);
    return job;
  }

  return {
    async submit(user: AuthUser, body: AnalyzeRequest): Promise<AnalysisJob> {
      const symbol = body.instrument_symbol?.trim().toUpperCase();
      const type = body.analysis_type?.trim();
      const timeframe = body.target_timeframe?.trim();
      const start = body.start_date?.trim();
      const end = body.end_date?.trim();
      if (!symbol || !type || !timeframe || !start || !end)
        throw badRequest(ANALYSIS_MESSAGES.allFieldsRequired);
      if (!(ANALYSIS_TYPES as readonly string[]).includes(type)) {
        throw badRequest(`analysis_type must be one of ${ANALYSIS_TYPES.join(', ')}.`);
      }
      if (!(ANALYSIS_TIMEFRAMES as readonly string[]).includes(timeframe)) {
        throw badRequest(`target_timeframe must be one of ${ANALYSIS_TIMEFRAMES.join(', ')}.`);
      }
      const fromMs = parseDate('start_date', start);
      const toMs = parseDate('end_date', end);
      if (toMs <= fromMs) throw badRequest(ANALYSIS_MESSAGES.endAfterStart);
      let sessions: SessionWindow[] | null = null;
      if (body.parameters?.sessions) {
        sessions = body.parameters.sessions.map((s) => ({
          name: s.name,
          startHour: s.start_hour,
          endHour: s.end_hour,
        }));
        try {
          checkSessions(sessions);
        } catch (e) {
          throw badRequest((e as Error).message);
        }
      }
      const instrument = await instrumentsRepo(ctx.db).bySymbol(user.id, symbol);
      if (!instrument) throw badRequest(`${symbol} is not one of your instruments: add it first.`);
      if (instrument.data_status !== 'AVAILABLE') {
        throw conflict(`${symbol} data is not available yet (${instrument.data_status}).`);
      }
      const heldFrom = Date.parse(instrument.history_from ?? '');
      const heldTo = Date.parse(instrument.history_to ?? '');
      if (fromMs >= heldTo || toMs <= heldFrom) {
        throw badRequest(
          `No ${symbol} history in that period: it holds ${instrument.history_from} to ${instrument.history_to}.`,
        );
      }
      const payload: AnalysisJobPayload = {
        instrumentId: instrument.id,
        instrument_symbol: symbol,
        analysis_type: type as AnalysisType,
        target_timeframe: timeframe as AnalysisTimeframe,
        start_date: new Date(Math.max(fromMs, heldFrom)).toISOString(),
        end_date: new Date(Math.min(toMs, heldTo)).toISOString(),
        sessions,
      };
      const job = await enqueueJob(ctx, { kind: ANALYSIS_JOB, userId: user.id, payload });
      return toAnalysisJob(job as AnalysisJobRow);
    },

    async list(user: AuthUser): Promise<AnalysisJob[]> {
      return (await listJobs<AnalysisJobPayload, AnalysisJobResult>(ctx, user.id, ANALYSIS_JOB)).map(
        toAnalysisJob,
      );
    },

    async status(user: AuthUser, id: string) {
      const j = toAnalysisJob(await owned(user, id));
      return {
        job_id: j.job_id,
        status: j.status,
        progress: j.progress,
        error_message: j.error_message,
        updated_at: j.updated_at,
      };
    },

    async results(user: AuthUser, id: string): Promise<AnalysisResult> {
      const job = await owned(user, id);
      if (job.status !== 'succeeded' || !job.result) {
        throw conflict(
          `The job has no results${job.status === 'failed' ? `: it failed (${job.error ?? 'no reason given'}).` : ' yet.'}`,
        );
      }
      return job.result;
    },
  };
}
