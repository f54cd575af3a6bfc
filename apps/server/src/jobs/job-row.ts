import type { JobRow } from './jobs.repo';
import type { Job } from './types';

export function toJob<P, R>(row: JobRow): Job<P, R> {
  return {
    id: row.id,
    kind: row.kind,
    userId: row.user_id,
    payload: JSON.parse(row.payload) as P,
    status: row.status,
    stage: row.stage,
    progress: Number(row.progress),
    result: row.result === null ? null : (JSON.parse(row.result) as R),
    error: row.error,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
