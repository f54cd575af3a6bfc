import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const moduleUrl = JSON.stringify(path.join(here, 'log-destination.ts'));

/**
 * Runs `script` in a plain `node` (types stripped by Node itself, not tsx: a loader touches stdout and
 * changes how fd 1 behaves, and the server runs as a plain bundle). Resolves with how it ended, or
 * `hung` when it is still alive after `limitMs` (then it is killed).
 */
function runChild(script: string, stdout: 'pipe' | number, limitMs: number) {
  const child = spawn(process.execPath, ['--experimental-strip-types', '--input-type=module', '-e', script], {
    cwd: path.join(here, '../..'),
    stdio: ['ignore', stdout, 'pipe'],
  });
  child.stdout?.pause(); // nobody reads: the pipe fills up, as when the reader has gone away
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise<{ code: number | null; hung: boolean; err: string }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      child.stdout?.destroy();
      resolve({ code, hung: signal === 'SIGKILL', err });
    });
  });
}

describe('log destination', () => {
  it('never blocks on a stdout pipe nobody reads: it drops lines, and the process exits at once', async () => {
    // 15 MB of lines into a pipe the parent never reads, then the shutdown path: bounded drain, exit.
    const script = `
      import { createLogDestination } from ${moduleUrl};
      const log = createLogDestination(1, 1024 * 1024);
      const line = 'x'.repeat(300) + '\\n';
      const t0 = Date.now();
      for (let i = 0; i < 50_000; i++) log.write(line);
      await new Promise((r) => setTimeout(r, 200));
      await log.drain(200);
      process.stderr.write('wrote in ' + (Date.now() - t0) + ' ms\\n');
      process.exit(0);
    `;
    const t0 = Date.now();
    const { code, hung, err } = await runChild(script, 'pipe', 8_000);
    expect(hung, 'the process was still alive 8 s after process.exit()').toBe(false);
    expect(code).toBe(0);
    expect(err).toMatch(/wrote in \d+ ms/);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('writes every line to a file in order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tradedesk-log-'));
    try {
      const file = path.join(dir, 'out.log');
      const script = `
        import { openSync } from 'node:fs';
        import { createLogDestination } from ${moduleUrl};
        const log = createLogDestination(openSync(${JSON.stringify(file)}, 'w'));
        for (let i = 0; i < 1000; i++) log.write(i + '\\n');
        await log.drain(2000);
        process.exit(0);
      `;
      const { code, hung } = await runChild(script, 'pipe', 8_000);
      expect(hung).toBe(false);
      expect(code).toBe(0);
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(lines).toEqual(Array.from({ length: 1000 }, (_, i) => String(i)));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
