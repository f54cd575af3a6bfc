import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, dbTargets, type Harness } from '../test/harness';
import { schemaUrl } from '../test/pg-schema';
import { waitFor } from '../test/wait-for';
import { enqueueJob, getJob } from '.';
import '../testing/job-kinds';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');
const jobKinds = pathToFileURL(path.resolve(here, '../testing/job-kinds.ts')).href;
const pg = dbTargets.find((t) => t.name === 'postgres');

/** `npm run worker` against the harness's schema, with the test job kinds loaded into it. */
function startWorker(h: Harness, leaseMs: number): ChildProcess {
  const child = spawn('npm', ['run', '--silent', 'worker'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: h.config.databaseUrl,
      DATA_DIR: h.dataDir,
      JOB_WORKERS: '2',
      JOB_LEASE_MS: String(leaseMs),
      LOG_LEVEL: 'warn',
      NODE_OPTIONS: `--import tsx --import ${jobKinds}`,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  return child;
}

/** Kills the worker's whole process group (npm, tsx and node). */
function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}

interface Line {
  id: string;
  pid: number;
  what: 'start' | 'end';
  at: number;
}
const readLines = (file: string): Line[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [id, pid, what, at] = l.split(' ');
      return { id: id!, pid: Number(pid), what: what as Line['what'], at: Number(at) };
    });

describe.skipIf(!pg)('npm run worker processes [postgres]', () => {
  let h: Harness | undefined;
  const workers: ChildProcess[] = [];
  afterEach(async () => {
    for (const w of workers.splice(0)) kill(w, 'SIGKILL');
    await h?.close();
    h = undefined;
  });

  it('two workers share 20 jobs and run each exactly once', { timeout: 90_000 }, async () => {
    // This process only enqueues: every job must be run by a worker process.
    h = await createHarness(pg!, { jobs: { workers: 0, leaseMs: 5000, pollMs: 1000, sweepMs: 2000 } });
    expect(h.config.databaseUrl).toContain(schemaUrl(pg!.url!, 'x').split('?')[0]!);
    const u = await h.user('workers-a');
    const file = path.join(h.dataDir, 'runs.log');
    writeFileSync(file, '');
    workers.push(startWorker(h, 5000), startWorker(h, 5000));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push(
        (await enqueueJob(h.ctx, { kind: 'test.record', userId: u.id, payload: { file, ms: 300 } })).id,
      );
    }
    await waitFor(
      async () =>
        (await Promise.all(ids.map((id) => getJob(h!.ctx, id)))).every((j) => j?.status === 'succeeded'),
      'all 20 jobs to succeed',
      75_000,
    );
    const lines = readLines(file);
    for (const id of ids) {
      const mine = lines.filter((l) => l.id === id);
      expect(mine.map((l) => l.what)).toEqual(['start', 'end']);
    }
    const pids = new Set(lines.map((l) => l.pid));
    expect(pids.has(process.pid)).toBe(false);
    expect(pids.size).toBe(2);
    for (const id of ids) expect((await getJob(h.ctx, id))?.attempts).toBe(1);
  });

  it(
    "a killed worker's job is finished by the other worker, never by both at once",
    { timeout: 90_000 },
    async () => {
      h = await createHarness(pg!, { jobs: { workers: 0, leaseMs: 2000, pollMs: 1000, sweepMs: 1000 } });
      const u = await h.user('workers-b');
      const file = path.join(h.dataDir, 'runs.log');
      writeFileSync(file, '');
      const first = startWorker(h, 2000);
      workers.push(first);
      const job = await enqueueJob(h.ctx, { kind: 'test.record', userId: u.id, payload: { file, ms: 4000 } });
      await waitFor(
        () => readLines(file).some((l) => l.id === job.id && l.what === 'start'),
        'the first worker to start the job',
        60_000,
      );
      kill(first, 'SIGKILL');
      const killedAt = Date.now();
      workers.push(startWorker(h, 2000));
      const finished = await waitFor(
        async () => {
          const j = await getJob(h!.ctx, job.id);
          return j?.status === 'succeeded' ? j : undefined;
        },
        'the second worker to finish the job',
        75_000,
      );
      expect(finished.attempts).toBe(2);
      const lines = readLines(file).filter((l) => l.id === job.id);
      expect(lines.map((l) => l.what)).toEqual(['start', 'start', 'end']);
      expect(lines[1]!.pid).not.toBe(lines[0]!.pid);
      expect(lines[1]!.at).toBeGreaterThan(killedAt);
    },
  );
});
