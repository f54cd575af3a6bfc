import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createLogDestination } from './lib/log-destination';
import { armShutdownWatchdog } from './lib/watchdog';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Graceful shutdown gets this long; then the watchdog thread ends the process (gone within 15 s). */
const SHUTDOWN_LIMIT_MS = 14_000;

async function main(): Promise<void> {
  const log = createLogDestination();
  const config = loadConfig(process.env, { logStream: log });
  config.webDist ??= path.resolve(here, '../../web/dist');
  const { app } = await buildApp(config);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    armShutdownWatchdog(SHUTDOWN_LIMIT_MS);
    app.log.info({ signal }, 'shutting down');
    let code = 0;
    try {
      await app.close();
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      code = 1;
    }
    // The last lines get a moment to leave, never a blocking flush: the reader may be gone.
    await log.drain(200);
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `TradeDesk is serving on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
