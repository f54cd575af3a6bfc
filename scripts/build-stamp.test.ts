import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { buildIsCurrent, sourceFingerprint, writeStamp } from './build-stamp.mjs';

const dirs: string[] = [];
function repo(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'tradedesk-stamp-'));
  dirs.push(root);
  for (const d of ['apps/web/src', 'apps/web/dist', 'apps/server/src', 'apps/server/dist']) {
    mkdirSync(path.join(root, d), { recursive: true });
  }
  writeFileSync(path.join(root, 'apps/web/src/main.tsx'), 'render()');
  writeFileSync(path.join(root, 'apps/server/src/main.ts'), 'listen()');
  return root;
}
const built = (root: string) => {
  writeFileSync(path.join(root, 'apps/web/dist/index.html'), '<html>');
  writeFileSync(path.join(root, 'apps/server/dist/main.js'), 'listen()');
  writeStamp(root);
};

afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('npm start rebuilds only when the sources changed', () => {
  it('needs a build on a fresh clone (no outputs, no stamp)', () => {
    expect(buildIsCurrent(repo())).toBe(false);
  });

  it('skips the build when the stamp matches the sources', () => {
    const root = repo();
    built(root);
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('rebuilds after a source edit, a new file, or a missing output', () => {
    const root = repo();
    built(root);
    writeFileSync(path.join(root, 'apps/web/src/main.tsx'), 'render(2)');
    expect(buildIsCurrent(root)).toBe(false);
    built(root);
    writeFileSync(path.join(root, 'apps/server/src/extra.ts'), 'x');
    expect(buildIsCurrent(root)).toBe(false);
    built(root);
    rmSync(path.join(root, 'apps/web/dist/index.html'));
    expect(buildIsCurrent(root)).toBe(false);
  });

  it('ignores build outputs and dependencies inside the inputs', () => {
    const root = repo();
    const before = sourceFingerprint(root);
    mkdirSync(path.join(root, 'apps/web/src/node_modules'));
    writeFileSync(path.join(root, 'apps/web/src/node_modules/x.js'), 'x');
    expect(sourceFingerprint(root)).toBe(before);
  });
});
