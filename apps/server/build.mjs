// Bundles the server and the workspace packages into one ESM file; npm dependencies stay external.
// The strategy sandbox worker is a second, self-contained bundle: its process may read only that file
// and Pyodide's folder, so nothing it needs may stay external.
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

await build({
  entryPoints: ['src/sandbox/worker.ts'],
  outfile: path.join(outdir, 'sandbox-worker.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  loader: { '.py': 'text' },
  alias: { '@tradedesk/domain': '../../packages/domain/src/index.ts' },
  logLevel: 'warning',
});

// A large broker statement is read on a worker thread of its own (parse-off-thread.ts).
await build({
  entryPoints: ['src/modules/statement-import/parsers/parse-worker.ts'],
  outfile: path.join(outdir, 'statement-parse-worker.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  alias: { '@tradedesk/domain': '../../packages/domain/src/index.ts' },
  logLevel: 'warning',
});

cpSync('src/modules/bots/templates', path.join(outdir, 'templates'), { recursive: true });
