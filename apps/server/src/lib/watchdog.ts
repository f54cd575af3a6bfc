import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Runs in a process of its own. A thread would not do: `process.exit()` stops worker threads first and
 * then waits for the thread pool, so a pool thread blocked in write(2) on a full pipe held stopped
 * servers alive with their watchdog already gone. The IPC channel closes when the server ends, however
 * it ends, and the watchdog then leaves too; it ignores the signals a process manager sends the group.
 */
const WATCHDOG_SOURCE = `
const fs = require('node:fs');
const [pid, ms] = process.argv.slice(1).map(Number);
const end = () => process.kill(process.pid, 'SIGKILL'); // no exit path that could wait on anything
process.on('disconnect', end);
for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => undefined);
setTimeout(() => {
  const kill = () => {
    try { process.kill(pid, 'SIGKILL'); } catch {}
    end();
  };
  // Asynchronously to fd 2, never waiting on it: the server's stderr may be a pipe nobody reads.
  fs.write(2, 'Graceful shutdown took longer than ' + ms + ' ms; ending the process.\\n', kill);
  setTimeout(kill, 200);
}, ms);
`;

/**
 * Ends this process with SIGKILL unless it has exited within `ms`. Armed when a shutdown begins; the
 * watchdog is unref'd, so a shutdown that finishes in time is not held up by it.
 */
export function armShutdownWatchdog(ms: number): ChildProcess {
  const child = spawn(process.execPath, ['-e', WATCHDOG_SOURCE, String(process.pid), String(ms)], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: {},
  });
  child.on('error', () => undefined);
  child.unref();
  child.channel?.unref();
  return child;
}
