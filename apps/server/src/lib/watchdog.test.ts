import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('shutdown watchdog', () => {
  it('ends a process whose main thread is stuck in a synchronous wait', async () => {
    // The main thread sleeps in Atomics.wait for a minute, as a blocking log flush does on a full pipe.
    const script = `
      import { armShutdownWatchdog } from ${JSON.stringify(path.join(here, 'watchdog.ts'))};
      armShutdownWatchdog(300);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
    `;
    const t0 = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_c, s) => resolve(s)),
    );
    expect(signal).toBe('SIGKILL');
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(err).toContain('Graceful shutdown took longer than 300 ms');
  });
});
