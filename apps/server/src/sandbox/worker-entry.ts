/**
 * Where the sandbox worker's bundled entry lives: beside the built server (dist/sandbox-worker.mjs),
 * or, when running from source (tests, dev), built once per process with esbuild into a private
 * temporary folder. The sandbox process may read only this one file and Pyodide's folder.
 */
import { bundledEntry, type BundledEntry } from '../lib/bundled-entry';

const SANDBOX_WORKER: BundledEntry = {
  file: 'sandbox-worker.mjs',
  source: 'sandbox/worker.ts',
  loader: { '.py': 'text' },
};

export function workerEntry(): Promise<string> {
  return bundledEntry(SANDBOX_WORKER);
}
