import { Worker } from 'node:worker_threads';

// Runs in its own thread: a main thread stuck in a synchronous wait cannot hold its timer back.
const WATCHDOG_SOURCE = `
const { workerData } = process.getBuiltinModule('node:worker_threads');
const fs = process.getBuiltinModule('node:fs');
const kill = () => process.kill(workerData.pid, 'SIGKILL');
setTimeout(() => {
  // Straight to fd 2 (the worker's process.stderr goes through the main thread), never waiting on it.
  fs.write(2, 'Graceful shutdown took longer than ' + workerData.ms + ' ms; ending the process.\\n', kill);
  setTimeout(kill, 200);
}, workerData.ms);
`;

/**
 * Ends the process (SIGKILL from a worker thread) unless it has exited within `ms`. Armed when a
 * shutdown begins; the worker is unref'd, so a shutdown that finishes in time is not held up by it.
 */
export function armShutdownWatchdog(ms: number): Worker {
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { ms, pid: process.pid } });
  worker.unref();
  return worker;
}
