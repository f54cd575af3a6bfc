// `npm test`: the whole suite in two stages, each stage's steps side by side so the suite stays
// well under 15 minutes on a 2-core machine (the end-to-end run spends most of its time waiting on
// the browser and the simulated market, which leaves a core for the unit and integration tests).
//   1. lint, typecheck and the production build (the end-to-end tests run against the build);
//   2. unit + integration tests (vitest) and end-to-end tests (Playwright).
// Every line is prefixed with its step; the summary lists each step's time and result. The exit
// code is non-zero when any step fails. `npm run test:unit` and `npm run test:e2e` still run alone.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const results = [];

function step(name, args) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '0' } });
    const prefix = (stream, out) => {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) out.write(`[${name}] ${line}\n`);
      });
      stream.on('end', () => rest && out.write(`[${name}] ${rest}\n`));
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on('close', (code, signal) => {
      const ok = code === 0;
      results.push({ name, ok, seconds: (Date.now() - t0) / 1000, code: code ?? signal });
      resolve(ok);
    });
  });
}

function summary() {
  console.log('\n=== npm test summary ===');
  for (const r of results)
    console.log(
      `${r.ok ? 'pass' : 'FAIL'}  ${r.name.padEnd(10)} ${r.seconds.toFixed(0).padStart(5)} s${r.ok ? '' : `  (exit ${r.code})`}`,
    );
  console.log(`total ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const first = await Promise.all([
  step('lint', ['run', 'lint']),
  step('typecheck', ['run', 'typecheck']),
  step('build', ['run', 'build']),
]);
if (first.includes(false)) {
  summary();
  process.exit(1);
}
const second = await Promise.all([
  step('unit', ['run', 'test:unit']),
  step('e2e', ['exec', '--', 'playwright', 'test', '-c', 'apps/web/playwright.config.ts']),
]);
summary();
process.exit(second.includes(false) ? 1 : 0);
