// Bundles the server and the workspace packages into one ESM file; npm dependencies stay external.
// The workers that run apart from it are separate, self-contained bundles (below).
import { cpSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const outdir = process.argv[2] ?? 'dist';

const result = await build({
  entryPoints: ['src/main.ts', 'src/worker.ts', 'src/cli/create-user.ts'],
  // `node build.mjs <outdir>` lets a second build live beside the default one.
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  packages: 'external',
  alias: {
    '@tradedesk/contract': '../../packages/contract/src/index.ts',
    '@tradedesk/domain': '../../packages/domain/src/index.ts',
  },
  logLevel: 'warning',
  metafile: true,
});

// Test-only code (the fake broker servers in src/testing/, the test helpers in src/test/) must never
// reach the production bundle.
const leaked = Object.keys(result.metafile.inputs).filter((f) => /src\/(testing|test)\//.test(f));
if (leaked.length > 0) throw new Error(`test-only files in the production build: ${leaked.join(', ')}`);

// Bundles that run apart from the server, each self-contained: the strategy sandbox worker (its
// process may read only that file and Pyodide's folder) and the statement parser's worker thread
// (parse-off-thread.ts). src/lib/bundled-entry.ts builds the same bundles, with the same options,
// when the server runs from source.
for (const [entry, file, loader] of [
  ['src/sandbox/worker.ts', 'sandbox-worker.mjs', { '.py': 'text' }],
  ['src/modules/statement-import/parsers/parse-worker.ts', 'statement-parse-worker.mjs', undefined],
]) {
  await build({
    entryPoints: [entry],
    outfile: path.join(outdir, file),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    ...(loader ? { loader } : {}),
    alias: { '@tradedesk/domain': '../../packages/domain/src/index.ts' },
    logLevel: 'warning',
  });
}

cpSync('src/modules/bots/templates', path.join(outdir, 'templates'), { recursive: true });
