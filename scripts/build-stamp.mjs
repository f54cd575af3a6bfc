// The fingerprint of everything a build is made from, so `npm start` can tell whether the last build
// is still current without rebuilding.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Inputs of `npm run build`, relative to the repository root. */
export const BUILD_INPUTS = [
  'package-lock.json',
  'tsconfig.base.json',
  'packages/contract',
  'packages/domain',
  'apps/server/src',
  'apps/server/build.mjs',
  'apps/server/package.json',
  'apps/web/src',
  'apps/web/build',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/postcss.config.cjs',
  'apps/web/package.json',
];

/** The build outputs; the stamp lives in the server's output, written after both builds succeed. */
export const BUILD_OUTPUTS = ['apps/web/dist/index.html', 'apps/server/dist/main.js'];
export const STAMP_FILE = 'apps/server/dist/.build-stamp';

function* walk(root, rel) {
  const abs = path.join(root, rel);
  if (!existsSync(abs)) return;
  if (statSync(abs).isFile()) {
    yield rel;
    return;
  }
  for (const name of readdirSync(abs).sort()) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    yield* walk(root, path.join(rel, name));
  }
}

/** sha256 over the path and content of every input file. */
export function sourceFingerprint(root, inputs = BUILD_INPUTS) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const rel of walk(root, input)) {
      hash.update(rel.split(path.sep).join('/'));
      hash.update('\0');
      hash.update(readFileSync(path.join(root, rel)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/** True when every output exists and the stamp of the last build matches the current sources. */
export function buildIsCurrent(root, fingerprint = sourceFingerprint(root)) {
  if (!BUILD_OUTPUTS.every((f) => existsSync(path.join(root, f)))) return false;
  const stamp = path.join(root, STAMP_FILE);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === fingerprint;
}

/** Records the current sources as built. */
export function writeStamp(root, fingerprint = sourceFingerprint(root)) {
  writeFileSync(path.join(root, STAMP_FILE), `${fingerprint}\n`);
}

// `node scripts/build-stamp.mjs --write`: the last step of `npm run build`.
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === '--write') {
  writeStamp(path.resolve(import.meta.dirname, '..'));
}
