import type { Executor } from './execute';
import type { jobsRepo } from './jobs.repo';

export interface Runner {
  /** A job row was just written: look for work now instead of at the next poll. */
  notify(id: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The default runner: this process polls the `jobs` table itself and runs up to `concurrency` jobs at
 * once. Waiting rows and rows whose lease ran out are both claimable, so after a restart the
 * unfinished jobs are simply taken again.
 */
export function createLocalRunner(
  repo: ReturnType<typeof jobsRepo>,
  executor: Executor,
  opts: { concurrency: number; pollMs: number; onError: (err: unknown) => void },
): Runner {
  let active = 0;
  let stopped = false;
  let scanning: Promise<void> | undefined;
  let again = false;
  const runs = new Set<Promise<void>>();

  async function scanOnce(): Promise<void> {
    while (!stopped && active < opts.concurrency) {
      const ids = await repo.claimable(new Date().toISOString(), opts.concurrency - active + 4);
      let started = 0;
      for (const id of ids) {
        if (stopped || active >= opts.concurrency) break;
        active++;
        const claimedOrNot = executor.runIfClaimable(id);
        const p = claimedOrNot
          .then((ran) => {
            if (ran) void scan();
          })
          .catch(opts.onError)
          .finally(() => {
            active--;
            runs.delete(p);
          });
        runs.add(p);
        started++;
      }
      if (started === 0 || ids.length === 0) return;
      // Claims settle asynchronously; let them before looking again.
      await new Promise((r) => setImmediate(r));
      if (ids.length < opts.concurrency) return;
    }
  }

  function scan(): Promise<void> {
    if (opts.concurrency <= 0 || stopped) return Promise.resolve();
    if (scanning) {
      again = true;
      return scanning;
    }
    scanning = (async () => {
      try {
        do {
          again = false;
          await scanOnce();
        } while (again && !stopped);
      } catch (err) {
        opts.onError(err);
      } finally {
        scanning = undefined;
      }
    })();
    return scanning;
  }

  const timer = setInterval(() => void scan(), opts.pollMs);
  timer.unref();
  void scan();

  return {
    async notify() {
      await scan();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      executor.abortAll();
      await scanning;
      await Promise.allSettled([...runs]);
    },
  };
}
