/**
 * Where a separately bundled entry (a file a child process or worker thread runs) lives: beside the
 * built server (`dist/<file>`, written by build.mjs), or, when running from source (tests, dev),
 * built once per process with esbuild into a private temporary folder.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/src, whether this file runs from src/lib or bundled into dist/main.js. */
const srcDir = path.resolve(here, '../../src');

export interface BundledEntry {
  /** The bundle's file name beside the built server. */
  file: string;
  /** Its source entry, relative to apps/server/src. */
  source: string;
  /** Extra esbuild loaders (the sandbox bundles its Python files as text). */
  loader?: Record<string, 'text'>;
}

const built = new Map<string, Promise<string>>();

/** The esbuild options of an entry's bundle: the ones build.mjs writes the built server's with. */
function bundleOptions(entry: BundledEntry, outfile: string) {
  return {
    entryPoints: [path.join(srcDir, entry.source)],
    outfile,
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: 'node22',
    ...(entry.loader ? { loader: entry.loader } : {}),
    alias: { '@tradedesk/domain': path.resolve(srcDir, '../../../packages/domain/src/index.ts') },
    logLevel: 'warning' as const,
  };
}

export function bundledEntry(entry: BundledEntry): Promise<string> {
  const beside = path.join(here, entry.file);
  if (existsSync(beside)) return Promise.resolve(beside);
  let p = built.get(entry.file);
  if (!p) {
    p = (async () => {
      const { build } = await import('esbuild');
      const outfile = path.join(mkdtempSync(path.join(tmpdir(), 'tradedesk-bundle-')), entry.file);
      await build(bundleOptions(entry, outfile));
      return outfile;
    })();
    built.set(entry.file, p);
  }
  return p;
}
