/**
 * The sandbox in live mode (bot live runs): one long-lived process per run, loaded with the strategy
 * once, then asked for the orders of each closed bar. The same process, permissions and limits as a
 * backtest, except that the wall-clock limit applies to each step (start-up, one bar), not to a
 * whole run that never ends.
 */
import type { ChildProcess } from 'node:child_process';
import {
  DEFAULT_SANDBOX_LIMITS,
  failure,
  outOfMemory,
  residentMb,
  spawnSandbox,
  type SandboxLimits,
} from './host';
import type { LiveRequest, LiveStepRequest, WorkerMessage } from './protocol';

export interface LiveStepResult {
  orders: Float64Array;
  tags: Array<string | null>;
  /** The orders' targets side list (decodeOrders reads it). */
  targets: Float64Array;
  output: string;
  stepMs: number;
}

export interface LiveSandbox {
  readonly pid: number | undefined;
  readonly style: string;
  step(request: Omit<LiveStepRequest, 'type'>): Promise<LiveStepResult>;
  /** Ends the process; a step in flight fails. */
  close(): void;
}

/** Live limits: `wallMs` bounds start-up and each bar's step. */
export const DEFAULT_LIVE_LIMITS: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS, wallMs: 60_000 };

export class LiveSandboxError extends Error {}

/**
 * Starts a sandbox and loads the strategy. `onDeath` is called once if the process ends or breaks a
 * limit outside a step (a crash, the memory watch); a step's failure rejects that step instead.
 */
export function startLiveSandbox(
  code: string,
  paramsJson: string,
  opts: { limits?: Partial<SandboxLimits>; onDeath: (reason: string) => void },
): Promise<LiveSandbox> {
  // One boot at a time per server process: ten cold interpreter boots at once (a restart resuming
  // ten runs) starve each other for minutes, while one after another the first makes the snapshot
  // the others start from in seconds.
  const turn = booting.then(() => boot(code, paramsJson, opts));
  booting = turn.catch(() => undefined);
  return turn;
}

let booting: Promise<unknown> = Promise.resolve();

async function boot(
  code: string,
  paramsJson: string,
  opts: { limits?: Partial<SandboxLimits>; onDeath: (reason: string) => void },
): Promise<LiveSandbox> {
  const limits = { ...DEFAULT_LIVE_LIMITS, ...opts.limits };
  const { child, stderr } = await spawnSandbox(limits);
  let dead: string | undefined;
  let pending: { resolve: (m: WorkerMessage) => void; reject: (e: Error) => void } | undefined;
  let timer: NodeJS.Timeout | undefined;

  const die = (reason: string) => {
    if (dead) return;
    dead = reason;
    clearInterval(watch);
    clearTimeout(timer);
    child.kill('SIGKILL');
    if (pending) pending.reject(new LiveSandboxError(reason));
    else opts.onDeath(reason);
    pending = undefined;
  };
  const watch = setInterval(() => {
    if (child.pid && residentMb(child.pid) > limits.memoryMb)
      die(`Strategy exceeded the memory limit of ${limits.memoryMb} MB.`);
  }, 250);
  watch.unref();
  child.on('exit', (code, signal) => {
    die(
      outOfMemory(stderr())
        ? `Strategy exceeded the memory limit of ${limits.memoryMb} MB.`
        : `The strategy process stopped unexpectedly (${signal ?? `exit code ${code}`}).`,
    );
  });
  child.on('message', (m: WorkerMessage) => {
    if (m.type === 'snapshot' || !pending) return;
    const p = pending;
    pending = undefined;
    clearTimeout(timer);
    if (m.type === 'failed') p.reject(new LiveSandboxError(failure(String(m.message), limits)));
    else p.resolve(m);
  });

  const ask = (child: ChildProcess, request: LiveRequest | null, what: string) =>
    new Promise<WorkerMessage>((resolve, reject) => {
      if (dead) return reject(new LiveSandboxError(dead));
      pending = { resolve, reject };
      timer = setTimeout(
        () => die(`Strategy exceeded the time limit of ${limits.wallMs / 1000} s ${what}.`),
        limits.wallMs,
      );
      if (request) child.send(request);
    });

  try {
    const ready = await ask(child, null, 'to start');
    if (ready.type !== 'ready') throw new LiveSandboxError('The strategy process did not start.');
    const loaded = await ask(child, { type: 'live-load', code, paramsJson }, 'to load');
    if (loaded.type !== 'live-loaded') throw new LiveSandboxError('The strategy did not load.');
    let busy = false;
    return {
      pid: child.pid,
      style: loaded.style,
      async step(request) {
        if (busy) throw new LiveSandboxError('A step is already running.');
        busy = true;
        try {
          const m = await ask(child, { type: 'live-step', ...request }, 'for one bar');
          if (m.type !== 'live-orders') throw new LiveSandboxError('The strategy answered out of turn.');
          return {
            orders: m.orders,
            tags: m.tags,
            targets: m.targets,
            output: String(m.output),
            stepMs: Number(m.stepMs),
          };
        } finally {
          busy = false;
        }
      },
      close() {
        if (dead) return;
        dead = 'closed';
        clearInterval(watch);
        clearTimeout(timer);
        child.kill('SIGKILL');
      },
    };
  } catch (e) {
    dead ??= 'failed to start';
    clearInterval(watch);
    clearTimeout(timer);
    child.kill('SIGKILL');
    throw e;
  }
}
