/**
 * Where the sandbox worker's bundled entry lives: beside the built server (dist/sandbox-worker.mjs),
 * or, when running from source (tests, dev), built once per process with esbuild into a private
 * temporary folder. The sandbox process may read only this one file and Pyodide's folder.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORKER_FILE = 'sandbox-worker.mjs';
const here = path.dirname(fileURLToPath(import.meta.url));

/** The esbuild options for the worker bundle when running from source (build.mjs has the same). */
function workerBuildOptions(outfile: string) {
  return {
    entryPoints: [path.join(path.resolve(here, '../../src/sandbox'), 'worker.ts')],
    outfile,
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: 'node22',
    loader: { '.py': 'text' as const },
    alias: { '@tradedesk/domain': path.resolve(here, '../../../../packages/domain/src/index.ts') },
    logLevel: 'warning' as const,
  };
}

let built: Promise<string> | undefined;

export function workerEntry(): Promise<string> {
  const beside = path.join(here, WORKER_FILE);
  if (existsSync(beside)) return Promise.resolve(beside);
  built ??= (async () => {
    const { build } = await import('esbuild');
    const outfile = path.join(mkdtempSync(path.join(tmpdir(), 'tradedesk-sandbox-')), WORKER_FILE);
    await build(workerBuildOptions(outfile));
    return outfile;
  })();
  return built;
}
