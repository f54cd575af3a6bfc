/**
 * Worker thread entry: reads one statement (the bytes in `workerData`) and posts the parsed result,
 * or `{error}` when the parser fails, so that a large file never holds the server's event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseStatement } from './detect';

const bytes = Buffer.from(workerData as Uint8Array);
try {
  parentPort!.postMessage({ parsed: parseStatement(bytes) });
} catch (e) {
  parentPort!.postMessage({ error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
}
