import { buildApp } from './app';
import { loadConfig } from './config';
import { startJobs } from './jobs';

/**
 * `npm run worker`: a process that only runs jobs. It builds the same app as the server (so it knows
 * every job kind and every feature's services) but never listens; start as many as the load needs, on
 * any machine with the same DATABASE_URL (PostgreSQL only: SQLite's jobs run inside the server).
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, {});
  if (!config.databaseUrl)
    throw new Error(
      'npm run worker needs DATABASE_URL (postgres://...): with SQLite the server runs its jobs itself.',
    );
  if (config.jobs.workers < 1) throw new Error('JOB_WORKERS must be at least 1 for a worker process.');
  const { app, ctx } = await buildApp(config);
  await app.ready();
  await startJobs(ctx);
  app.log.info({ workers: config.jobs.workers }, 'job worker started');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'job worker stopping');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    await app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'job worker shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
