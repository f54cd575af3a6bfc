/**
 * The live runs this process drives. A run is driven by the process holding its lease (one
 * conditional UPDATE takes it); at start and every half lease the manager takes the active runs no
 * live process holds (after a restart or a crash) and resumes them. On shutdown it lets go of its
 * runs without ending them, so the next start resumes them.
 */
import type { AppContext } from '../../context';
import { newId } from '../../lib/ids';
import { perApp } from '../../lib/per-app';
import { finishRun } from './live-run-finish';
import { liveRunEvents } from './live-run-events';
import { startRunner, type Runner } from './live-runner';
import { liveRunsRepo } from './live-runs.repo';

/** Decision latency samples kept for the benchmark and diagnostics (most recent). */
const MAX_SAMPLES = 10_000;
/** How long a stop request waits for its run to end before answering (STOPPING meanwhile). */
const STOP_WAIT_MS = 5000;
const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export const liveRunManager = perApp((ctx: AppContext) => {
  const repo = liveRunsRepo(ctx.db);
  const owner = `${process.pid}-${newId()}`;
  const runners = new Map<string, Runner>();
  const latencies: Array<{ runId: string; barOpenMs: number; decidedInMs: number; at: number }> = [];
  let sweeper: NodeJS.Timeout | undefined;
  let closed = false;

  const leaseUntil = () => new Date(Date.now() + ctx.config.liveRuns.leaseMs).toISOString();

  async function drive(runId: string, resumed: boolean): Promise<boolean> {
    if (closed || runners.has(runId)) return runners.has(runId);
    if (!(await repo.claim(runId, owner, new Date().toISOString(), leaseUntil()))) return false;
    const runner = startRunner(ctx, runId, resumed, {
      owner,
      onOrderSent: (id, barOpenMs, decidedInMs) => {
        latencies.push({ runId: id, barOpenMs, decidedInMs, at: performance.now() });
        if (latencies.length > MAX_SAMPLES) latencies.splice(0, latencies.length - MAX_SAMPLES);
      },
      onFinished: (id) => runners.delete(id),
    });
    runners.set(runId, runner);
    return true;
  }

  async function sweep() {
    if (closed) return;
    try {
      for (const { id } of await repo.orphans(new Date().toISOString())) await drive(id, true);
    } catch (err) {
      ctx.log.warn({ err }, 'live run sweep failed');
    }
  }

  return {
    owner,
    /** Starts driving a new run (status STARTING). */
    start: (runId: string) => drive(runId, false),
    /** Resumes the runs left active and keeps looking for runs whose process died. */
    async resumeAll() {
      await sweep();
      sweeper ??= setInterval(() => void sweep(), Math.max(1000, ctx.config.liveRuns.leaseMs / 2));
      sweeper.unref();
    },
    /**
     * Stops a run: at once when this process drives it; when nobody does, it is finished here; when
     * another process does, the row says STOPPING and that process finishes it within a second.
     */
    async stop(runId: string, userId: string, reason: string, closePositions: boolean) {
      await repo.transition(runId, ['STARTING', 'RUNNING'], {
        status: 'STOPPING',
        stop_reason: reason,
        close_on_stop: closePositions ? 1 : 0,
      });
      liveRunEvents(ctx).status(runId, 'STOPPING');
      const local = runners.get(runId);
      // No order leaves after this call; the answer waits for the end, within reason (a sandbox
      // still booting cannot be interrupted, and its run shows STOPPING until it ends).
      if (local) return void (await Promise.race([local.stop(reason, closePositions), delay(STOP_WAIT_MS)]));
      if (await repo.claim(runId, owner, new Date().toISOString(), leaseUntil())) {
        const log = (level: 'info' | 'warn' | 'error', message: string) =>
          liveRunEvents(ctx).log(runId, userId, level, message);
        await finishRun(ctx, runId, { status: 'STOPPED', reason, close: closePositions, owner, log });
      }
    },
    isLocal: (runId: string) => runners.has(runId),
    /** The sandbox process of a run driven here (diagnostics; the tests kill it to check a crash). */
    sandboxPid: (runId: string) => runners.get(runId)?.pid(),
    latencies: () => latencies,
    async close() {
      closed = true;
      clearInterval(sweeper);
      await Promise.all([...runners.values()].map((r) => r.detach()));
    },
  };
});
