// Bundles the server and the workspace packages into one ESM file; npm dependencies stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts', 'src/cli/create-user.ts'],
  // `node build.mjs <outdir>` lets a second build live beside the default one.
  outdir: process.argv[2] ?? 'dist',
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
});
