/**
 * Parses a statement without holding the event loop: files up to `INLINE_MAX_BYTES` are read in place
 * (a worker thread costs more than they do), larger ones on a worker thread of their own, so that
 * price streams, live runs and other requests go on while a 10 MB report is read.
 */
import { Worker } from 'node:worker_threads';
import { bundledEntry, type BundledEntry } from '../../../lib/bundled-entry';
import { parseStatement } from './detect';
import type { ParsedStatement } from './types';

export const INLINE_MAX_BYTES = 256 * 1024;

const PARSE_WORKER: BundledEntry = {
  file: 'statement-parse-worker.mjs',
  source: 'modules/statement-import/parsers/parse-worker.ts',
};

export async function parseStatementOffThread(
  bytes: Buffer,
  inlineMax = INLINE_MAX_BYTES,
): Promise<ParsedStatement | null> {
  if (bytes.length <= inlineMax) return parseStatement(bytes);
  const entry = await bundledEntry(PARSE_WORKER);
  // The worker gets its own copy of the bytes, moved rather than copied again.
  const copy = new Uint8Array(bytes);
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: copy, transferList: [copy.buffer] });
    let settled = false;
    worker.once('message', (m: { parsed?: ParsedStatement | null; error?: string }) => {
      settled = true;
      if (m.error !== undefined) reject(new Error(`The statement parser failed: ${m.error}`));
      else resolve(m.parsed ?? null);
      void worker.terminate();
    });
    worker.once('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The statement parser stopped (exit code ${code}).`));
    });
  });
}
