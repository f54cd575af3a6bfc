/**
 * The HTTP/WebSocket benchmarks run the server in a child process of their own (this same script
 * with `server` as argument), so its CPU and event loop are measured apart from the load generator.
 * The child's simulated clock starts at the Wednesday the tests use (FX open) and moves in real time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WEDNESDAY } from '../apps/server/src/test/sim-clock';

export interface ServerProcess {
  child: ChildProcess;
  /** Real time minus simulated time, the same in both processes (tick times compare across them). */
  offset: number;
  /** The next message the child sends (it sends one when it is ready, then answers requests). */
  fromChild<T>(): Promise<T>;
  /** Asks the child to exit and waits until it has. */
  stop(): Promise<void>;
}

/** In the parent: starts `scriptUrl` (the caller's `import.meta.url`) as the server child. */
export function spawnServer(scriptUrl: string): ServerProcess {
  const offset = Date.now() - WEDNESDAY;
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(scriptUrl), 'server'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_CLOCK_OFFSET: String(offset) },
  });
  return {
    child,
    offset,
    fromChild: <T>() => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T))),
    async stop() {
      child.send('exit');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** In the child: the simulated clock, the parent's Wednesday moving in real time. */
export function serverClock(): () => number {
  const offset = Number(process.env.BENCH_CLOCK_OFFSET);
  return () => Date.now() - offset;
}

/** In the child: exit when the parent goes (a bench that failed must not leave its server running). */
export function exitWithParent(): void {
  process.on('disconnect', () => process.exit(1));
}
