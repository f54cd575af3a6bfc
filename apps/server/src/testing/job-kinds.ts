import { appendFileSync } from 'node:fs';
import { registerJobKind } from '../jobs';

/**
 * Job kinds for the job system's own tests. Also loaded with `node --import` into `npm run worker`
 * processes started by those tests, so that real worker processes run them.
 */

/** Reports two stages and returns its input doubled. */
registerJobKind<{ n: number }, { doubled: number }>('test.double', async ({ job, progress }) => {
  await progress('FIRST_HALF', 25);
  await progress('SECOND_HALF', 75);
  return { doubled: job.payload.n * 2 };
});

registerJobKind<{ message: string }, never>('test.fail', async ({ job }) => {
  throw new Error(job.payload.message);
});

/** Waits until told to finish (or aborted): a job caught mid-run by a restart. */
export const gate = { open: false };
registerJobKind<Record<string, never>, { done: true }>('test.gated', async ({ signal, progress }) => {
  await progress('WAITING', 10);
  while (!gate.open) {
    signal.throwIfAborted();
    await new Promise((r) => setTimeout(r, 20));
  }
  return { done: true };
});

/**
 * Appends "<job> <pid> start" and "<job> <pid> end" lines to `file` around a pause of `ms`, so a test
 * can count how many times, where and whether overlapping each job ran.
 */
registerJobKind<{ file: string; ms: number }, { pid: number }>('test.record', async ({ job }) => {
  appendFileSync(job.payload.file, `${job.id} ${process.pid} start ${Date.now()}\n`);
  await new Promise((r) => setTimeout(r, job.payload.ms));
  appendFileSync(job.payload.file, `${job.id} ${process.pid} end ${Date.now()}\n`);
  return { pid: process.pid };
});
