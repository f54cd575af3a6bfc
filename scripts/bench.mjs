// `npm run bench [name]`: runs every bench/*.bench.ts (or those whose name contains the argument)
// one after the other, each in its own process, and prints their figures.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const dir = path.resolve(import.meta.dirname, '../bench');
const filter = process.argv[2] ?? '';
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches "${filter}"`);
  process.exit(1);
}
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
