/**
 * Server side of the strategy sandbox: starts one `node --permission` process per run, feeds it the
 * bars over IPC, and enforces the wall-clock, memory and output limits from outside, where strategy
 * code cannot reach them. Used by backtests now and by live runs later.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { BacktestResult } from '@tradedesk/domain';
import type { InitMessage, RunPhases, RunRequest, SandboxIsolation, WorkerMessage } from './protocol';
import { workerEntry } from './worker-entry';

export interface SandboxLimits {
  /** Wall-clock limit for start-up plus the run, in ms. */
  wallMs: number;
  /** Whole-process memory (resident set) limit, in MB; the wasm heap is refused past 80 % of it. */
  memoryMb: number;
  /** Strategy output (print) kept and allowed, in bytes; more fails the run. */
  outputBytes: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  wallMs: 120_000,
  memoryMb: 768,
  outputBytes: 64 * 1024,
};

export type SandboxOutcome =
  | {
      ok: true;
      result: BacktestResult;
      output: string;
      startupMs: number;
      runMs: number;
      phases: RunPhases;
      isolation: SandboxIsolation;
    }
  | { ok: false; error: string; output: string };

/**
 * A memory snapshot of a freshly booted interpreter, made by the first sandbox of this server process
 * before it ran any strategy code; later sandboxes restore it instead of booting (seconds saved).
 */
let bootSnapshot: Uint8Array | undefined;

const pyodideDir = () => path.dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));

export function residentMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export function failure(message: string, limits: SandboxLimits): string {
  const [head, ...rest] = message.split('\n');
  if (head === 'MEMORY_LIMIT')
    return `Strategy exceeded the memory limit of ${limits.memoryMb} MB.\n${rest.join('\n')}`;
  if (head === 'OUTPUT_LIMIT') return `Strategy output exceeded the limit of ${limits.outputBytes} bytes.`;
  return message;
}

/**
 * Starts one sandbox process (read access to Pyodide's folder and the worker bundle only, an empty
 * environment) and sends it the boot snapshot; keeps the first snapshot a sandbox reports. Shared by
 * backtests (runInSandbox) and live runs (live-host.ts).
 */
export async function spawnSandbox(limits: SandboxLimits, seed = 1) {
  const entry = await workerEntry();
  const dir = pyodideDir();
  const contextLimits = {
    wasmMemoryBytes: Math.floor(limits.memoryMb * 0.8 * 2 ** 20),
    outputBytes: limits.outputBytes,
    seed,
  };
  const child = spawn(
    process.execPath,
    [
      '--permission',
      `--allow-fs-read=${dir}${path.sep}`,
      `--allow-fs-read=${entry}`,
      `--max-old-space-size=${Math.max(64, Math.floor(limits.memoryMb / 4))}`,
      '--disallow-code-generation-from-strings',
      entry,
      dir,
      JSON.stringify(contextLimits),
    ],
    {
      env: {},
      cwd: path.parse(process.cwd()).root,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    },
  );
  child.send({ type: 'init', ...(bootSnapshot ? { snapshot: bootSnapshot } : {}) } satisfies InitMessage);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 4096) stderr += d.toString();
  });
  child.on('message', (m: WorkerMessage) => {
    if (m.type === 'snapshot' && !bootSnapshot && ArrayBuffer.isView(m.bytes))
      bootSnapshot = new Uint8Array(m.bytes);
  });
  return { child, stderr: () => stderr };
}

/** Whether a sandbox's stderr shows it ran out of memory. */
export const outOfMemory = (stderr: string) =>
  /heap out of memory|Out of memory|RangeError: Array buffer allocation failed/i.test(stderr);

export async function runInSandbox(
  request: Omit<RunRequest, 'type'>,
  options: {
    limits?: Partial<SandboxLimits>;
    onProgress?: (fraction: number) => void;
    seed?: number;
    /** Stops the run (server shutdown): the process is killed and the outcome is a failure. */
    signal?: AbortSignal;
  } = {},
): Promise<SandboxOutcome> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
  const { child, stderr } = await spawnSandbox(limits, options.seed ?? 1);

  return await new Promise<SandboxOutcome>((resolve) => {
    let settled = false;
    let startupMs = 0;
    let isolation: SandboxIsolation | undefined;
    const onAbort = () => finish({ ok: false, error: 'The backtest was stopped.', output: '' });
    const finish = (outcome: SandboxOutcome) => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener('abort', onAbort);
      clearTimeout(timer);
      clearInterval(watch);
      child.kill('SIGKILL');
      resolve(outcome);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          error: `Strategy exceeded the time limit of ${limits.wallMs / 1000} s.`,
          output: '',
        }),
      limits.wallMs,
    );
    const watch = setInterval(() => {
      if (child.pid && residentMb(child.pid) > limits.memoryMb)
        finish({
          ok: false,
          error: `Strategy exceeded the memory limit of ${limits.memoryMb} MB.`,
          output: '',
        });
    }, 100);
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort);
    child.on('message', (m: WorkerMessage) => {
      if (m.type === 'ready') {
        startupMs = Number(m.startupMs);
        isolation = m.isolation;
        child.send({ type: 'run', ...request } satisfies RunRequest);
      } else if (m.type === 'progress') options.onProgress?.(Number(m.fraction));
      else if (m.type === 'done')
        finish({
          ok: true,
          result: m.result,
          output: String(m.output),
          startupMs,
          runMs: Number(m.runMs),
          phases: m.phases,
          isolation: isolation!,
        });
      else if (m.type === 'failed')
        finish({ ok: false, error: failure(String(m.message), limits), output: String(m.output) });
    });
    child.on('exit', (code, signal) => {
      finish({
        ok: false,
        error: outOfMemory(stderr())
          ? `Strategy exceeded the memory limit of ${limits.memoryMb} MB.`
          : `The strategy process stopped unexpectedly (${signal ?? `exit code ${code}`}).`,
        output: '',
      });
    });
  });
}
