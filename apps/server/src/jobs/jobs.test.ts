import { afterEach, expect, it } from 'vitest';
import { createHarness, describeEachDb, type Harness } from '../test/harness';
import { waitFor } from '../test/wait-for';
import { gate } from '../testing/job-kinds';
import { enqueueJob, getJob, listJobs } from '.';

describeEachDb('job system', (target) => {
  let h: Harness | undefined;
  afterEach(async () => {
    gate.open = false;
    await h?.close();
    h = undefined;
  });

  const done = (id: string) =>
    waitFor(async () => {
      const j = await getJob(h!.ctx, id);
      return j && (j.status === 'succeeded' || j.status === 'failed') ? j : undefined;
    }, `job ${id} to finish`);

  it('runs a job to success, recording stage, progress and result', async () => {
    h = await createHarness(target);
    const u = await h.user('jobs-a');
    const queued = await enqueueJob(h.ctx, { kind: 'test.double', userId: u.id, payload: { n: 21 } });
    expect(queued.status).toBe('queued');
    const job = await done(queued.id);
    expect(job).toMatchObject({
      status: 'succeeded',
      stage: 'SECOND_HALF',
      progress: 100,
      result: { doubled: 42 },
      attempts: 1,
      error: null,
    });
    expect(job.startedAt).not.toBeNull();
    expect(job.finishedAt).not.toBeNull();
    expect((await listJobs(h.ctx, u.id, 'test.double')).map((j) => j.id)).toEqual([queued.id]);
  });

  it('fails a job with the executor message as the reason', async () => {
    h = await createHarness(target);
    const u = await h.user('jobs-b');
    const queued = await enqueueJob(h.ctx, {
      kind: 'test.fail',
      userId: u.id,
      payload: { message: 'No data.' },
    });
    expect(await done(queued.id)).toMatchObject({ status: 'failed', error: 'No data.' });
  });

  it('refuses an unknown kind', async () => {
    h = await createHarness(target);
    const u = await h.user('jobs-c');
    await expect(enqueueJob(h.ctx, { kind: 'nope', userId: u.id, payload: {} })).rejects.toThrow(
      /Unknown job kind/,
    );
  });

  it('resumes a job left running by a stopped server after a restart', async () => {
    h = await createHarness(target, { jobs: { workers: 2, leaseMs: 400, pollMs: 100, sweepMs: 300 } });
    const u = await h.user('jobs-d');
    const queued = await enqueueJob(h.ctx, { kind: 'test.gated', userId: u.id, payload: {} });
    await waitFor(async () => (await getJob(h!.ctx, queued.id))?.stage === 'WAITING', 'job to start');
    h = await h.restart();
    gate.open = true;
    const job = await done(queued.id);
    expect(job.status).toBe('succeeded');
    expect(job.result).toEqual({ done: true });
  });

  it('resumes a job whose process died holding it, counting the attempt', async () => {
    h = await createHarness(target, { jobs: { workers: 2, leaseMs: 400, pollMs: 100, sweepMs: 300 } });
    const u = await h.user('jobs-e');
    gate.open = true;
    const queued = await enqueueJob(h.ctx, { kind: 'test.gated', userId: u.id, payload: {} });
    await done(queued.id);
    // The row as a worker that was killed mid-run leaves it: running, held by a dead owner.
    await h.ctx.db
      .updateTable('jobs')
      .set({
        status: 'running',
        lease_owner: 'dead-host:1:x',
        lease_until: new Date(Date.now() + 300).toISOString(),
        result: null,
      })
      .where('id', '=', queued.id)
      .execute();
    const job = await waitFor(async () => {
      const j = await getJob(h!.ctx, queued.id);
      return j?.status === 'succeeded' && j.attempts === 2 ? j : undefined;
    }, 'the job to be taken over');
    expect(job.result).toEqual({ done: true });
  });

  it('fails with a reason a job whose workers kept dying', async () => {
    h = await createHarness(target, { jobs: { workers: 2, leaseMs: 400, pollMs: 100, sweepMs: 300 } });
    const u = await h.user('jobs-f');
    gate.open = true;
    const queued = await enqueueJob(h.ctx, { kind: 'test.gated', userId: u.id, payload: {} });
    await done(queued.id);
    await h.ctx.db
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: 3,
        lease_owner: 'dead-host:1:x',
        lease_until: new Date(Date.now() - 1).toISOString(),
      })
      .where('id', '=', queued.id)
      .execute();
    const job = await waitFor(async () => {
      const j = await getJob(h!.ctx, queued.id);
      return j?.status === 'failed' ? j : undefined;
    }, 'the job to fail');
    expect(job.error).toMatch(/stopped 3 times before it could finish/);
  });
});
