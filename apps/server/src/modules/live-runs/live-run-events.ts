/**
 * A live run's log and status changes: each line is stored (the log endpoint reads the last N) and
 * handed to the sockets watching the run in this process. Lines of one run are written one after
 * another, so their sequence numbers follow the order they were logged in.
 */
import type { LiveRunLogLine, LiveRunSocketMessage, LiveRunStatus } from '@tradedesk/contract';
import type { AppContext } from '../../context';
import { isUniqueViolation } from '../../db/unique-violation';
import { perApp } from '../../lib/per-app';
import { liveRunsRepo } from './live-runs.repo';

type Listener = (m: LiveRunSocketMessage) => void;

/** Log lines longer than this are cut (strategy output can be long). */
const MAX_LINE = 2000;

export const liveRunEvents = perApp((ctx: AppContext) => {
  const repo = liveRunsRepo(ctx.db);
  const listeners = new Map<string, Set<Listener>>();
  const seqs = new Map<string, number>();
  const queues = new Map<string, Promise<unknown>>();

  const emit = (runId: string, m: LiveRunSocketMessage) => {
    for (const fn of listeners.get(runId) ?? []) fn(m);
  };

  async function write(runId: string, userId: string, level: LiveRunLogLine['level'], message: string) {
    for (let attempt = 0; ; attempt++) {
      if (!seqs.has(runId) || attempt > 0) seqs.set(runId, await repo.lastSeq(runId));
      const line: LiveRunLogLine = {
        seq: seqs.get(runId)! + 1,
        time: new Date().toISOString(),
        level,
        message: message.length > MAX_LINE ? `${message.slice(0, MAX_LINE)}…` : message,
      };
      try {
        await repo.insertLog({ run_id: runId, user_id: userId, ...line });
        seqs.set(runId, line.seq);
        emit(runId, { type: 'log', line });
        return;
      } catch (e) {
        // Another process logged for this run meanwhile (a stop from another server): read again.
        if (!isUniqueViolation(e) || attempt >= 3) throw e;
      }
    }
  }

  return {
    /** Appends a line; never throws (a log that cannot be written must not stop a run). */
    log(runId: string, userId: string, level: LiveRunLogLine['level'], message: string): Promise<void> {
      const prev = queues.get(runId) ?? Promise.resolve();
      const next = prev
        .then(() => write(runId, userId, level, message))
        .catch((err: unknown) => ctx.log.warn({ err, runId }, 'live run log line not written'));
      queues.set(runId, next);
      return next;
    },
    status(runId: string, status: LiveRunStatus) {
      emit(runId, { type: 'status', status });
    },
    subscribe(runId: string, fn: Listener): () => void {
      let set = listeners.get(runId);
      if (!set) listeners.set(runId, (set = new Set()));
      set.add(fn);
      return () => {
        set.delete(fn);
        if (!set.size) listeners.delete(runId);
      };
    },
    /** Forgets a finished run's counters (its lines stay stored). */
    forget(runId: string) {
      seqs.delete(runId);
      queues.delete(runId);
    },
  };
});
