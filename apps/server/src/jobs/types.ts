import type { AppContext } from '../context';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** A job as its row says, with payload and result parsed. */
export interface Job<P = unknown, R = unknown> {
  id: string;
  kind: string;
  userId: string;
  payload: P;
  status: JobStatus;
  /** The kind's own name for the step it is in (e.g. FETCHING_DATA); null before the first report. */
  stage: string | null;
  /** 0-100 over the whole job. */
  progress: number;
  result: R | null;
  error: string | null;
  attempts: number;
  maxAttempts: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** What an executor gets for one run of one job. */
export interface JobRun<P = unknown> {
  job: Job<P>;
  ctx: AppContext;
  /** Records the stage and percentage (0-100) on the row; the UI polls them. */
  progress(stage: string, percent: number): Promise<void>;
  /** Aborted when this worker lost the job's lease (another worker may have it now) or is stopping. */
  signal: AbortSignal;
}

/**
 * Runs one job and returns its JSON-serialisable result. A thrown error fails the job with the error's
 * message as the reason the owner sees, so throw messages written for the user.
 */
export type JobExecutor<P = unknown, R = unknown> = (run: JobRun<P>) => Promise<R>;

export interface JobKindOptions {
  /** Claims allowed before a job whose workers keep dying is failed (default 3). */
  maxAttempts?: number;
}
