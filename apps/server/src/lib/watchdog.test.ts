import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const moduleUrl = JSON.stringify(path.join(here, 'watchdog.ts'));

/** Runs `script` in a plain `node` (types stripped by Node) and reports how it ended and how fast. */
async function runChild(script: string) {
  const t0 = Date.now();
  const child = spawn(process.execPath, ['--experimental-strip-types', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause(); // nobody reads the child's stdout
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const hardStop = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.on('exit', (_c, s) => resolve(s)),
  );
  clearTimeout(hardStop);
  child.stdout.destroy();
  return { signal, ms: Date.now() - t0, err };
}

describe('shutdown watchdog', () => {
  it('ends a process whose main thread is stuck in a synchronous wait', async () => {
    // The main thread sleeps in Atomics.wait for a minute, as a blocking log flush does on a full pipe.
    const { signal, ms, err } = await runChild(`
      import { armShutdownWatchdog } from ${moduleUrl};
      armShutdownWatchdog(300);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    `);
    expect(signal).toBe('SIGKILL');
    expect(ms).toBeLessThan(10_000);
    expect(err).toContain('Graceful shutdown took longer than 300 ms');
  });

  it('ends a process that hangs inside process.exit() on a thread-pool write to a full pipe', async () => {
    // fs.write on the inherited (blocking) stdout blocks a pool thread once the pipe is full;
    // process.exit() then waits for that thread, after it has stopped every worker thread.
    const { signal, ms } = await runChild(`
      import { write } from 'node:fs';
      import { armShutdownWatchdog } from ${moduleUrl};
      const chunk = Buffer.alloc(4 * 1024 * 1024, 120);
      write(1, chunk, () => undefined);
      armShutdownWatchdog(500);
      setTimeout(() => process.exit(0), 300);
    `);
    expect(signal).toBe('SIGKILL');
    expect(ms).toBeLessThan(10_000);
  });

  it('leaves at once, without touching the process, when the shutdown finishes in time', async () => {
    const { signal, ms, err } = await runChild(`
      import { armShutdownWatchdog } from ${moduleUrl};
      const dog = armShutdownWatchdog(5_000);
      setTimeout(() => {
        process.stderr.write('watchdog pid ' + dog.pid + '\\n');
        process.exit(0);
      }, 200);
    `);
    expect(signal).toBeNull();
    expect(ms).toBeLessThan(4_000);
    const dogPid = Number(/watchdog pid (\d+)/.exec(err)?.[1]);
    expect(dogPid).toBeGreaterThan(0);
    // Gone (or a zombie) well before its own 5 s timer: it left because the server did.
    const running = () => {
      try {
        return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${dogPid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    const t0 = Date.now();
    while (running() && Date.now() - t0 < 3_000) await new Promise((r) => setTimeout(r, 50));
    expect(running(), 'the watchdog outlived the server').toBe(false);
  });
});
