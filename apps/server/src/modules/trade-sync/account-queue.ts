import { perApp } from '../../lib/per-app';

/**
 * One queue per account: broker events, reconciles, target closes and history runs of an account
 * run one after the other, so they never interleave on its trades.
 */
export const accountQueue = perApp(() => {
  const queues = new Map<string, Promise<unknown>>();
  function serial<T>(accountId: string, fn: () => Promise<T>): Promise<T> {
    const run = (queues.get(accountId) ?? Promise.resolve()).then(fn, fn);
    const tail = run.catch(() => undefined);
    queues.set(accountId, tail);
    void tail.then(() => {
      if (queues.get(accountId) === tail) queues.delete(accountId);
    });
    return run;
  }
  return {
    serial,
    /** Resolves when every queued step of the account has run (tests, shutdown). */
    idle: (accountId: string) => serial(accountId, async () => undefined),
  };
});
