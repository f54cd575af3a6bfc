import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('log destination', () => {
  it('never blocks on a stdout pipe nobody reads: it drops lines and the process exits', async () => {
    // 20 MB of lines into a 64 KB pipe that the parent never reads, then a bounded drain and exit.
    const script = `
      import { createLogDestination } from ${JSON.stringify(path.join(here, 'log-destination.ts'))};
      const log = createLogDestination(1, 1024 * 1024);
      const line = 'x'.repeat(1000) + '\\n';
      const t0 = Date.now();
      for (let i = 0; i < 20_000; i++) log.write(line);
      await log.drain(100);
      process.stderr.write('wrote in ' + (Date.now() - t0) + ' ms\\n');
      process.exit(0);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pause();
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    child.stdout.destroy();
    expect(err).toMatch(/wrote in \d+ ms/);
    expect(code).toBe(0);
  });
});
